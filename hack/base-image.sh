#!/usr/bin/env bash
# make base-image: a catalog base image that needs nothing from the
# network but Go modules: FROM scratch with this static opm at /bin/opm and
# a static grpc_health_probe at /bin/grpc_health_probe (OLM's catalog pods
# probe with it), like quay.io/operator-framework/opm but built here.
#
# Usage: hack/base-image.sh [--context DIR] BIN/OPM TAG
# Writes the build context to bin/base-image/ and builds it with buildah,
# podman or docker, the first that works; with none, it says how to build
# the context elsewhere. With --context, it writes the context to DIR and
# builds nothing (the e2e tests build it their own way). Then:
#   opm generate dockerfile catalog -i TAG -b TAG && buildah bud -f catalog.Dockerfile -t CATALOG .
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ctx=$here/bin/base-image context_only=
if [ "${1:-}" = --context ]; then ctx=$2 context_only=1; shift 2; fi
bin=$(realpath "$1")
tag=$2
if ldd "$bin" >/dev/null 2>&1; then
  echo "base-image: $bin is dynamically linked and would not run FROM scratch: build it with make build (CGO_ENABLED=0)" >&2
  exit 1
fi
E2E_TOOLS=health_probe source "$here/e2e/tools.sh"
rm -rf "$ctx" && mkdir -p "$ctx"
cp "$bin" "$ctx/opm"
cp "$HEALTH_PROBE" "$ctx/grpc_health_probe"
cat > "$ctx/Dockerfile" <<'DOCKERFILE'
# A catalog base image: opm serves the catalog, grpc_health_probe answers
# OLM's readiness and liveness probes. Both are static binaries.
FROM scratch
COPY opm /bin/opm
COPY grpc_health_probe /bin/grpc_health_probe
ENTRYPOINT ["/bin/opm"]
DOCKERFILE
[ -z "$context_only" ] || exit 0
tried=()
for engine in buildah podman docker; do
  command -v "$engine" >/dev/null || continue
  case $engine in
  buildah) cmd=(buildah bud -q -t "$tag" "$ctx") ;;
  *) cmd=("$engine" build -q -t "$tag" "$ctx") ;;
  esac
  if "${cmd[@]}" >"$ctx.log" 2>&1; then
    echo "base-image: built $tag with $engine from $ctx"
    exit 0
  fi
  tried+=("$engine ($(tail -1 "$ctx.log"))")
done
echo "base-image: the build context is $ctx, but no container engine here built it${tried:+: ${tried[*]}}" >&2
echo "  build it where one runs: buildah bud -t $tag $ctx (or podman/docker build)" >&2
exit 1
