#!/usr/bin/env bash
# End-to-end checks of a built opm binary: real files in, real processes,
# exit codes and output bytes checked. Usage: e2e/run.sh bin/opm
set -euo pipefail
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { pass=$((pass+1)); }

cd "$work"
cp -R "$here/testdata/catalog" catalog

# render reproduces upstream's bytes, in both formats.
"$bin" render catalog -o json > out.json && cmp -s out.json "$here/testdata/catalog.golden.json" && ok || fail "render -o json differs from upstream golden"
"$bin" render catalog -o yaml > out.yaml && cmp -s out.yaml "$here/testdata/catalog.golden.yaml" && ok || fail "render -o yaml differs from upstream golden"
# rendering our own output again changes nothing
mkdir -p again/all && cp out.yaml again/all/catalog.yaml
"$bin" render again -o yaml | cmp -s - out.yaml && ok || fail "render of rendered YAML is not stable"

# validate: silent success, structured success.
"$bin" validate catalog > v.out 2>&1 && [ ! -s v.out ] && ok || fail "validate of a valid catalog"
"$bin" validate catalog -o json | grep -q '"passed": true' && ok || fail "validate -o json"

# Bad input: clear error, non-zero exit, nothing on stdout, no panic.
bad() { # name, then files as name=content pairs
  local name=$1; shift
  rm -rf bad && mkdir -p bad
  for f in "$@"; do mkdir -p "bad/$(dirname "${f%%=*}")"; printf '%b' "${f#*=}" > "bad/${f%%=*}"; done
  set +e; "$bin" render bad > r.out 2> r.err; rc=$?; set -e
  [ $rc -ne 0 ] || fail "$name: render exited 0"
  [ ! -s r.out ] || fail "$name: render wrote output"
  ! grep -q 'panic\|goroutine ' r.err || fail "$name: render panicked"
  set +e; "$bin" validate bad > v.out 2> v.err; rc=$?; set -e
  [ $rc -eq 1 ] || fail "$name: validate exit code $rc"
  ! grep -q 'panic\|goroutine ' v.err || fail "$name: validate panicked"
  grep -q "bad/" v.err || fail "$name: the error does not name the file: $(cat v.err)"
  ok
}
bad "malformed json" 'p/index.json={"schema":"olm.package",'
bad "malformed yaml" 'p/index.yaml=schema: olm.package\nname: [x\n'
bad "wrong field type" 'p/index.json={"schema":"olm.channel","name":"c","package":"p","entries":"all"}'
bad "whitespace-only file" 'p/index.yaml=\n\n  \n'
bad "binary file" 'p/logo.png=\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR'
bad "not a catalog" 'p/README.md=# Read me\nThis is prose.\n'
bad "missing schema" 'p/index.json={"name":"x"}'
ln -s loop2 "$work/loop1" 2>/dev/null && ln -s loop1 "$work/loop2" && { rm -rf bad; mkdir bad; ln -s ../loop1 bad/loop; set +e; "$bin" validate bad 2> v.err; rc=$?; set -e; [ $rc -eq 1 ] && grep -q 'bad/loop' v.err && ok || fail "symlink loop: $(cat v.err)"; }

# generate dockerfile never overwrites, and "." names the directory.
"$bin" generate dockerfile catalog 2>/dev/null && [ -f catalog.Dockerfile ] && ok || fail "generate dockerfile"
! "$bin" generate dockerfile catalog 2>/dev/null && ok || fail "generate dockerfile overwrote a file"
(cd catalog && rm ../catalog.Dockerfile && "$bin" generate dockerfile . 2>/dev/null) && [ -f catalog.Dockerfile ] && [ ! -e catalog/..Dockerfile ] && ok || fail "generate dockerfile ."

# init writes a package blob that validates as part of a catalog.
"$bin" init demo --default-channel stable --icon "$here/testdata/demo/logo.svg" > init.json && grep -q '"mediatype": "image/svg+xml"' init.json && ok || fail "init"

for script in "$here"/e2e/*.e2e.sh; do
  [ -e "$script" ] || continue
  bash "$script" "$bin" && ok || fail "$(basename "$script")"
done
echo "e2e: $pass checks passed"
