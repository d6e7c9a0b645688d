#!/usr/bin/env bash
# Catalog authoring end to end: offline equals online. The bundle
# directories of testdata/repo are built into images with buildah and
# pushed to Debian's docker-registry on a loopback port; an empty
# repository (ci.yaml files only) is then filled by
# `opm alpha catalog release` of every bundle, offline, in version order,
# then promote, deprecate and remove. After each step, every catalog must
# hold the same objects as `opm alpha render-template` gives for its
# template, pulling the images from the registry (with
# --migrate-level bundle-object-to-csv-metadata for v4.17 and later), and
# pass opm validate; render --check must pass; and render --check --pull
# must agree. Usage: e2e/catalog-authoring.e2e.sh bin/opm
set -euo pipefail
bin=$(realpath "$1")
E2E_NAME=catalog-authoring
source "$(dirname "$0")/lib.sh"
need_image_tools

start_registry plain
prefix=$registry/authoring
src=$here/testdata/repo

# --- bundle images of every bundle directory -------------------------------------------
start=$(date +%s)
for dir in "$src"/operators/*/*/; do
  [ -d "$dir/manifests" ] || continue
  op=$(basename "$(dirname "$dir")") version=$(basename "$dir")
  pkg=$(sed -n 's/.*bundle.package.v1: *//p' "$dir/metadata/annotations.yaml")
  ctx=$work/ctx/$op-$version
  mkdir -p "$ctx"
  cp -R "$dir/manifests" "$dir/metadata" "$ctx/"
  bundle_dockerfile "$ctx" "$pkg"
  build_push "$ctx" "$prefix/$op:v$version"
done
echo "catalog-authoring e2e: bundle images built and pushed in $(( $(date +%s) - start ))s"

export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"

# --- an empty repository: ci.yaml and the bundle directories ------------------------------
repo=$work/repo
mkdir -p "$repo"
cp -R "$src/operators" "$repo/"
rm -rf "$repo"/operators/*/catalog-templates
cd "$repo"

# agree: every catalog holds what render-template gives for its template,
# pulling the images, and validates.
agree() {
  local step=$1 cat tmpl level pkg v
  for cat in catalogs/*/*/catalog.yaml; do
    pkg=$(basename "$(dirname "$cat")") v=$(basename "$(dirname "$(dirname "$cat")")")
    tmpl=$(ls operators/"$pkg"/catalog-templates/*)
    level=
    case "$v" in v4.1[7-9]|v4.[2-9][0-9]) level=bundle-object-to-csv-metadata ;; esac
    mkdir -p "$work/online/$v/$pkg"
    "$bin" alpha render-template "$tmpl" -o yaml --use-http ${level:+--migrate-level "$level"} > "$work/online/$v/$pkg/catalog.yaml" 2> "$work/rt.err" ||
      fail "$step: render-template $tmpl: $(cat "$work/rt.err")"
    "$bin" alpha diff "$work/online/$v/$pkg" "$(dirname "$cat")" --exit-code > "$work/diff.out" ||
      fail "$step: $cat differs from what render-template gives online: $(head -20 "$work/diff.out")"
    "$bin" validate "$(dirname "$cat")" || fail "$step: $cat is not valid"
    ok
  done
  "$bin" alpha catalog render --check 2> "$work/check.err" || fail "$step: render --check: $(cat "$work/check.err")"
  "$bin" alpha catalog render --check --pull --use-http 2> "$work/check.err" || fail "$step: render --check --pull: $(cat "$work/check.err")"
  ok
}

# Release in version order (sort -V puts 1.1.0-rc.1 after 1.0.1).
for dir in $(ls -d operators/*/*/ | sort -V); do
  [ -f "$dir/release-config.yaml" ] || continue
  op=$(basename "$(dirname "$dir")") version=$(basename "$dir")
  "$bin" alpha catalog release "$dir" --image "$prefix/$op:v$version" > "$work/rel.out" 2>&1 ||
    fail "release $dir: $(cat "$work/rel.out")"
  agree "release $op $version"
done

"$bin" alpha catalog promote widget widget-operator.v1.2.0 --to stable > /dev/null || fail "promote"
agree "promote"
"$bin" alpha catalog deprecate widget --channel fast --message "use stable" > /dev/null || fail "deprecate"
agree "deprecate"
"$bin" alpha catalog remove widget widget-operator.v1.1.1 > /dev/null || fail "remove"
agree "remove"
"$bin" alpha catalog promote gadget gadget-operator.v1.0.1 --to Fast > /dev/null || fail "promote semver"
agree "promote semver"
echo "catalog-authoring e2e: $checks checks passed in $(( $(date +%s) - start ))s"
