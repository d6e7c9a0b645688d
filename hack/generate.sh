#!/usr/bin/env bash
# Regenerates the Go code of serve/api from serve/api/registry.proto.
#
# Usage: hack/generate.sh [OUTDIR]
#
# OUTDIR defaults to serve/api; `make check-generated` passes a temporary
# directory and compares. Every tool is pinned so that the output is
# byte-for-byte reproducible: protoc comes from Debian (its version is
# written into the file headers), the two Go plugins are installed at fixed
# versions into bin/tools.
set -euo pipefail

PROTOC_VERSION=3.21.12
PROTOC_GEN_GO_VERSION=v1.36.12
PROTOC_GEN_GO_GRPC_VERSION=v1.6.2

root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/serve/api
out=${1:-$src}
tools=$root/bin/tools

# install_plugin NAME PACKAGE VERSION: go install PACKAGE@VERSION into
# bin/tools unless the binary there already reports VERSION.
install_plugin() {
	local name=$1 pkg=$2 version=$3 have=
	if [ -x "$tools/$name" ]; then
		have=$("$tools/$name" --version 2>/dev/null | awk '{print $NF}')
	fi
	# protoc-gen-go prints "v1.36.12", protoc-gen-go-grpc prints "1.6.2".
	if [ "v${have#v}" != "$version" ]; then
		echo "installing $name $version into bin/tools" >&2
		rm -f "$tools/$name"
		GOBIN=$tools GOFLAGS= go install "$pkg@$version"
	fi
}

ensure_protoc() {
	if ! command -v protoc >/dev/null; then
		if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
			echo "protoc not found: installing protobuf-compiler libprotobuf-dev" >&2
			apt-get update >&2
			apt-get install -y protobuf-compiler libprotobuf-dev >&2
		else
			echo "protoc not found: install Debian's protobuf-compiler and libprotobuf-dev ($PROTOC_VERSION)" >&2
			exit 1
		fi
	fi
	local have
	have=$(protoc --version | awk '{print $NF}')
	if [ "$have" != "$PROTOC_VERSION" ]; then
		echo "protoc $have found, but the committed code was generated with protoc $PROTOC_VERSION" >&2
		echo "(Debian's protobuf-compiler); use that version or update PROTOC_VERSION in $0" >&2
		exit 1
	fi
}

install_plugin protoc-gen-go google.golang.org/protobuf/cmd/protoc-gen-go "$PROTOC_GEN_GO_VERSION"
install_plugin protoc-gen-go-grpc google.golang.org/grpc/cmd/protoc-gen-go-grpc "$PROTOC_GEN_GO_GRPC_VERSION"
ensure_protoc

mkdir -p "$out"
# Run from the proto's own directory so that the descriptor (and the
# "source:" header line) name the file "registry.proto", as upstream's does,
# and no machine-specific path ends up in the output.
cd "$src"
protoc -I . \
	--plugin=protoc-gen-go="$tools/protoc-gen-go" \
	--plugin=protoc-gen-go-grpc="$tools/protoc-gen-go-grpc" \
	--go_out="$out" --go_opt=paths=source_relative \
	--go-grpc_out="$out" --go-grpc_opt=paths=source_relative \
	registry.proto
