#!/usr/bin/env bash
# opm alpha filter and opm alpha diff end to end: a catalog image built
# with buildah and pushed to Debian's docker-registry on a loopback port,
# filtered with an ImageSetConfiguration and with --package, the results
# validated with opm validate, and diffed against the image.
# Usage: e2e/filter.e2e.sh bin/opm
#
# Installs docker-registry and buildah with apt-get when they are missing
# (see lib.sh). The catalog is ../shared/conformance's when it exists,
# else testdata's.
set -euo pipefail
bin=$(realpath "$1")
E2E_NAME=filter
source "$(dirname "$0")/lib.sh"
need_image_tools
start_registry plain
reg=$registry

catalog=$(real_catalogs "$here/testdata/filter/catalog")
mkdir -p "$work/ctx/catalog"
cp -R "$catalog" "$work/ctx/catalog/configs"
cat > "$work/ctx/catalog/Dockerfile" <<'DOCKERFILE'
FROM scratch
ADD configs /configs
LABEL operators.operatorframework.io.index.configs.v1=/configs
DOCKERFILE
ref="$reg/catalog:v1"
build_push "$work/ctx/catalog" "$ref"

# filtered: out/NAME/catalog.json, then validated.
filtered() { mkdir -p "$work/out/$1"; "${@:2}" > "$work/out/$1/catalog.json"; }
valid() { "$bin" validate "$work/out/$1" > "$work/v.err" 2>&1 || fail "$1: the filtered catalog is not valid: $(cat "$work/v.err")"; }

# Every channel head of every package (an entry without packages).
cat > "$work/heads.yaml" <<EOF2
apiVersion: mirror.openshift.io/v2alpha1
kind: ImageSetConfiguration
mirror:
  operators:
  - catalog: $ref
EOF2
filtered heads "$bin" alpha filter "$ref" --config "$work/heads.yaml" || fail "filter heads"
valid heads && ok
packages=$("$bin" alpha list packages "$ref" | tail -n +2 | wc -l)
channels=$("$bin" alpha list channels "$ref" | tail -n +2 | wc -l)
[ "$(grep -c '^    "schema": "olm.package"' "$work/out/heads/catalog.json")" -eq "$packages" ] && ok || fail "heads: not every package kept"
[ "$(grep -c '^    "schema": "olm.channel"' "$work/out/heads/catalog.json")" -eq "$channels" ] && ok || fail "heads: not every channel kept"
"$bin" alpha filter "$catalog" --config "$work/heads.yaml" | cmp -s - "$work/out/heads/catalog.json" && ok || fail "the image filters differently from its directory"

# full: true keeps the whole catalog, as render writes it.
printf 'apiVersion: mirror.openshift.io/v1alpha2\nkind: ImageSetConfiguration\nmirror:\n  operators:\n  - catalog: %s\n    full: true\n' "$ref" > "$work/full.yaml"
"$bin" alpha filter "$ref" --config "$work/full.yaml" | cmp -s - <("$bin" render "$ref") && ok || fail "full: true differs from render"

# One package, one channel (the package's first with several bundles), from
# the middle one of its versions.
"$bin" render "$ref" > "$work/render.json"
read -r pkg ch min < <(python3 - "$work/render.json" <<'PY'
import json, sys
text, dec, i, objs = open(sys.argv[1]).read(), json.JSONDecoder(), 0, []
while True:
    while i < len(text) and text[i].isspace():
        i += 1
    if i == len(text):
        break
    o, i = dec.raw_decode(text, i)
    objs.append(o)
version = {(o["package"], o["name"]): p["value"]["version"] for o in objs if o["schema"] == "olm.bundle"
           for p in o.get("properties", []) if p["type"] == "olm.package"}
key = lambda v: [int(x) if x.isdigit() else -1 for x in v.replace("-", ".").split(".")]
for ch in sorted((o for o in objs if o["schema"] == "olm.channel"), key=lambda c: (c["package"], c["name"])):
    vs = sorted({version[(ch["package"], e["name"])] for e in ch["entries"]}, key=key)
    if len(vs) > 2:
        print(ch["package"], ch["name"], vs[len(vs) // 2])
        break
PY
)
[ -n "$pkg" ] || fail "no channel with several bundles in $catalog"
cat > "$work/range.yaml" <<EOF2
apiVersion: mirror.openshift.io/v2alpha1
kind: ImageSetConfiguration
mirror:
  operators:
  - catalog: $ref
    packages:
    - name: $pkg
      defaultChannel: $ch
      channels:
      - name: $ch
        minVersion: '$min'
EOF2
filtered range "$bin" alpha filter "$ref" --config "$work/range.yaml" || fail "filter $pkg/$ch from $min"
valid range && ok

# The short form, and the YAML output.
filtered short "$bin" alpha filter "$ref" --package "$pkg:$ch" || fail "filter --package"
valid short && ok
mkdir -p "$work/out/yaml"
"$bin" alpha filter "$ref" --package "$pkg" -o yaml > "$work/out/yaml/catalog.yaml" && valid yaml && ok || fail "filter -o yaml"

# diff: the image against its heads, against itself.
"$bin" alpha diff "$ref" "$work/out/heads" -o json > "$work/diff.json" || fail "diff"
python3 - "$work/diff.json" <<'PY' && ok || fail "diff -o json of the catalog and its heads"
import json, sys
d = json.load(open(sys.argv[1]))
assert set(d) == {"added", "removed", "changed"}, d.keys()
assert d["added"] == [], d["added"]
assert d["removed"] and all(o["schema"] == "olm.bundle" for o in d["removed"]), d["removed"][:3]
assert all(set(o) == {"schema", "package", "name", "fields"} for o in d["changed"])
PY
set +e; "$bin" alpha diff "$ref" "$work/out/heads" --exit-code > /dev/null; rc=$?; set -e
[ $rc -eq 1 ] && ok || fail "diff --exit-code of differing catalogs exited $rc"
"$bin" alpha diff "$ref" "$catalog" --exit-code > "$work/diff.txt" && [ ! -s "$work/diff.txt" ] && ok || fail "the image differs from its directory: $(head "$work/diff.txt")"

# Failures write nothing.
set +e; "$bin" alpha filter "$ref" --package no-such-package > "$work/out.json" 2> "$work/err"; rc=$?; set -e
[ $rc -eq 1 ] && [ ! -s "$work/out.json" ] && grep -q 'package "no-such-package" is not in the catalog' "$work/err" && ok || fail "unknown package: $(cat "$work/err")"
set +e; "$bin" alpha filter "$reg/missing:v1" --package x > "$work/out.json" 2> "$work/err"; rc=$?; set -e
[ $rc -eq 2 ] && [ ! -s "$work/out.json" ] && grep -q 'image not found' "$work/err" && ok || fail "missing image: $(cat "$work/err")"
echo "filter e2e: $checks checks passed"
