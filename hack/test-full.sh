#!/usr/bin/env bash
# make test-full: every test with the race detector, fuzz seed corpora and
# the long suites (what `make test` leaves out with -short), then the
# coverage floor: every library package's own tests cover at least
# COVER_MIN% of its statements. Command, benchmark, test-helper and
# generated packages are left out of the floor.
set -euo pipefail
min=${COVER_MIN:-80}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go test -race -cover "$@" ./... 2>&1 | tee "$out"
low=$(awk -v min="$min" '
  $1 == "ok" && /coverage:/ {
    pkg = $2
    if (pkg ~ /\/(cmd|bench)(\/|$)/ || pkg ~ /(test|\/serve\/api|\/internal\/importrules)$/) next
    for (i = 1; i <= NF; i++) if ($i == "coverage:") pct = $(i+1)
    sub(/%/, "", pct)
    if (pct + 0 < min) printf "  %s: %s%%\n", pkg, pct
  }' "$out")
if [ -n "$low" ]; then
  echo "coverage below ${min}% (add tests for what these packages do):" >&2
  echo "$low" >&2
  exit 1
fi
echo "test-full: all tests pass with the race detector; every library package is covered at least ${min}%"
