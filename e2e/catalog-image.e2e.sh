#!/usr/bin/env bash
# The catalog-image workflow of OLM, end to end, with our opm as the opm of
# the images: a FROM scratch base image holding bin/opm and
# grpc_health_probe; `opm generate dockerfile` of the catalog; `buildah bud`
# of that Dockerfile, whose builder stage runs
# `/bin/opm serve /configs --cache-dir=/tmp/cache --cache-only`; the image
# pushed to a loopback registry renders as its directory; and the image's
# serve command, run in a buildah container, answers grpc_health_probe
# (from the host and from inside) and grpcurl on 127.0.0.1.
#
# Containers run with chroot isolation, which makes no network namespace:
# the server's 127.0.0.1 is the host's (--network host says so). Needs
# root, as images.e2e.sh does. The catalog is ../shared/conformance/catalogs
# when it exists, else testdata/catalog.
# Usage: e2e/catalog-image.e2e.sh bin/opm (static: make build)
set -euo pipefail
bin=$(realpath "$1")
E2E_NAME=catalog-image
source "$(dirname "$0")/lib.sh"
source "$here/e2e/tools.sh"
need_image_tools
catalog=$(real_catalogs "$here/testdata/catalog")
t0=$(date +%s)
# A FROM scratch image has no loader or libc.
need_static "$bin"
! ldd "$HEALTH_PROBE" >/dev/null 2>&1 || fail "$HEALTH_PROBE is dynamically linked"

start_registry plain
reg=$registry

# --- the base image ---------------------------------------------------------------
"$here/hack/base-image.sh" --context "$work/base" "$bin" - # what make base-image builds
base=$reg/opm:e2e
build_push "$work/base" "$base"

# --- the catalog image, built from opm's own Dockerfile ------------------------------
mkdir -p "$work/ctx"
cp -R "$catalog" "$work/ctx/catalog"
"$bin" generate dockerfile "$work/ctx/catalog" -i "$base" -b "$base" 2> "$work/generate.err" || fail "generate dockerfile: $(cat "$work/generate.err")"
grep -qx 'RUN \["/bin/opm", "serve", "/configs", "--cache-dir=/tmp/cache", "--cache-only"\]' "$work/ctx/catalog.Dockerfile" && ok ||
  fail "the generated Dockerfile does not run serve --cache-only: $(cat "$work/ctx/catalog.Dockerfile")"
image=$reg/catalog:serve
"${buildah[@]}" bud --isolation chroot --tls-verify=false -f "$work/ctx/catalog.Dockerfile" -t "$image" "$work/ctx" > "$work/bud.log" 2>&1 ||
  fail "buildah bud of the generated Dockerfile: $(tail -20 "$work/bud.log")"
grep -q 'msg="catalog loaded"' "$work/bud.log" && ok || fail "the builder stage's serve --cache-only did not load the catalog: $(cat "$work/bud.log")"
"${buildah[@]}" push -q --tls-verify=false "$image" "docker://$image"
config=$("${buildah[@]}" inspect --format '{{.OCIv1.Config.Entrypoint}} {{.OCIv1.Config.Cmd}}' "$image")
[ "$config" = '[/bin/opm] [serve /configs --cache-dir=/tmp/cache]' ] && ok || fail "entrypoint and command: $config"
"$bin" render "$image" > "$work/img.json" || fail "render $image"
"$bin" render "$catalog" | cmp -s - "$work/img.json" && ok || fail "$image renders differently from $catalog"
echo "catalog-image e2e: $(basename "$catalog") built into $image with the generated Dockerfile (serve --cache-only ran in the build) in $(( $(date +%s) - t0 ))s"

# --- serving from the image -------------------------------------------------------------
ctr_from "$image"
addr=127.0.0.1:$(free_port)
bg "$work/run.log" "${buildah[@]}" run --isolation chroot --network host "$ctr" -- \
  /bin/opm serve /configs --cache-dir=/tmp/cache -p "$addr"
run=$bg_pid
WATCH_PID=$run wait_until 60 "$HEALTH_PROBE" -addr "$addr" -connect-timeout 1s ||
  fail "the image's serve did not become healthy on $addr: $(cat "$work/run.log")"
ok
"${buildah[@]}" run --isolation chroot --network host "$ctr" -- /bin/grpc_health_probe -addr "$addr" > "$work/probe" 2>&1 && ok ||
  fail "grpc_health_probe inside the image: $(cat "$work/probe")"
"$GRPCURL" -plaintext "$addr" api.Registry/ListPackages | python3 -c 'import json,sys
d=json.JSONDecoder();s=sys.stdin.read().strip();i=0
while i<len(s):
  o,i=d.raw_decode(s,i);print(o["name"])
  while i<len(s) and s[i].isspace(): i+=1' | sort > "$work/got"
"$bin" alpha list packages "$catalog" | awk 'NR > 1 { print $1 }' > "$work/want"
cmp -s "$work/got" "$work/want" && ok || fail "ListPackages from the image: $(diff "$work/got" "$work/want" | head)"

# buildah run answers SIGTERM by killing its command, so signal the server
# itself (a descendant of buildah run: chroot isolation keeps the host's
# pid namespace) and expect a clean exit all the way up.
server=$(python3 "$here/e2e/servecheck.py" descendant "$run" /bin/opm)
[ -n "$server" ] || fail "no /bin/opm process under buildah run $run"
kill -TERM "$server"
wait_exit "$run" 10
[ "$stop_rc" -eq 0 ] && grep -q 'msg="shutting down server"' "$work/run.log" && ok || fail "SIGTERM to serve in the container: exit status $stop_rc: $(cat "$work/run.log")"
! port_open "${addr##*:}" && ok || fail "$addr still open after the container's serve exited"
"${buildah[@]}" rm "$ctr" > /dev/null && containers=() && ok || fail "buildah rm $ctr"
echo "catalog-image e2e: served from the image on $addr: healthy (probe from host and image), $(wc -l < "$work/got") packages listed, SIGTERM exit 0"
echo "catalog-image e2e: $checks checks passed in $(( $(date +%s) - t0 ))s"
