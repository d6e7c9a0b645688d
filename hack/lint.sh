#!/usr/bin/env bash
# Lint: go vet, gofmt and staticcheck at a pinned version. staticcheck is
# installed into bin/tools when it is missing or at another version (what
# it installs is reported on stderr). Needs Go.
set -euo pipefail
cd "$(dirname "$0")/.."

STATICCHECK_VERSION=v0.8.2
TOOLS=$PWD/bin/tools
STATICCHECK=$TOOLS/staticcheck

if ! { [ -x "$STATICCHECK" ] && go version -m "$STATICCHECK" 2>/dev/null |
  awk -v v="$STATICCHECK_VERSION" '$1 == "mod" && $2 == "honnef.co/go/tools" && $3 == v { found = 1 } END { exit !found }'; }; then
  echo "lint: installing staticcheck $STATICCHECK_VERSION into $TOOLS" >&2
  mkdir -p "$TOOLS"
  GOBIN=$TOOLS go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION" >&2
fi

go vet ./...
out=$(gofmt -l .)
if [ -n "$out" ]; then
  echo "gofmt would change:"
  echo "$out"
  exit 1
fi
"$STATICCHECK" ./...
