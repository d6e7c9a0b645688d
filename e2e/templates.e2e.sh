#!/usr/bin/env bash
# Catalog templates end to end: the bundle images of
# testdata/templates/images.txt built with buildah and pushed to Debian's
# docker-registry on a loopback port, then every template of
# testdata/templates rendered by opm alpha render-template. The output must
# equal the goldens (upstream's bytes) and pass opm validate; bad templates
# must fail cleanly; convert-template output must render back to the same
# catalog. Usage: e2e/templates.e2e.sh bin/opm
#
# Installs docker-registry and buildah with apt-get when they are missing
# (pinned versions, Debian 12).
set -euo pipefail
bin=$(realpath "$1")
E2E_NAME=templates
source "$(dirname "$0")/lib.sh"
need_image_tools

start_registry plain
prefix=$registry/tmpl
tdir=$here/testdata/templates

# --- bundle images ----------------------------------------------------------------
# fill SPEC-FILE OUT: a skeleton file with the placeholders filled in; lines
# naming an empty release or substitutesFor are dropped.
fill() {
  local drop=()
  [ "$release" != "-" ] || drop+=(-e '/__RELEASE__/d')
  [ "$subst" != "-" ] || drop+=(-e '/__SUBSTITUTES_FOR__/d')
  sed "${drop[@]}" \
    -e "s|__PACKAGE__|$pkg|g" -e "s|__VERSION__|$version|g" -e "s|__RELEASE__|${release#-}|g" \
    -e "s|__NAME__|$name|g" -e "s|__TAG__|v${version//+/-}|g" -e "s|__SUBSTITUTES_FOR__|${subst#-}|g" \
    "$1" > "$2"
}

start=$(date +%s)
images=0
while read -r ref pkg version release subst; do
  case "$ref" in ''|'#'*) continue ;; esac
  if [ "$release" = "-" ]; then name=$pkg.v$version; else name=$pkg-v$version-$release; fi
  ctx=$work/ctx/${ref//[:\/]/-}
  (cd "$tdir/bundle" && find . -type d) | while read -r d; do mkdir -p "$ctx/$d"; done
  (cd "$tdir/bundle" && find . -type f) | while read -r f; do fill "$tdir/bundle/$f" "$ctx/$f"; done
  bundle_dockerfile "$ctx" "$pkg"
  build_push "$ctx" "$prefix/$ref"
  images=$((images+1))
done < "$tdir/images.txt"
[ "$images" -gt 0 ] || fail "no images in images.txt"
echo "templates e2e: $images bundle images built and pushed in $(( $(date +%s) - start ))s"

# opm's temporary files go here from now on; nothing may be left behind.
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"

# The templates and goldens with $REGISTRY filled in.
t=$work/templates
cp -R "$tdir" "$t"
find "$t" -type f \( -name '*.yaml' -o -name '*.json' \) -exec sed -i "s|\$REGISTRY|$prefix|g" {} +

# --- every template: goldens and validation -----------------------------------------
rendered=0
for tmpl in "$t"/*.yaml "$t"/*.json; do
  case "$tmpl" in *.golden.*) continue ;; esac
  base=${tmpl%.*}
  n=$(basename "$base")
  for o in json yaml; do
    "$bin" alpha render-template "$tmpl" -o "$o" > "$work/out.$o" 2> "$work/err" || fail "$n -o $o: $(cat "$work/err")"
    cmp -s "$work/out.$o" "$base.golden.$o" && ok || fail "$n -o $o differs from its golden: $(diff "$work/out.$o" "$base.golden.$o" | head -5)"
    if [ -e "$base.csvmeta.golden.$o" ]; then
      "$bin" alpha render-template --migrate-level bundle-object-to-csv-metadata "$tmpl" -o "$o" > "$work/out.$o" || fail "$n --migrate-level"
      cmp -s "$work/out.$o" "$base.csvmeta.golden.$o" && ok || fail "$n --migrate-level -o $o differs from its golden"
    fi
  done
  # The type given as an argument and the template on stdin change nothing.
  kind=$(grep -o -m1 -E 'olm\.template\.basic|olm\.semver|olm\.template\.substitutes' "$tmpl" | head -1)
  case "$kind" in
    olm.template.basic) kind=basic ;; olm.semver) kind=semver ;; olm.template.substitutes) kind=substitutes ;;
    *) fail "$n: cannot tell the template type" ;;
  esac
  "$bin" alpha render-template "$kind" - < "$tmpl" | cmp -s - "$base.golden.json" && ok || fail "$n from stdin as $kind"
  if [ -s "$base.golden.json" ]; then
    rm -rf "$work/catalog" && mkdir -p "$work/catalog/$n"
    cp "$base.golden.json" "$work/catalog/$n/catalog.json"
    "$bin" validate "$work/catalog" > "$work/err" 2>&1 && ok || fail "$n: the rendered catalog does not validate: $(cat "$work/err")"
  fi
  rendered=$((rendered+1))
done
echo "templates e2e: $rendered templates rendered, compared and validated"

# --- bad templates --------------------------------------------------------------------
for tmpl in "$t"/bad/*.yaml; do
  n=bad/$(basename "$tmpl")
  set +e; "$bin" alpha render-template "$tmpl" > "$work/out" 2> "$work/err"; rc=$?; set -e
  [ "$rc" -eq 1 ] || fail "$n: exit code $rc"
  [ ! -s "$work/out" ] || fail "$n: wrote to stdout"
  ! grep -q 'panic\|goroutine ' "$work/err" || fail "$n: panicked"
  grep -q "^Error: $tmpl:[0-9]*: " "$work/err" && ok || fail "$n: the error does not name the file and line: $(cat "$work/err")"
done

# --- convert-template round trips -------------------------------------------------------
"$bin" alpha render-template "$t/semver.yaml" > "$work/semver.json"
for kind in basic substitutes; do
  for o in json yaml; do
    "$bin" alpha convert-template "$kind" "$work/semver.json" -o "$o" > "$work/converted.$o" || fail "convert-template $kind -o $o"
    "$bin" alpha render-template "$work/converted.$o" | cmp -s - "$work/semver.json" && ok || fail "convert-template $kind -o $o does not render back to the catalog"
  done
  "$bin" alpha convert-template "$kind" - < "$t/convert/catalog.yaml" | cmp -s - "$t/convert/$kind.golden.json" && ok || fail "convert-template $kind differs from its golden"
done

# --- clean up after themselves ------------------------------------------------------------
[ -z "$(ls -A "$TMPDIR")" ] && ok || fail "temporary files left behind: $(ls "$TMPDIR")"
echo "templates e2e: $checks checks passed"
