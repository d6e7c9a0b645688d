#!/usr/bin/env bash
# make demo: the main job of opm on the example data in testdata/, in a
# temporary directory that is removed afterwards. Usage: hack/demo.sh bin/opm
set -euo pipefail
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
bold='' plain=''
[ -t 1 ] && bold=$'\033[1m' plain=$'\033[0m'
step() { printf '\n%s# %s%s\n' "$bold" "$*" "$plain"; }
cat <<TXT
opm demo: a catalog maintainer's main jobs on the example data in testdata/,
run in $d (removed at the end). Each step prints the
command's output; nothing outside that directory is touched.
TXT

mkdir -p "$d/catalog"
cp -R "$here/testdata/catalog/." "$d/catalog/"

step 'opm init: start a new package in the catalog (first lines)'
mkdir -p "$d/catalog/my-operator"
"$bin" init my-operator --default-channel stable --description "$here/testdata/demo/README.md" \
  --icon "$here/testdata/demo/logo.svg" -o yaml > "$d/catalog/my-operator/package.yaml"
head -8 "$d/catalog/my-operator/package.yaml"
cp "$here/testdata/demo/channel.yaml" "$d/catalog/my-operator/"

step 'opm render: the catalog, byte for byte as upstream opm writes it (first lines)'
"$bin" render "$d/catalog" -o yaml | head -12

step 'opm render: a registry+v1 bundle directory, with the image it will be pushed as'
"$bin" render "$here/testdata/bundles/pelorus-operator_0.0.2" \
  --alpha-image-ref-template 'quay.io/example/{{.Package}}-bundle:v{{.Version}}' -o yaml |
  grep -E '^(image|name|package|schema):'

step 'opm alpha list channels: what the catalog holds'
"$bin" alpha list channels "$d/catalog"

step 'opm validate: every problem with its file and line (a broken copy first, then the catalog)'
cp -R "$d/catalog" "$d/broken"
cp "$here/testdata/demo/broken.yaml" "$d/broken/my-operator/channel.yaml"
"$bin" validate "$d/broken" || echo "(exit status $?: the broken copy is refused)"
"$bin" validate "$d/catalog" && echo "$d/catalog: valid"

step 'opm alpha catalog: release a bundle into an operator repository (testdata/repo), offline'
cp -R "$here/testdata/repo" "$d/repo"
(
  cd "$d/repo"
  "$bin" alpha catalog render --check
  "$bin" alpha catalog release operators/widget/1.2.0 --image quay.io/example/widget-operator-bundle:v1.2.0 --dry-run 2>/dev/null | sed -n 1,16p
  "$bin" alpha catalog release operators/widget/1.2.0 --image quay.io/example/widget-operator-bundle:v1.2.0
  "$bin" alpha catalog promote widget widget-operator.v1.2.0 --to stable
  "$bin" alpha list channels catalogs/v4.17/widget
)

step 'opm generate dockerfile: the Dockerfile that builds the catalog image'
"$bin" generate dockerfile "$d/catalog"
cat "$d/catalog.Dockerfile"

cat <<TXT

Next: \`make base-image\` builds a base image holding this opm for offline
catalog image builds (see docs/images-and-serving.md), \`make test\` runs the
tests.
TXT
