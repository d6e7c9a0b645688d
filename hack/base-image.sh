#!/usr/bin/env bash
# make base-image: a catalog base image that needs nothing from the
# network but Go modules, and no container engine: FROM scratch with this
# static opm at /bin/opm and a static grpc_health_probe at
# /bin/grpc_health_probe (OLM's catalog pods probe with it), entrypoint
# /bin/opm, like quay.io/operator-framework/opm but built here, written by
# bench/cmd/baseimage as an OCI archive that
#   opm alpha catalog build DIR --base-image oci-archive:bin/opm-base.oci.tar --tag ...
# reads.
#
# Usage: hack/base-image.sh BIN/OPM [TARGET]    (default oci-archive:bin/opm-base.oci.tar)
#        hack/base-image.sh --context DIR BIN/OPM
# TARGET is anything opm writes images to: oci-archive:FILE, oci:DIR[:NAME]
# or a registry reference. With --context, it writes a Dockerfile build
# context to DIR instead and builds nothing (for building with an engine).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ctx=
if [ "${1:-}" = --context ]; then ctx=$2; shift 2; fi
bin=$(realpath "$1")
target=${2:-oci-archive:$here/bin/opm-base.oci.tar}
if ldd "$bin" >/dev/null 2>&1; then
  echo "base-image: $bin is dynamically linked and would not run FROM scratch: build it with make build (CGO_ENABLED=0)" >&2
  exit 1
fi
E2E_TOOLS=health_probe source "$here/e2e/tools.sh"
if [ -n "$ctx" ]; then
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
  exit 0
fi
(cd "$here" && go run ./bench/cmd/baseimage -opm "$bin" -probe "$HEALTH_PROBE" -o "$target")
echo "base-image: build a catalog image on it: $bin alpha catalog build catalog --base-image $target --tag oci-archive:catalog.tar"
# How to hand it to a container engine, naming only the tools installed here.
case $target in
oci-archive:*)
  if command -v skopeo >/dev/null; then
    echo "base-image: or copy it to a registry: skopeo copy $target docker://REGISTRY/opm-base:TAG"
  fi
  for engine in podman buildah; do
    if command -v $engine >/dev/null; then
      echo "base-image: or load it into $engine's storage: $engine pull $target"
    fi
  done
  if command -v docker >/dev/null; then
    echo "base-image: or push it with opm to a registry docker pulls from: make base-image BASE_IMAGE=REGISTRY/opm-base:TAG"
  fi
  ;;
esac
