#!/usr/bin/env bash
# Images end to end: Debian's docker-registry on a loopback port, bundle and
# catalog images built with buildah and pushed to it, and opm rendering them.
# Every image must render exactly as its directory does (bundles with the
# image field set to the reference). Usage: e2e/images.e2e.sh bin/opm
#
# Installs docker-registry and buildah with apt-get when they are missing
# (pinned versions, Debian 12). Bundles and the catalog come from
# ../shared/conformance when it exists, else from testdata.
set -euo pipefail
bin=$(realpath "$1")
E2E_NAME=images
source "$(dirname "$0")/lib.sh"
need_image_tools

start_registry plain
reg=$registry
htpasswd -Bbc "$work/htpasswd" alice s3cret 2>/dev/null
start_registry auth "$work/htpasswd"
authreg=$registry

# --- bundles -------------------------------------------------------------------
if [ -d "$here/../shared/conformance/bundles" ]; then
  bundles="$here/../shared/conformance/bundles"
  catalog="$here/../shared/conformance/catalogs"
else
  bundles="$here/testdata/bundles"
  catalog="$here/testdata/catalog"
fi

start=$(date +%s)
refs=()
for dir in "$bundles"/*/; do
  dir=${dir%/}
  name=$(basename "$dir" | tr '[:upper:]_' '[:lower:]-')
  pkg=$(sed -n 's/^ *operators.operatorframework.io.bundle.package.v1: *//p' "$dir/metadata/annotations.yaml" | head -1 | tr -d "\"'")
  ctx="$work/ctx/$name"
  mkdir -p "$ctx"
  cp -R "$dir/manifests" "$dir/metadata" "$ctx/"
  bundle_dockerfile "$ctx" "${pkg:-unknown}"
  ref="$reg/bundles/$name:v1"
  build_push "$ctx" "$ref"
  refs+=("$ref")

  "$bin" render "$ref" > "$work/img.json" || fail "render $ref"
  "$bin" render "$dir" --alpha-image-ref-template "$ref" > "$work/dir.json" || fail "render $dir"
  cmp -s "$work/img.json" "$work/dir.json" && ok || fail "$ref renders differently from $dir with the image set"
  "$bin" render --migrate-level bundle-object-to-csv-metadata "$ref" > "$work/img.json" || fail "render --migrate-level $ref"
  "$bin" render --migrate-level bundle-object-to-csv-metadata "$dir" --alpha-image-ref-template "$ref" > "$work/dir.json"
  cmp -s "$work/img.json" "$work/dir.json" && ok || fail "$ref with migrations renders differently from $dir"
  grep -q '"olm.csv.metadata"' "$work/img.json" && ok || fail "$ref: no olm.csv.metadata after migration"
done
echo "images e2e: ${#refs[@]} bundle images built, pushed and compared in $(( $(date +%s) - start ))s"

# All bundle images in one command (timed: pulls overlap).
t0=$(date +%s.%N)
"$bin" render "${refs[@]}" > "$work/all.json" && [ "$(grep -c '"schema": "olm.bundle"' "$work/all.json")" -eq "${#refs[@]}" ] && ok || fail "rendering every bundle image at once"
echo "images e2e: ${#refs[@]} bundle images rendered in one command in $(python3 -c "import sys;print('%.2f' % ($(date +%s.%N) - $t0))")s"

# --- catalog -------------------------------------------------------------------
mkdir -p "$work/ctx/catalog"
cp -R "$catalog" "$work/ctx/catalog/configs"
cat > "$work/ctx/catalog/Dockerfile" <<'EOF'
FROM scratch
ADD configs /configs
LABEL operators.operatorframework.io.index.configs.v1=/configs
EOF
build_push "$work/ctx/catalog" "$reg/catalog:v1"
"$bin" render "$catalog" > "$work/dir.json"
"$bin" render "$reg/catalog:v1" > "$work/img.json" || fail "render catalog image"
cmp -s "$work/img.json" "$work/dir.json" && ok || fail "the catalog image renders differently from its directory"
"$bin" render "$reg/catalog:v1" -o yaml | cmp -s - <("$bin" render "$catalog" -o yaml) && ok || fail "catalog image -o yaml"
"$bin" alpha list bundles "$reg/catalog:v1" | cmp -s - <("$bin" alpha list bundles "$catalog") && ok || fail "alpha list of the catalog image"
"$bin" render --use-http "$reg/catalog:v1" | cmp -s - "$work/dir.json" && ok || fail "--use-http"

# The same image behind basic auth: refused without credentials, pulled
# with them from REGISTRY_AUTH_FILE or the docker config.
build_push "$work/ctx/catalog" "$authreg/catalog:v1" --creds alice:s3cret
set +e; "$bin" render "$authreg/catalog:v1" > "$work/out" 2> "$work/err"; rc=$?; set -e
[ $rc -ne 0 ] && [ ! -s "$work/out" ] && grep -q 'requires authentication' "$work/err" && ok || fail "anonymous pull from the auth registry: $(cat "$work/err")"
auth=$(printf 'alice:s3cret' | base64)
printf '{"auths":{"%s":{"auth":"%s"}}}' "$authreg" "$auth" > "$work/auth.json"
REGISTRY_AUTH_FILE="$work/auth.json" "$bin" render "$authreg/catalog:v1" | cmp -s - "$work/dir.json" && ok || fail "REGISTRY_AUTH_FILE"
mkdir -p "$work/docker" && cp "$work/auth.json" "$work/docker/config.json"
DOCKER_CONFIG="$work/docker" "$bin" render "$authreg/catalog:v1" | cmp -s - "$work/dir.json" && ok || fail "DOCKER_CONFIG"

# --- images that are neither -----------------------------------------------------
mkdir -p "$work/ctx/other"
printf 'FROM scratch\nLABEL org.example.purpose=test\n' > "$work/ctx/other/Dockerfile"
build_push "$work/ctx/other" "$reg/other:v1"
set +e; "$bin" render "$reg/other:v1" 2> "$work/err"; rc=$?; set -e
[ $rc -ne 0 ] && grep -q 'image type could not be determined' "$work/err" && grep -q 'org.example.purpose=test' "$work/err" && ok || fail "unlabelled image: $(cat "$work/err")"
set +e; "$bin" render "$reg/missing:v1" 2> "$work/err"; rc=$?; set -e
[ $rc -ne 0 ] && grep -q 'image not found' "$work/err" && ok || fail "missing image: $(cat "$work/err")"

# Nothing extracted is left behind.
leftovers=$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'opm-render-*' -newer "$work/plain.yml" 2>/dev/null | wc -l)
[ "$leftovers" -eq 0 ] && ok || fail "$leftovers extraction directories left in ${TMPDIR:-/tmp}"
echo "images e2e: $checks checks passed"
