#!/usr/bin/env bash
# Builds kube-apiserver and etcd from the Go module proxy alone (no
# download site), for e2e/olmv1-kube.e2e.sh. Heavy: kube-apiserver takes
# about 14 minutes on two busy cores; run it once and keep OUT.
# Usage: e2e/build-kube.sh OUT [KUBERNETES_VERSION [ETCD_VERSION]]
#   then: KUBE_APISERVER=OUT/kube-apiserver ETCD=OUT/etcd e2e/olmv1-kube.e2e.sh bin/opm
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
k8s=${2:-v1.34.4}
etcd=${3:-v3.6.5}
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

# k8s.io/kubernetes's module zip leaves out staging/ (its own modules),
# and its go.mod replaces them with ./staging/src/...: point each replace
# at the published module of the same release (v0.X.Y for v1.X.Y).
dir=$(go mod download -json "k8s.io/kubernetes@$k8s" | python3 -c 'import json,sys;print(json.load(sys.stdin)["Dir"])') ||
  { echo "build-kube: go mod download k8s.io/kubernetes@$k8s failed: is the Go module proxy reachable?" >&2; exit 2; }
cp -R "$dir" "$tmp/k8s" && chmod -R u+w "$tmp/k8s"
rm -f "$tmp/k8s/go.work" "$tmp/k8s/go.work.sum"
staging=v0.${k8s#v1.}
sed -i -E "s#^(\s+)(k8s\.io/[a-z0-9-]+) => \./staging/src/k8s\.io/[a-z0-9-]+\$#\1\2 => \2 $staging#" "$tmp/k8s/go.mod"
(cd "$tmp/k8s" && time nice env GOFLAGS=-mod=mod go build -o "$out/kube-apiserver" ./cmd/kube-apiserver)

# etcd: a throwaway main module calling etcdmain, as etcd's own binary does.
mkdir "$tmp/etcd"
cat > "$tmp/etcd/main.go" <<'EOF'
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
EOF
(cd "$tmp/etcd" && go mod init etcdbuild > /dev/null 2>&1 && GOFLAGS=-mod=mod go get "go.etcd.io/etcd/server/v3@$etcd" > /dev/null 2>&1 &&
  GOFLAGS=-mod=mod go mod tidy > /dev/null 2>&1 && time nice go build -o "$out/etcd" .) ||
  { echo "build-kube: building etcd $etcd failed" >&2; exit 2; }
"$out/kube-apiserver" --version && "$out/etcd" --version | head -1
