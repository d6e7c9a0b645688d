#!/usr/bin/env bash
# lint's pull-request summary renders: the mermaid graphs of
# `opm alpha lint ... --baseline REF -o markdown` (and of --summary FILE)
# parse and draw in a real browser, as GitHub draws them.
#   - the summary of a real release replayed as a two-commit repository
#     (../shared/conformance/releases/04-layer7-operator-1.2.2 when it
#     exists, built as ../shared/conformance/ci.py builds it; else the
#     testdata repository with a bundle released, one deprecated);
#   - the summaries of lint's unit-test goldens (lint/report/testdata/markdown),
#     which hold names full of characters mermaid reads as syntax;
#   - a negative control: a block with an unescaped quote must fail, or
#     the check proves nothing.
# Each block is parsed and rendered by mermaid (pinned, from the npm
# registry, cached in bin/tools) in Debian's chromium, headless
# (installed with apt-get when missing); e2e/mermaidcheck.py prints
# mermaid's error for a block that does not render. Without chromium or
# npm, and no way to install them, it prints SKIP and exits 0.
# SUMMARY_E2E_SCREENSHOT=FILE.png keeps a screenshot of the real case.
# Usage: e2e/summary-mermaid.e2e.sh bin/opm
set -euo pipefail
bin=$(realpath "$1")
E2E_NAME=summary-mermaid
source "$(dirname "$0")/lib.sh"

MERMAID_VERSION=11.12.0
MERMAID_SHASUM=8e394b6214e33cb52f6e8ad9eb1fd94c67ee5638 # sha1 of the npm tarball (npm view mermaid@11.12.0 dist.shasum)
MERMAID_JS=$here/bin/tools/mermaid-$MERMAID_VERSION/mermaid.min.js

skip() { echo "summary-mermaid e2e: SKIP: $*"; exit 0; }

E2E_TOOLS=chromium source "$here/e2e/tools.sh" || true
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || skip "no chromium, and apt-get could not install it"

# mermaid: the npm tarball of the pinned version, checked, its
# self-contained dist/mermaid.min.js kept in bin/tools.
if [ ! -s "$MERMAID_JS" ]; then
  command -v npm > /dev/null || skip "no npm to fetch mermaid $MERMAID_VERSION"
  echo "summary-mermaid e2e: fetching mermaid $MERMAID_VERSION from the npm registry" >&2
  mkdir -p "$work/npm"
  (cd "$work/npm" && npm pack --silent "mermaid@$MERMAID_VERSION" > /dev/null) || fail "npm pack mermaid@$MERMAID_VERSION"
  tgz=$work/npm/mermaid-$MERMAID_VERSION.tgz
  [ "$(sha1sum "$tgz" | cut -d' ' -f1)" = "$MERMAID_SHASUM" ] || fail "mermaid $MERMAID_VERSION: the tarball's checksum is not $MERMAID_SHASUM"
  tar -xzf "$tgz" -C "$work/npm" package/dist/mermaid.min.js
  mkdir -p "$(dirname "$MERMAID_JS")"
  mv "$work/npm/package/dist/mermaid.min.js" "$MERMAID_JS"
fi
ok

check() { # NAME FILE.md...: every mermaid block of the files renders
  local name=$1; shift
  mkdir -p "$work/page-$name"
  python3 "$here/e2e/mermaidcheck.py" "$browser" "$MERMAID_JS" "$work/page-$name" "$@" || fail "$name: a mermaid block does not render"
  ok
}

commit() { git -C "$1" add -A && git -C "$1" -c user.name=e2e -c user.email=e2e@example.com commit -qm "$2"; }

# The real case, or the testdata one: two commits, then lint against the
# first.
repo=$work/repo
release=${SUMMARY_E2E_RELEASE:-$here/../shared/conformance/releases/04-layer7-operator-1.2.2}
if [ -f "$release/case.json" ]; then
  pkg=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["package"])' "$release/case.json")
  ver=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$release/case.json")
  cp -R "$release/before" "$repo"
  git -C "$repo" init -q && commit "$repo" before
  rm -rf "$repo/catalogs" "$repo/operators"
  cp -R "$release/after/." "$repo/"
  cp -R "$release/bundle" "$repo/operators/$pkg/$ver"
  commit "$repo" "release $pkg $ver"
  operator=operators/$pkg
else
  cp -R "$here/testdata/repo" "$repo"
  git -C "$repo" init -q && commit "$repo" before
  (cd "$repo" &&
    "$bin" alpha catalog release operators/widget/1.2.0 --image quay.io/example/widget-operator-bundle:v1.2.0 &&
    "$bin" alpha catalog deprecate widget --bundle widget-operator.v1.1.0 --message "1.1.0 is superseded") > /dev/null ||
    fail "could not make the testdata change"
  commit "$repo" "release widget 1.2.0"
  operator=operators/widget
fi

# -o markdown and --summary write the same summary; the exit status is
# lint's (0 or 1), never 2.
set +e
(cd "$repo" && "$bin" alpha lint "$operator" --baseline HEAD~1 -o markdown > "$work/summary.md" 2> "$work/lint.err")
rc=$?
(cd "$repo" && "$bin" alpha lint "$operator" --baseline HEAD~1 -o sarif --summary "$work/step-summary.md" > "$work/lint.sarif" 2> /dev/null)
rc2=$?
set -e
[ "$rc" -le 1 ] || fail "lint -o markdown exited $rc: $(cat "$work/lint.err")"
[ "$rc2" -eq "$rc" ] || fail "lint -o sarif --summary exited $rc2, -o markdown $rc"
cmp -s "$work/summary.md" "$work/step-summary.md" || fail "--summary differs from -o markdown"
grep -q '"version": "2.1.0"' "$work/lint.sarif" || fail "with --summary, stdout is not the SARIF log"
grep -q '^```mermaid$' "$work/summary.md" || fail "the summary of $operator draws no graph: $(head -20 "$work/summary.md")"
grep -q '| Head before | Head after |' "$work/summary.md" || fail "the summary shows no channel heads"
ok

if [ -n "${SUMMARY_E2E_SCREENSHOT:-}" ]; then
  check real --screenshot "$SUMMARY_E2E_SCREENSHOT" "$work/summary.md"
else
  check real "$work/summary.md"
fi
check goldens "$here"/lint/report/testdata/markdown/*.md

# Negative control: an unescaped quote in a label must be refused.
printf '%s\n' '```mermaid' 'flowchart LR' '  a["we"ird"] --> b' '```' > "$work/broken.md"
mkdir -p "$work/page-broken"
if python3 "$here/e2e/mermaidcheck.py" "$browser" "$MERMAID_JS" "$work/page-broken" "$work/broken.md" 2> "$work/broken.err"; then
  fail "the negative control rendered: the check cannot see syntax errors"
fi
grep -q 'Parse error' "$work/broken.err" || fail "the negative control failed without mermaid's parse error: $(cat "$work/broken.err")"
ok

echo "summary-mermaid e2e: $checks checks passed; $(grep -c '^```mermaid$' "$work/summary.md") graphs of $operator's summary rendered by mermaid $MERMAID_VERSION in $("$browser" --version 2>/dev/null | head -1)"
