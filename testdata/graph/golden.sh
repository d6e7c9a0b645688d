#!/usr/bin/env bash
# Writes golden/NAME.mmd and golden/NAME.stderr for every line of cases by
# running the opm given (default: ../../bin/opm) in this directory.
#   testdata/graph/golden.sh [OPM]
# Then `git diff testdata/graph/golden` shows what changed. README.md says
# how the committed goldens were checked against upstream opm.
set -euo pipefail
cd "$(dirname "$0")"
opm=$(realpath "${1:-../../bin/opm}")
mkdir -p golden
rm -f golden/*.mmd golden/*.stderr
grep -v '^#' cases | while read -r name args; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086 # the arguments are words, none with spaces
  "$opm" alpha render-graph $args >"golden/$name.mmd" 2>"golden/$name.stderr"
  [ -s "golden/$name.stderr" ] || rm "golden/$name.stderr"
done
