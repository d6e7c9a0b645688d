#!/usr/bin/env bash
# make base-image, end to end, with no container engine: hack/base-image.sh
# writes the FROM scratch base (this opm, grpc_health_probe) as an OCI
# archive in under 60 s once the module cache is warm; the same binaries
# give the same digest; `opm alpha catalog build --base-image
# oci-archive:...` reads it with an empty PATH, says nothing (it knows its
# own opm) and the catalog image renders as the catalog directory does.
# Usage: e2e/base-image.e2e.sh bin/opm (static: make build)
set -euo pipefail
bin=$(realpath "$1")
E2E_NAME=base-image
source "$(dirname "$0")/lib.sh"
need_static "$bin"

t0=$(date +%s)
"$here/hack/base-image.sh" "$bin" "oci-archive:$work/base.tar" > "$work/base.out" 2>&1 || fail "base-image: $(cat "$work/base.out")"
secs=$(( $(date +%s) - t0 ))
[ "$secs" -lt 60 ] && ok || fail "base-image took ${secs}s"
grep -q '^wrote oci-archive:.*(linux/[a-z0-9]*, sha256:' "$work/base.out" && ok || fail "base-image output: $(cat "$work/base.out")"
for engine in buildah podman docker skopeo; do
  command -v $engine >/dev/null || ! grep -q "$engine" "$work/base.out" || fail "the hints name $engine, which is not installed"
done
ok
"$here/hack/base-image.sh" "$bin" "oci-archive:$work/again.tar" > "$work/again.out" 2>&1 || fail "base-image again: $(cat "$work/again.out")"
[ "$(grep -o 'sha256:[0-9a-f]*' "$work/base.out")" = "$(grep -o 'sha256:[0-9a-f]*' "$work/again.out")" ] && ok || fail "the same binaries gave another digest"

mkdir -p "$work/nobin"
env -i PATH="$work/nobin" HOME="$work" "$bin" alpha catalog build "$here/testdata/catalog" \
  --base-image "oci-archive:$work/base.tar" --tag "oci-archive:$work/catalog.tar" > "$work/build.out" 2> "$work/build.err" ||
  fail "catalog build on the base: $(cat "$work/build.err")"
[ ! -s "$work/build.err" ] && ok || fail "catalog build warned: $(cat "$work/build.err")"
"$bin" render "oci-archive:$work/catalog.tar" -o json > "$work/image.json" || fail "render of the catalog image"
"$bin" render "$here/testdata/catalog" -o json > "$work/dir.json"
cmp -s "$work/image.json" "$work/dir.json" && ok || fail "the catalog image renders differently from its directory"
echo "base-image e2e: $checks checks passed (base in ${secs}s)"
