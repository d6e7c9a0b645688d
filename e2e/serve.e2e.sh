#!/usr/bin/env bash
# opm serve end to end, with real clients: grpcurl and grpc_health_probe
# (pinned, see e2e/tools.sh) for the gRPC API, curl for the HTTP API.
#   - testdata/serve/catalog answers exactly as testdata/serve/answers.golden
#     (checked against upstream opm) says;
#   - the real catalogs (../shared/conformance/catalogs, else
#     testdata/catalog) answer as `opm alpha list` of the same directory
#     does, and /api/v1/all holds exactly what `opm render` renders;
#   - operation: SIGTERM, broken catalogs, --cache-only, listeners;
#   - 50 clients for 20 s (bench/cmd/loadtest) with zero errors, and the
#     time to healthy (bench/cmd/healthy).
# Every server listens on 127.0.0.1 only. Usage: e2e/serve.e2e.sh bin/opm
set -euo pipefail
bin=$(realpath "$1")
E2E_NAME=serve
source "$(dirname "$0")/lib.sh"
source "$here/e2e/tools.sh"
check=(python3 "$here/e2e/servecheck.py")
loadtest=$(build_tool ./bench/cmd/loadtest)
healthy=$(build_tool ./bench/cmd/healthy)
catalog=$(real_catalogs "$here/testdata/catalog")
t0=$(date +%s)

# serve NAME DIR [FLAGS...]: starts opm serve of DIR on a free port, waits
# until grpc_health_probe says SERVING; sets $addr and $server (its pid).
# Tries another port if the free one was taken meanwhile.
serve() {
  local name=$1 dir=$2 try; shift 2
  for try in 1 2 3; do
    addr=127.0.0.1:$(free_port)
    bg "$work/$name.log" "$bin" serve "$dir" -p "$addr" "$@"
    server=$bg_pid
    WATCH_PID=$server wait_until 60 "$HEALTH_PROBE" -addr "$addr" -connect-timeout 1s && return
    stop "$server"
    grep -q 'address already in use' "$work/$name.log" || break
  done
  fail "$name: not healthy: $(cat "$work/$name.log")"
}

# --- testdata/serve/catalog: upstream's answers -----------------------------
pprof_before=$(port_open 6060 && echo open || echo closed)
http=127.0.0.1:$(free_port)
serve answers "$here/testdata/serve/catalog" --http-addr "$http"
grep -q 'msg="catalog loaded"' "$work/answers.log" && grep -q "msg=\"serving registry\".*addr=$addr" "$work/answers.log" && ok ||
  fail "startup log: $(cat "$work/answers.log")"
"$GRPCURL" -plaintext "$addr" list > "$work/services"
for s in api.Registry api.ExperimentalRegistry grpc.health.v1.Health grpc.reflection.v1.ServerReflection; do
  grep -qx "$s" "$work/services" || fail "grpcurl list does not show $s: $(cat "$work/services")"
done
ok
python3 "$here/e2e/answers.py" "$GRPCURL" "$addr" "$here/testdata/serve/answers.golden" > "$work/answers.out" && ok ||
  fail "answers differ from testdata/serve/answers.golden: $(cat "$work/answers.out")"
# Only the two ports asked for, both on loopback: no pprof (6060) by default.
"${check[@]}" listeners "$server" | sort > "$work/listeners"
printf '%s\n' "$addr" "$http" | sort | cmp -s - "$work/listeners" && ok || fail "serve listens on: $(cat "$work/listeners")"
[ "$pprof_before" = open ] || ! port_open 6060 && ok || fail "something listens on 127.0.0.1:6060 during a default serve"
stop "$server"
[ "$stop_rc" -eq 0 ] && ok || fail "SIGTERM: exit status $stop_rc"
grep -q 'msg="shutting down server"' "$work/answers.log" && ok || fail "SIGTERM: no shutdown log"
! port_open "${addr##*:}" && ! port_open "${http##*:}" && ok || fail "ports still open after exit"
echo "serve e2e: testdata/serve/catalog with grpcurl: $(tail -1 "$work/answers.out") from answers.golden"

# --- the real catalogs: gRPC against opm alpha list ------------------------------
http=127.0.0.1:$(free_port)
serve real "$catalog" --http-addr "$http"
"${check[@]}" grpc "$bin" "$catalog" "$GRPCURL" "$addr" > "$work/grpc.out" && ok || fail "$(cat "$work/grpc.out")"
echo "serve e2e: $(basename "$catalog"): $(cat "$work/grpc.out")"

# --- the real catalogs: HTTP --------------------------------------------------------
url=http://$http/api/v1
# get NAME URL [CURL-ARGS...]: body in $work/NAME, headers in $work/NAME.h;
# prints the status code.
get() {
  local name=$1 u=$2; shift 2
  curl -sS --max-time 60 -o "$work/$name" -D "$work/$name.h" -w '%{http_code}' "$@" "$u"
}
header() { sed -n "s/^$1: *//Ip" "$work/$2.h" | tr -d '\r' | tail -1; }

[ "$(get all "$url/all")" = 200 ] || fail "/all: status $(head -1 "$work/all.h")"
[ "$(header content-type all)" = application/jsonl ] && ok || fail "/all: Content-Type $(header content-type all)"
modified=$(header last-modified all)
[ -n "$modified" ] && ok || fail "/all: no Last-Modified"
"$bin" render "$catalog" -o json > "$work/rendered.json"
objects=$("${check[@]}" objects "$work/rendered.json")
lines=$("${check[@]}" jsonl "$work/all" "$work/rendered.json") || fail "/all: $lines"
[ "$lines" -eq "$objects" ] && [ "$(wc -l < "$work/all")" -eq "$objects" ] && ok || fail "/all: $lines lines, $objects objects rendered"

[ "$(get all.gz "$url/all" -H 'Accept-Encoding: gzip')" = 200 ] || fail "/all gzip: status"
[ "$(header content-encoding all.gz)" = gzip ] && ok || fail "/all: not gzipped for Accept-Encoding: gzip"
python3 -c 'import gzip,sys;sys.stdout.buffer.write(gzip.decompress(open(sys.argv[1],"rb").read()))' "$work/all.gz" | cmp -s - "$work/all" && ok ||
  fail "/all: gzip body does not decompress to the plain body"

[ "$(get cond "$url/all" -H "If-Modified-Since: $modified")" = 304 ] && [ ! -s "$work/cond" ] && ok ||
  fail "If-Modified-Since: Last-Modified: $(head -1 "$work/cond.h")"
IFS='|' read -r status length body < <("${check[@]}" head 127.0.0.1 "${http##*:}" /api/v1/all)
[[ "$status" == *" 200 "* ]] && [ "$length" = "$(wc -c < "$work/all")" ] && [ "$body" -eq 0 ] && ok ||
  fail "HEAD /all: $status, Content-Length $length (GET body $(wc -c < "$work/all")), $body body bytes"

[ "$(get pkgs "$url/metas?schema=olm.package")" = 200 ] || fail "metas?schema=olm.package: status"
"$bin" alpha list packages "$catalog" | awk 'NR > 1 { print $1 }' > "$work/want"
"${check[@]}" field "$work/pkgs" name | sort | cmp -s - "$work/want" && ok || fail "metas?schema=olm.package is not the packages"
[ "$("${check[@]}" field "$work/pkgs" schema | sort -u)" = olm.package ] && ok || fail "metas?schema=olm.package has other schemas"
pkg=$(head -1 "$work/want")
[ "$(get chans "$url/metas?package=$pkg&schema=olm.channel")" = 200 ] || fail "metas?package=$pkg&schema=olm.channel: status"
"$bin" alpha list channels "$catalog" "$pkg" | awk 'NR > 1 { print $2 }' | sort > "$work/want"
"${check[@]}" field "$work/chans" name | sort | cmp -s - "$work/want" && ok || fail "metas?package=$pkg&schema=olm.channel is not $pkg's channels"
[ "$("${check[@]}" field "$work/chans" schema | sort -u)" = olm.channel ] && ok || fail "metas?package=$pkg&schema=olm.channel has other schemas"
[ "$(get none "$url/metas?schema=olm.package&name=no-such-package")" = 200 ] && [ ! -s "$work/none" ] && ok || fail "metas matching nothing"
[ "$(get e "$url/metas?color=blue")" = 400 ] && ok || fail "metas?color=blue: not 400"
[ "$(get e "$url/nothing")" = 404 ] && [ "$(get e "http://$http/")" = 404 ] && ok || fail "unknown paths: not 404"
[ "$(get e "$url/all" -X POST)" = 405 ] && [ "$(header allow e)" = "GET, HEAD" ] && ok || fail "POST /all: not 405 with Allow"
[ "$(get e "$url/metas" -X DELETE)" = 405 ] && ok || fail "DELETE /metas: not 405"
echo "serve e2e: HTTP API: $lines objects in /all ($(wc -c < "$work/all") bytes, $(wc -c < "$work/all.gz") gzipped), metas, 304, HEAD, 400/404/405"

# --- load ----------------------------------------------------------------------------
timeout 120 "$loadtest" -c 50 -d 20s "$addr" > "$work/load.out" || fail "load: $(cat "$work/load.out")"
rss=$(awk '/^VmHWM:/ { print int($2 / 1024) }' "/proc/$server/status")
ok
stop "$server"
[ "$stop_rc" -eq 0 ] || fail "SIGTERM after load: exit status $stop_rc"
lat() { awk -v r="$1" '$1 == r { print $3 " calls, p50 " $7 ", p99 " $9 }' "$work/load.out"; }
echo "serve e2e: load, 50 clients for 20 s, 0 errors: GetBundleForChannel $(lat GetBundleForChannel); ListBundles $(lat ListBundles); server peak RSS ${rss} MB; SIGTERM exit in ${stop_secs}s"

# --- operation -------------------------------------------------------------------------
mkdir -p "$work/bad/p"
cat > "$work/bad/p/index.yaml" <<'EOF'
schema: olm.package
name: p
defaultChannel: stable
---
schema: olm.channel
package: p
name: stable
entries:
  - name: p.v1.0.0
  - name: p.v2.0.0
    replaces: p.v1.0.0
---
schema: olm.bundle
package: p
name: p.v1.0.0
image: example.com/p:v1
properties:
  - type: olm.package
    value: {packageName: p, version: 1.0.0}
EOF
port=$(free_port)
set +e; (cd "$work" && timeout 30 "$bin" serve bad -p "127.0.0.1:$port" -t "$work/termination-log" > out 2> err); rc=$?; set -e
[ $rc -eq 1 ] && ok || fail "broken catalog: exit status $rc"
grep -q 'bad/p/index.yaml:10: .*p.v2.0.0' "$work/err" && ok || fail "broken catalog: the error does not name file:line: $(cat "$work/err")"
grep -q 'bad/p/index.yaml:10: .*p.v2.0.0' "$work/termination-log" && ok || fail "broken catalog: termination log: $(cat "$work/termination-log" 2>&1)"
! grep -q 'panic\|goroutine ' "$work/err" && [ ! -s "$work/out" ] && ok || fail "broken catalog: panic or stdout"

# --cache-only: load, validate, exit; twice at once (no fixed pprof port).
pa=()
for n in 1 2; do
  bg "$work/cache$n.log" timeout 60 "$bin" serve "$catalog" --cache-dir "$work/cache$n" --cache-only
  pa+=("$bg_pid")
done
for n in 1 2; do
  rc=0; wait "${pa[$((n - 1))]}" || rc=$?
  [ $rc -eq 0 ] && [ -d "$work/cache$n" ] && ok || fail "--cache-only run $n: exit status $rc: $(cat "$work/cache$n.log")"
done
set +e; "$bin" serve "$work/bad" --cache-dir "$work/cache3" --cache-only -t /dev/null > /dev/null 2>&1; rc=$?; set -e
[ $rc -eq 1 ] && ok || fail "--cache-only of a broken catalog: exit status $rc"

# --- time to healthy ----------------------------------------------------------------------
port=$(free_port)
"$healthy" "127.0.0.1:$port" "$bin" serve "$catalog" -p "127.0.0.1:$port" > "$work/healthy.out" 2> "$work/healthy.err" ||
  fail "healthy: $(cat "$work/healthy.out" "$work/healthy.err")"
grep -q 'exit after SIGTERM: 0$' "$work/healthy.out" && ok || fail "healthy: $(cat "$work/healthy.out")"
echo "serve e2e: $(basename "$catalog") ($(du -sm "$catalog" | cut -f1) MB): $(cat "$work/healthy.out")"
echo "serve e2e: $checks checks passed in $(( $(date +%s) - t0 ))s"
