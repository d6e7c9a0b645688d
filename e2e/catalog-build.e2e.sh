#!/usr/bin/env bash
# opm alpha catalog build, end to end: a linux/amd64 + linux/arm64 base
# image (hack/base-image.sh's context, with a stand-in opm for arm64,
# assembled with buildah into a manifest list on a loopback
# docker-registry); the catalog image built by `opm alpha catalog build`
# with no container engine on PATH; its index lists both platforms; a
# second build (and an OCI archive, copied on by skopeo) gives the same
# digest; the amd64 image runs in a buildah container with its own
# entrypoint and command and answers grpc_health_probe on 127.0.0.1; and it renders exactly as the
# image Buildah builds from `opm generate dockerfile` on the same base.
#
# Needs root (buildah with chroot isolation, as catalog-image.e2e.sh).
# The catalog is ../shared/conformance/catalogs when it exists, else
# testdata/catalog.
# Usage: e2e/catalog-build.e2e.sh bin/opm (static: make build)
set -euo pipefail
bin=$(realpath "$1")
E2E_NAME=catalog-build
source "$(dirname "$0")/lib.sh"
source "$here/e2e/tools.sh"
need_image_tools
catalog=$(real_catalogs "$here/testdata/catalog")
t0=$(date +%s)
need_static "$bin"

start_registry plain
reg=$registry

# --- a two-platform base ------------------------------------------------------------
"$here/hack/base-image.sh" --context "$work/base-amd64" "$bin" -
# The arm64 base never runs here. Its /bin/opm is a stand-in: a minimal
# program built for linux/arm64 whose main module is this project's, which
# is what catalog build reads to choose the image's command (a real
# cross-compiled opm costs ~100 s on a cold CI machine for nothing more);
# its grpc_health_probe is the host's.
mkdir -p "$work/standin"
printf 'module github.com/fbcat/opm\n\ngo 1.24\n' > "$work/standin/go.mod"
printf 'package main\n\nfunc main() {}\n' > "$work/standin/main.go"
(cd "$work/standin" && CGO_ENABLED=0 GOOS=linux GOARCH=arm64 GOFLAGS= go build -trimpath -o "$work/opm-arm64" .) ||
  fail "building the linux/arm64 stand-in opm"
"$here/hack/base-image.sh" --context "$work/base-arm64" "$work/opm-arm64" -
base=$reg/opm:multi
for arch in amd64 arm64; do
  "${buildah[@]}" build --isolation chroot -q --platform "linux/$arch" --manifest localhost/e2e/opm-base \
    -f "$work/base-$arch/Dockerfile" "$work/base-$arch" > "$work/base-$arch.log" 2>&1 ||
    fail "buildah build of the linux/$arch base: $(tail -5 "$work/base-$arch.log")"
done
"${buildah[@]}" manifest push -q --all --tls-verify=false localhost/e2e/opm-base "docker://$base" > "$work/push.log" 2>&1 ||
  fail "pushing the base's manifest list: $(cat "$work/push.log")"
echo "catalog-build e2e: two-platform base $base in $(( $(date +%s) - t0 ))s"

# --- the catalog image, with no container engine on PATH ----------------------------------
mkdir -p "$work/nobin"
for tool in buildah podman docker; do ! PATH=$work/nobin command -v $tool >/dev/null || fail "$tool is on the empty PATH"; done
build() { env -i PATH="$work/nobin" HOME="$work" "$bin" alpha catalog build "$catalog" --base-image "$base" --use-http "$@"; }
t1=$(date +%s)
build --tag "$reg/catalog:v1" -o json > "$work/build.json" 2> "$work/build.err" || fail "catalog build: $(cat "$work/build.err")"
[ ! -s "$work/build.err" ] && ok || fail "catalog build wrote to stderr: $(cat "$work/build.err")"
secs=$(( $(date +%s) - t1 ))
digest=$(python3 -c 'import json,sys;d=json.load(open(sys.argv[1]));print(d["digest"]);assert [p["platform"] for p in d["platforms"]]==["linux/amd64","linux/arm64"], d' "$work/build.json") ||
  fail "-o json: $(cat "$work/build.json")"
ok

# The registry's index lists both platforms.
curl -sf -H 'Accept: application/vnd.oci.image.index.v1+json' -H 'Accept: application/vnd.docker.distribution.manifest.list.v2+json' \
  "http://$reg/v2/catalog/manifests/v1" > "$work/index.json" || fail "reading the index of $reg/catalog:v1"
python3 -c 'import json,sys;m=json.load(open(sys.argv[1]))["manifests"];p=sorted(d["platform"]["os"]+"/"+d["platform"]["architecture"] for d in m);assert p==["linux/amd64","linux/arm64"],p' "$work/index.json" && ok ||
  fail "the index does not list linux/amd64 and linux/arm64: $(cat "$work/index.json")"
[ "sha256:$(sha256sum < "$work/index.json" | cut -d' ' -f1)" = "$digest" ] && ok || fail "the index's digest is not the one printed ($digest)"

# Reproducible: again, to another tag and to an OCI archive.
again=$(build --tag "$reg/catalog:again") || fail "second catalog build"
[ "$again" = "$digest" ] && ok || fail "a second build gave $again, the first $digest"
archived=$(build --tag "oci-archive:$work/catalog.tar") || fail "catalog build to an OCI archive"
[ "$archived" = "$digest" ] && ok || fail "the OCI archive's digest $archived is not $digest"
# skopeo copies the archive's every platform, keeping the digest.
need_skopeo
skopeo copy -q --all --dest-tls-verify=false "oci-archive:$work/catalog.tar" "docker://$reg/catalog:skopeo" > "$work/skopeo.log" 2>&1 ||
  fail "skopeo copy --all of the OCI archive: $(cat "$work/skopeo.log")"
copied=$(skopeo inspect --raw --tls-verify=false "docker://$reg/catalog:skopeo" | sha256sum | cut -d' ' -f1)
[ "sha256:$copied" = "$digest" ] && ok || fail "skopeo copy --all changed the digest to sha256:$copied"
echo "catalog-build e2e: $(basename "$catalog") built for linux/amd64 and linux/arm64 in ${secs}s, $digest, the same twice"

# --- serving from the amd64 image ---------------------------------------------------------
image=$reg/catalog:v1
ctr_from "$image"
config=$("${buildah[@]}" inspect --format '{{.OCIv1.Architecture}} {{.OCIv1.Config.Entrypoint}} {{.OCIv1.Config.Cmd}}' "$ctr")
[ "$config" = 'amd64 [/bin/opm] [serve /configs --cache-dir=/tmp/cache]' ] && ok || fail "architecture, entrypoint and command: $config"
addr=127.0.0.1:$(free_port)
# The image's own entrypoint and command, with the address added.
bg "$work/run.log" "${buildah[@]}" run --isolation chroot --network host "$ctr" -- \
  /bin/opm serve /configs --cache-dir=/tmp/cache -p "$addr"
WATCH_PID=$bg_pid wait_until 60 "$HEALTH_PROBE" -addr "$addr" -connect-timeout 1s ||
  fail "the image's serve did not become healthy on $addr: $(cat "$work/run.log")"
ok
"$GRPCURL" -plaintext "$addr" api.Registry/ListPackages > "$work/packages.json" && grep -q '"name"' "$work/packages.json" && ok ||
  fail "ListPackages from the image: $(head -5 "$work/packages.json")"
stop "$bg_pid" 10

# --- the same as the image Buildah builds from the generated Dockerfile -----------------
mkdir -p "$work/ctx"
cp -R "$catalog" "$work/ctx/catalog"
"$bin" generate dockerfile "$work/ctx/catalog" -i "$base" -b "$base" 2> "$work/generate.err" || fail "generate dockerfile: $(cat "$work/generate.err")"
"${buildah[@]}" bud --isolation chroot --tls-verify=false -f "$work/ctx/catalog.Dockerfile" -t "$reg/catalog:buildah" "$work/ctx" > "$work/bud.log" 2>&1 ||
  fail "buildah bud of the generated Dockerfile: $(tail -20 "$work/bud.log")"
"${buildah[@]}" push -q --tls-verify=false "$reg/catalog:buildah" "docker://$reg/catalog:buildah"
"$bin" render "$reg/catalog:buildah" > "$work/buildah.json" || fail "render of the Buildah-built image"
"$bin" render "$image" > "$work/built.json" || fail "render of the built image"
cmp -s "$work/buildah.json" "$work/built.json" && ok || fail "the built image renders differently from the Buildah-built one"
"$bin" render "$image" --platform linux/arm64 | cmp -s - "$work/built.json" && ok || fail "the arm64 image renders differently"
"$bin" render "oci-archive:$work/catalog.tar" | cmp -s - "$work/built.json" && ok || fail "the OCI archive renders differently"
"$bin" render "$catalog" | cmp -s - "$work/built.json" && ok || fail "the built image renders differently from $catalog"
echo "catalog-build e2e: $checks checks passed in $(( $(date +%s) - t0 ))s"
