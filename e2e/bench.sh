#!/usr/bin/env bash
# Measures a built opm on catalogs of two sizes: the real conformance
# catalogs (when ../shared is there) and a large synthetic catalog written
# by declcfg/declcfgtest (320 packages, about 5,000 bundles, some carrying
# their manifests as base64 olm.bundle.object data, the others
# olm.csv.metadata; YAML and JSON files; about 130 MB), opm alpha lint
# with every rule against validate of the same catalog among them; and on registry+v1
# bundle directories (the conformance bundles, else testdata's); lint on
# operator directories shaped like the largest community packages. Prints
# wall time and peak RSS, best of 3 runs. Image rendering is measured by
# the Go benchmarks (BenchmarkRenderCatalogImage,
# BenchmarkRenderBundleImages), against an in-process registry on
# loopback.
#
# With a second opm binary (a previous build, or another implementation),
# validate and render are measured for both, runs alternating, and the
# ratio of ours to the other's is printed.
#
# On real data first, when OPM_BENCH_COP names a checkout of
# redhat-openshift-ecosystem/community-operators-prod (git clone --depth 1
# https://github.com/redhat-openshift-ecosystem/community-operators-prod;
# never committed here): the big catalog made from every bundle directory
# of its operators/ (bench/cmd/realcatalog: CSV metadata, one
# catalog.json per package as opm render writes it), the same catalog as a
# script writes it (bench/scripts/jsondump.py: Python's json.dump), and
# its committed YAML catalogs of one OpenShift version (catalogs/$OCP,
# v4.20 unless OPM_BENCH_OCP says otherwise), each measured with validate,
# render -o json and -o yaml (with the other binary: alternating, and the
# outputs compared byte for byte) and serve's time to healthy. The
# synthetic catalog comes after them.
# Usage: [OPM_BENCH_COP=DIR] e2e/bench.sh bin/opm [workdir [other-opm]]
set -euo pipefail
bin=$(realpath "$1")
work=${2:-$(mktemp -d)}
other=${3:+$(realpath "$3")}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
# The catalog's name changes with its content, so a stale one is not reused.
large=$work/$(cd "$here" && go run ./bench/cmd/gencatalog -name)
if [ ! -d "$large" ]; then
  echo "writing the synthetic catalog to $large ..."
  (cd "$here" && go run ./bench/cmd/gencatalog "$large.tmp") && mv "$large.tmp" "$large"
fi
# run1 BIN ARGS...: one run; sets wall (s) and kb (peak RSS). (time's
# last line: it writes a line about a non-zero exit status before it.)
run1() {
  /usr/bin/time -o "$work/time" -f "%e %M" "$@" > /dev/null 2>&1 || true
  read -r wall kb < <(tail -n 1 "$work/time")
}
measure() { # label, command...
  local label=$1; shift
  local best="" rss=0
  for i in 1 2 3; do
    run1 "$@"
    if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; fi
    [ "$kb" -gt "$rss" ] && rss=$kb
  done
  printf '%-42s %6.2f s  %5d MB\n' "$label" "$best" $((rss / 1024))
}
# compare LABEL ARGS...: ours and the other binary, alternating, best of 3.
compare() {
  local label=$1; shift
  local best="" rss=0 obest="" orss=0
  for i in 1 2 3; do
    run1 "$bin" "$@"
    if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; fi
    [ "$kb" -gt "$rss" ] && rss=$kb
    run1 "$other" "$@"
    if [ -z "$obest" ] || awk "BEGIN{exit !($wall < $obest)}"; then obest=$wall; fi
    [ "$kb" -gt "$orss" ] && orss=$kb
  done
  printf '%-24s %6.2f s %5d MB | other %6.2f s %5d MB | ratio %5.3f wall, %5.3f memory\n' "$label" \
    "$best" $((rss / 1024)) "$obest" $((orss / 1024)) \
    "$(awk "BEGIN{print $best / $obest}")" "$(awk "BEGIN{print $rss / $orss}")"
}
# lint_vs_validate CATALOG: opm alpha lint with every rule and our own
# validate of the same catalog, runs alternating, best of 3; the ratio of
# their wall times (the budget is 3).
lint_vs_validate() {
  local vbest="" vrss=0 lbest="" lrss=0
  for i in 1 2 3; do
    run1 "$bin" validate "$1"
    if [ -z "$vbest" ] || awk "BEGIN{exit !($wall < $vbest)}"; then vbest=$wall; fi
    [ "$kb" -gt "$vrss" ] && vrss=$kb
    run1 "$bin" alpha lint "$1"
    if [ -z "$lbest" ] || awk "BEGIN{exit !($wall < $lbest)}"; then lbest=$wall; fi
    [ "$kb" -gt "$lrss" ] && lrss=$kb
  done
  printf '%-42s %6.2f s  %5d MB  (validate %.2f s %d MB; lint/validate %.2fx wall)\n' "alpha lint (all rules)" \
    "$lbest" $((lrss / 1024)) "$vbest" $((vrss / 1024)) "$(awk "BEGIN{print $lbest / ($vbest > 0 ? $vbest : 0.01)}")"
}
# serve_pair LABEL DIR: serve's time to healthy for ours and the other
# binary, alternating, best of 3 (the other is given a bare port, as
# upstream's -p takes one, and its profiling endpoint, on by default at
# localhost:6060 in upstream's, a free port).
serve_pair() {
  local label=$1 dir=$2 best="" rss=0 obest="" orss=0 line t r port
  for i in 1 2 3; do
    # A fresh port each time: a server just stopped may still hold one.
    port=$(free_port)
    line=$("$healthy" "127.0.0.1:$port" "$bin" serve "$dir" -p "127.0.0.1:$port" 2>/dev/null) || { echo "$label: failed"; return; }
    t=$(sed -n 's/^healthy after \([0-9.]*\) s.*/\1/p' <<<"$line"); r=$(sed -n 's/.*peak RSS \([0-9]*\) MB.*/\1/p' <<<"$line")
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    [ "$r" -gt "$rss" ] && rss=$r
    port=$(free_port)
    line=$("$healthy" "127.0.0.1:$port" "$other" serve "$dir" -p "$port" --pprof-addr 127.0.0.1:0 2>/dev/null) || { echo "$label: the other binary failed"; return; }
    t=$(sed -n 's/^healthy after \([0-9.]*\) s.*/\1/p' <<<"$line"); r=$(sed -n 's/.*peak RSS \([0-9]*\) MB.*/\1/p' <<<"$line")
    if [ -z "$obest" ] || awk "BEGIN{exit !($t < $obest)}"; then obest=$t; fi
    [ "$r" -gt "$orss" ] && orss=$r
  done
  printf '%-24s %6.2f s %5d MB | other %6.2f s %5d MB | ratio %5.3f wall, %5.3f memory\n' "$label" \
    "$best" "$rss" "$obest" "$orss" "$(awk "BEGIN{print $best / $obest}")" "$(awk "BEGIN{print $rss / $orss}")"
}
# same_output DIR FORMAT: whether render's output is the other binary's,
# byte for byte.
same_output() {
  "$bin" render "$1" -o "$2" > "$work/ours.out" 2>/dev/null || true
  "$other" render "$1" -o "$2" > "$work/other.out" 2>/dev/null || true
  if cmp -s "$work/ours.out" "$work/other.out"; then echo "render -o $2: output identical"; else echo "render -o $2: OUTPUT DIFFERS"; fi
  rm -f "$work/ours.out" "$work/other.out"
}
healthy=$work/healthy
(cd "$here" && go build -o "$healthy" ./bench/cmd/healthy)
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
port=$(free_port)
httpport=$(free_port)

catalogs=()
[ -d "$here/../shared/conformance/catalogs" ] && catalogs+=("$here/../shared/conformance/catalogs")
catalogs+=("$large")
# serve_healthy LABEL ARGS...: time from start until gRPC health answers
# SERVING (best of 3) and peak RSS, as bench/cmd/healthy measures them.
serve_healthy() {
  local label=$1; shift
  local best="" rss=0 line t r
  for i in 1 2 3; do
    line=$("$healthy" "127.0.0.1:$port" "$bin" serve "$@" -p "127.0.0.1:$port" 2>/dev/null) || { echo "$label: failed"; return; }
    t=$(sed -n 's/^healthy after \([0-9.]*\) s.*/\1/p' <<<"$line")
    r=$(sed -n 's/.*peak RSS \([0-9]*\) MB.*/\1/p' <<<"$line")
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    [ "$r" -gt "$rss" ] && rss=$r
  done
  printf '%-42s %6.2f s  %5d MB\n' "$label" "$best" "$rss"
}
# The catalogs users have (see the top of this file).
if [ -n "${OPM_BENCH_COP:-}" ]; then
  cop=$(realpath "$OPM_BENCH_COP")
  key=$( (ls "$cop/operators"; cat "$here/bench/cmd/realcatalog/main.go" "$here/bench/scripts/jsondump.py") | cksum | cut -d' ' -f1)
  real=$work/real-$key
  if [ ! -d "$real" ]; then
    echo "writing the catalog of every bundle directory of $cop/operators to $real ..."
    rm -rf "$real.tmp" && mkdir -p "$real.tmp"
    (cd "$here" && go run ./bench/cmd/realcatalog "$cop/operators" "$real.tmp/opm")
    python3 "$here/bench/scripts/jsondump.py" "$real.tmp/opm" "$real.tmp/script"
    mv "$real.tmp" "$real"
  fi
  ocp=${OPM_BENCH_OCP:-v4.20}
  for shape in "$real/opm|as opm render writes it" "$real/script|as a script (json.dump) writes it" "$cop/catalogs/$ocp|committed YAML catalogs/$ocp"; do
    c=${shape%%|*}
    echo "== real data, $(find -L "$c" -type f | wc -l) files, $(du -smL "$c" | cut -f1) MB, ${shape#*|} ($c); load average $(cut -d' ' -f1-3 /proc/loadavg)"
    if [ -n "$other" ]; then
      compare "validate" validate "$c"
      compare "render -o json" render "$c" -o json
      compare "render -o yaml" render "$c" -o yaml
      same_output "$c" json
      same_output "$c" yaml
      serve_pair "serve: time to healthy" "$c"
    else
      measure "validate" "$bin" validate "$c"
      measure "render -o json" "$bin" render "$c" -o json
      measure "render -o yaml" "$bin" render "$c" -o yaml
      serve_healthy "serve: time to healthy" "$c"
    fi
  done
else
  echo "(no real data: set OPM_BENCH_COP to a checkout of redhat-openshift-ecosystem/community-operators-prod)"
fi

# ImageSetConfigurations for alpha filter: every channel head, everything.
printf 'apiVersion: mirror.openshift.io/v2alpha1\nkind: ImageSetConfiguration\nmirror:\n  operators:\n  - catalog: any\n' > "$work/heads.yaml"
printf 'apiVersion: mirror.openshift.io/v2alpha1\nkind: ImageSetConfiguration\nmirror:\n  operators:\n  - catalog: any\n    full: true\n' > "$work/full.yaml"
for c in "${catalogs[@]}"; do
  size=$(du -sm "$c" | cut -f1)
  echo "== $c (${size} MB)"
  if [ -n "$other" ]; then
    compare "validate" validate "$c"
    compare "render -o json" render "$c" -o json
    compare "render -o yaml" render "$c" -o yaml
  else
    measure "validate" "$bin" validate "$c"
    measure "render -o json" "$bin" render "$c" -o json
    measure "render -o yaml" "$bin" render "$c" -o yaml
  fi
  measure "alpha filter (channel heads)" "$bin" alpha filter "$c" --config "$work/heads.yaml"
  measure "alpha filter (full)" "$bin" alpha filter "$c" --config "$work/full.yaml"
  measure "alpha diff (catalog against itself)" "$bin" alpha diff "$c" "$c"
  lint_vs_validate "$c"
  serve_healthy "serve: time to healthy" "$c"
  serve_healthy "serve --http-addr: time to healthy" "$c" --http-addr "127.0.0.1:$httpport"
done
bundles="$here/testdata/bundles"
[ -d "$here/../shared/conformance/bundles" ] && bundles="$here/../shared/conformance/bundles"
dirs=("$bundles"/*/)
echo "== ${#dirs[@]} bundle directories in $bundles"
measure "render (one command)" "$bin" render "${dirs[@]}"
measure "render --migrate-level + image template" "$bin" render --migrate-level bundle-object-to-csv-metadata --alpha-image-ref-template 'quay.io/example/{{.Package}}:v{{.Version}}' "${dirs[@]}"

# opm alpha lint on operator directories shaped like the largest community
# packages, made from real bundle directories (catalogrepo/catalogrepotest): sailoperator
# (43 bundle directories of 2.7 MB) and hive-operator (225 of 0.4 MB), each
# in six catalogs; and with --baseline HEAD~1 on a two-commit repository
# (the release of the newest bundle).
lintsrc=$here/../shared/conformance/bundles
for shape in "sail datadog-operator_1.28.0" "hive hive-operator_1.2.3725-6ac23a8"; do
  set -- $shape
  [ -d "$lintsrc/$2" ] || continue
  repo=$work/lint-$1-1
  if [ ! -d "$repo" ]; then
    echo "writing the $1 lint repository to $repo ..."
    rm -rf "$repo.tmp" "$repo.new"
    (cd "$here" && go run ./bench/cmd/genlintrepo -shape "$1" "$lintsrc/$2" "$repo.new" >/dev/null)
    n=$(ls -d "$repo.new/operators/$1-bench"/*/ | wc -l)
    (cd "$here" && go run ./bench/cmd/genlintrepo -shape "$1" -bundles $((n - 1)) "$lintsrc/$2" "$repo.tmp" >/dev/null)
    git -C "$repo.tmp" init -q && git -C "$repo.tmp" add -A && git -C "$repo.tmp" -c user.name=bench -c user.email=bench@example.com commit -qm before
    rm -rf "$repo.tmp/operators" "$repo.tmp/catalogs" && mv "$repo.new/operators" "$repo.new/catalogs" "$repo.tmp/" && rm -rf "$repo.new"
    git -C "$repo.tmp" add -A && git -C "$repo.tmp" -c user.name=bench -c user.email=bench@example.com commit -qm release
    mv "$repo.tmp" "$repo"
  fi
  echo "== alpha lint: $1-shaped operator directory ($(du -sm "$repo/operators" | cut -f1) MB of bundle directories, $(du -sm "$repo/catalogs" | cut -f1) MB of catalogs)"
  pushd "$repo" >/dev/null
  measure "alpha lint operators/$1-bench" "$bin" alpha lint "operators/$1-bench"
  measure "alpha lint ... --baseline HEAD~1" "$bin" alpha lint "operators/$1-bench" --baseline HEAD~1
  popd >/dev/null
done

# Catalog authoring on synthetic operator repositories (author/authortest):
# 10 templates of 50 bundles (a large real package: about 10 MB of
# catalogs), 10 templates of 150 bundles (about 33 MB) and 20 templates of
# 500 bundles (about 160 MB). Each verb runs on a fresh copy; the last
# column is peak memory over the package's catalogs.
verb() { # label, repo, args...: best of 3 on fresh copies
  local label=$1 repo=$2; shift 2
  local best="" rss=0
  for i in 1 2 3; do
    rm -rf "$work/verb" && cp -r "$repo" "$work/verb"
    pushd "$work/verb" >/dev/null
    run1 "$bin" alpha catalog "$@"
    popd >/dev/null
    if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; fi
    [ "$kb" -gt "$rss" ] && rss=$kb
  done
  printf '%-42s %6.2f s  %5d MB  %4.1fx\n' "$label" "$best" $((rss / 1024)) "$(awk "BEGIN{print $rss / $catkb}")"
}
for shape in "10 50" "10 150" "20 500"; do
  set -- $shape
  repo=$work/$(cd "$here" && go run ./bench/cmd/genrepo -templates "$1" -bundles "$2" -name)
  if [ ! -d "$repo" ]; then
    echo "writing the synthetic repository to $repo ..."
    (cd "$here" && go run ./bench/cmd/genrepo -templates "$1" -bundles "$2" "$repo.tmp" >/dev/null) && mv "$repo.tmp" "$repo"
  fi
  next=$(ls "$repo/operators/bench" | grep -v -e ci.yaml -e catalog-templates)
  newest=$(grep -o 'bench-operator.v[0-9.]*' "$repo/operators/bench/$next/release-config.yaml" | head -1)
  catkb=$(du -sk "$repo/catalogs" | cut -f1)
  echo "== catalog authoring: $1 templates of $2 bundles ($(du -sm "$repo/catalogs" | cut -f1) MB of catalogs)"
  verb "alpha catalog render --check" "$repo" render bench --check
  verb "alpha catalog release" "$repo" release "operators/bench/$next" --image "quay.io/example/bench-operator-bundle:$next"
  verb "alpha catalog release --dry-run" "$repo" release "operators/bench/$next" --image "quay.io/example/bench-operator-bundle:$next" --dry-run
  verb "alpha catalog promote (newest to fast)" "$repo" promote bench "$newest" --to fast
  verb "alpha catalog remove (a middle bundle)" "$repo" remove bench bench-operator.v1.2.3
  verb "alpha catalog remove --dry-run" "$repo" remove bench bench-operator.v1.2.3 --dry-run
done
# The real releases of ../shared/conformance/releases, replayed offline.
if [ -d "$here/../shared/conformance/releases" ]; then
  echo "== catalog authoring: real releases (../shared/conformance/releases)"
  for case in "$here"/../shared/conformance/releases/*/; do
    [ -f "$case/case.json" ] || continue
    read -r pkg version image < <(python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); print(c["package"], c["version"], c["image"])' "$case/case.json")
    rm -rf "$work/release" && mkdir -p "$work/release/operators/$pkg/$version"
    cp -r "$case/before/." "$work/release/" && cp -r "$case/bundle/." "$work/release/operators/$pkg/$version/"
    catkb=$(du -sk "$work/release/catalogs" | cut -f1)
    verb "release $(basename "$case")" "$work/release" release "operators/$pkg/$version" --image "$image"
  done
fi
