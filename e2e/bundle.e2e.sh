#!/usr/bin/env bash
# Bundle images and image transports end to end. Bundle images built with
# `opm alpha bundle build`, by buildah and without an engine (-b none), are
# pushed to Debian's docker-registry on a loopback port and must render
# exactly as their directories do; `alpha bundle unpack` must give the
# directories back. Images copied with skopeo into OCI layouts, OCI
# archives and docker archives must render as the registry image does,
# and skopeo must read what -b none writes. Usage: e2e/bundle.e2e.sh bin/opm
#
# Installs docker-registry, buildah and skopeo with apt-get when they are
# missing (pinned versions, Debian 12).
set -euo pipefail
bin=$(realpath "$1")
E2E_NAME=bundle
source "$(dirname "$0")/lib.sh"
need_image_tools
need_skopeo
start_registry plain
reg=$registry
export HELP_ALPHA=true

# opm runs `buildah bud` from PATH: point it at the private storage.
mkdir -p "$work/wrap"
printf '#!/bin/sh\nexec %s %s "$@"\n' "$(command -v buildah)" "${buildah[*]:1}" > "$work/wrap/buildah"
chmod +x "$work/wrap/buildah"
skopeo=(skopeo --insecure-policy)

annotation() { # FILE KEY: the value of an annotation
  sed -n "s/^ *operators.operatorframework.io.bundle.$2: *//p" "$1" | head -1 | tr -d "\"'"
}

start=$(date +%s)
n=0
for dir in "$here"/testdata/bundles/*/; do
  dir=${dir%/}
  name=$(basename "$dir" | tr '[:upper:]_' '[:lower:]-')
  a="$dir/metadata/annotations.yaml"
  pkg=$(annotation "$a" package.v1) channels=$(annotation "$a" channels.v1) default=$(annotation "$a" channel.default.v1)
  args=(-d manifests -p "$pkg" -c "$channels")
  [ -z "$default" ] || args+=(-e "$default")
  ctx="$work/ctx/$name"
  mkdir -p "$ctx"
  cp -R "$dir/manifests" "$dir/metadata" "$ctx/"

  # buildah, as upstream runs it: the bundle's own annotations.yaml agrees
  # with the flags, so it is kept; the Dockerfile is generated.
  (cd "$ctx" && PATH="$work/wrap:$PATH" "$bin" alpha bundle build "${args[@]}" -t "localhost/e2e/$name:v1" -b buildah > build.log 2>&1) || fail "$name: build -b buildah: $(cat "$ctx/build.log")"
  cmp -s "$ctx/metadata/annotations.yaml" "$a" && ok || fail "$name: build replaced the bundle's annotations.yaml"
  grep -q '^COPY manifests /manifests/$' "$ctx/bundle.Dockerfile" && ok || fail "$name: bundle.Dockerfile: $(cat "$ctx/bundle.Dockerfile")"
  "${buildah[@]}" push -q --tls-verify=false "localhost/e2e/$name:v1" "docker://$reg/bundles/$name:buildah"
  # without an engine, straight to the registry
  (cd "$ctx" && "$bin" alpha bundle build "${args[@]}" -t "$reg/bundles/$name:none" -b none 2> none.log) || fail "$name: build -b none: $(cat "$ctx/none.log")"

  for tag in buildah none; do
    ref="$reg/bundles/$name:$tag"
    "$bin" render "$ref" > "$work/img.json" || fail "render $ref"
    "$bin" render "$dir" --alpha-image-ref-template "$ref" > "$work/dir.json"
    cmp -s "$work/img.json" "$work/dir.json" && ok || fail "$ref renders differently from $dir"
    rm -rf "$work/unpacked"
    "$bin" alpha bundle unpack "$ref" -o "$work/unpacked" 2>"$work/unpack.log" || fail "unpack $ref: $(cat "$work/unpack.log")"
    diff -r "$work/unpacked/manifests" "$dir/manifests" >/dev/null && diff -r "$work/unpacked/metadata" "$dir/metadata" >/dev/null && ok || fail "unpack $ref differs from $dir"
  done
  n=$((n+1))
done
echo "bundle e2e: $n bundles built with buildah and -b none, pushed, rendered and unpacked in $(( $(date +%s) - start ))s"

# -b none into an OCI layout: skopeo reads it and pushes it; the pushed
# image renders as the layout does.
dir="$here/testdata/bundles/pelorus-operator_0.0.2"
cp -R "$dir" "$work/pelorus"
(cd "$work/pelorus" && "$bin" alpha bundle build -d manifests -p pelorus-operator -c alpha -t "oci:$work/built:v1" -b none 2>/dev/null) || fail "build -b none to an OCI layout"
"${skopeo[@]}" copy -q --dest-tls-verify=false "oci:$work/built:v1" "docker://$reg/built/pelorus:v1" || fail "skopeo cannot read the OCI layout -b none wrote"
"$bin" render "oci:$work/built:v1" > /dev/null || fail "render oci:$work/built:v1"
"$bin" render "$reg/built/pelorus:v1" > "$work/img.json"
"$bin" render "$dir" --alpha-image-ref-template "$reg/built/pelorus:v1" > "$work/dir.json"
cmp -s "$work/img.json" "$work/dir.json" && ok || fail "the -b none layout, pushed by skopeo, renders differently"

# --- transports: skopeo copies of registry images -------------------------------
mkdir -p "$work/ctx/catalog"
cp -R "$here/testdata/catalog" "$work/ctx/catalog/configs"
printf 'FROM scratch\nADD configs /configs\nLABEL operators.operatorframework.io.index.configs.v1=/configs\n' > "$work/ctx/catalog/Dockerfile"
build_push "$work/ctx/catalog" "$reg/catalog:v1"
"$bin" render "$reg/catalog:v1" > "$work/catalog.json" || fail "render the catalog image"
cmp -s "$work/catalog.json" "$here/testdata/catalog.golden.json" && ok || fail "catalog image render"
bundle="$reg/bundles/pelorus-operator-0.0.2:buildah"

copy() { "${skopeo[@]}" copy -q --src-tls-verify=false "docker://$1" "$2" || fail "skopeo copy $1 $2"; }
copy "$reg/catalog:v1" "oci:$work/layout:catalog"
copy "$bundle" "oci:$work/layout:pelorus"
copy "$reg/catalog:v1" "oci-archive:$work/catalog-oci.tar:catalog"
copy "$bundle" "oci-archive:$work/pelorus-oci.tar"
copy "$reg/catalog:v1" "docker-archive:$work/catalog-docker.tar:quay.io/example/catalog:v1"
copy "$bundle" "docker-archive:$work/pelorus-docker.tar:quay.io/example/pelorus:v1"
for ref in "oci:$work/layout:catalog" "oci-archive:$work/catalog-oci.tar:catalog" \
  "oci-archive:$work/catalog-oci.tar" "docker-archive:$work/catalog-docker.tar" \
  "docker-archive:$work/catalog-docker.tar:quay.io/example/catalog:v1"; do
  "$bin" render "$ref" > "$work/local.json" || fail "render $ref"
  cmp -s "$work/local.json" "$work/catalog.json" && ok || fail "$ref renders differently from the registry image"
  "$bin" alpha list bundles "$ref" > "$work/list.txt" || fail "alpha list bundles $ref"
  cmp -s "$work/list.txt" <("$bin" alpha list bundles "$reg/catalog:v1") && ok || fail "alpha list bundles $ref"
done
for ref in "oci:$work/layout:pelorus" "oci-archive:$work/pelorus-oci.tar" \
  "docker-archive:$work/pelorus-docker.tar:quay.io/example/pelorus:v1" "docker-archive:$work/pelorus-docker.tar:@0"; do
  "$bin" render "$ref" > "$work/local.json" || fail "render $ref"
  "$bin" render "$dir" --alpha-image-ref-template "$ref" > "$work/dir.json"
  cmp -s "$work/local.json" "$work/dir.json" && ok || fail "$ref renders differently from $dir"
  rm -rf "$work/unpacked"
  "$bin" alpha bundle unpack "$ref" -o "$work/unpacked" 2>/dev/null && diff -r "$work/unpacked/manifests" "$dir/manifests" >/dev/null && ok || fail "unpack $ref"
done
# buildah's own docker archive (as podman save writes them)
"${buildah[@]}" push -q "localhost/e2e/pelorus-operator-0.0.2:v1" "docker-archive:$work/buildah.tar:localhost/e2e/pelorus:v1"
"$bin" render "docker-archive:$work/buildah.tar:localhost/e2e/pelorus:v1" > "$work/local.json" || fail "render buildah's docker archive"
"$bin" render "$dir" --alpha-image-ref-template "docker-archive:$work/buildah.tar:localhost/e2e/pelorus:v1" | cmp -s - "$work/local.json" && ok || fail "buildah's docker archive renders differently"

echo "bundle e2e: $checks checks passed"
