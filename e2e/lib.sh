# Helpers shared by the e2e/*.e2e.sh scripts (sourced, not run). Set
# E2E_NAME (the label of FAIL lines) before sourcing.
#
# Sourcing makes a work directory ($work) and an EXIT trap that stops
# every process started with `bg`, removes every buildah container made
# with `ctr_from`, and then the work directory. The image helpers install
# Debian's docker-registry and buildah when missing (pinned versions,
# Debian 12), run registries on loopback ports and buildah on vfs storage
# inside $work, with chroot isolation: no daemon, no privileges beyond
# root, nothing left on the host.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
pids=()
containers=()
e2e_cleanup() {
  local p c n
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for n in $(seq 50); do  # 5 s for SIGTERM, then SIGKILL
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && break; p=""; done
    [ -n "${p:-}" ] || break
    sleep 0.1
  done
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  for c in "${containers[@]}"; do "${buildah[@]}" rm "$c" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap e2e_cleanup EXIT
fail() { echo "FAIL (${E2E_NAME:-e2e}): $*" >&2; exit 1; }
checks=0
ok() { checks=$((checks+1)); }

# free_port: a TCP port nobody listens on at 127.0.0.1 right now.
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }

# bg LOG COMMAND...: runs COMMAND in the background with its output in
# LOG; its pid is in $bg_pid and is stopped on exit.
bg() {
  local log=$1; shift
  "$@" > "$log" 2>&1 &
  bg_pid=$!
  pids+=("$bg_pid")
}

# stop PID [SECONDS]: SIGTERM, then as wait_exit.
stop() {
  kill -TERM "$1" 2>/dev/null || true
  wait_exit "$@"
}

# wait_exit PID [SECONDS]: waits for PID (started with bg) to exit; sets
# $stop_rc to its exit status and $stop_secs to how long that took. Fails
# (after SIGKILL) if it is still running after SECONDS (default 5).
wait_exit() {
  local pid=$1 limit=${2:-5} t0 deadline killed=""
  t0=$(date +%s.%N)
  deadline=$(( $(date +%s) + limit ))
  while kill -0 "$pid" 2>/dev/null && [ "$(date +%s)" -le "$deadline" ]; do sleep 0.05; done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; killed=1; fi
  stop_rc=0
  wait "$pid" 2>/dev/null || stop_rc=$?
  stop_secs=$(python3 -c "print('%.2f' % ($(date +%s.%N) - $t0))")
  local p kept=()
  for p in "${pids[@]}"; do [ "$p" = "$pid" ] || kept+=("$p"); done
  pids=("${kept[@]}")
  [ -z "$killed" ] || fail "process $pid did not exit within ${limit}s"
}

# wait_until SECONDS COMMAND...: runs COMMAND every 0.1 s until it
# succeeds; false after SECONDS. With WATCH_PID set, false as soon as
# that process is gone.
wait_until() {
  local deadline=$(( $(date +%s) + $1 )); shift
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$deadline" ] || return 1
    [ -z "${WATCH_PID:-}" ] || kill -0 "$WATCH_PID" 2>/dev/null || return 1
    sleep 0.1
  done
}

# port_open PORT: something accepts connections on 127.0.0.1:PORT.
port_open() { python3 -c 'import socket,sys;socket.create_connection(("127.0.0.1",int(sys.argv[1])),1).close()' "$1" 2>/dev/null; }

# real_catalogs DEFAULT: the real catalogs, ../shared/conformance/catalogs
# as an absolute path, when they exist; else DEFAULT.
real_catalogs() {
  if [ -d "$here/../shared/conformance/catalogs" ]; then (cd "$here/../shared/conformance/catalogs" && pwd); else echo "$1"; fi
}

# need_static BIN: fails unless BIN is linked statically, as an image
# FROM scratch (no loader, no libc) needs.
need_static() { ! ldd "$1" >/dev/null 2>&1 || fail "$1 is dynamically linked: build it with CGO_ENABLED=0 (make build)"; }

# --- images ---------------------------------------------------------------------
REGISTRY_VERSION=2.8.2+ds1-1
BUILDAH_VERSION=1.28.2+ds1-3+deb12u1+b3

install_image_tools() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  # Keep maintainer scripts from starting the packaged registry service.
  [ -e /usr/sbin/policy-rc.d ] || { printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null; $sudo chmod +x /usr/sbin/policy-rc.d; }
  echo "${E2E_NAME:-e2e}: installing docker-registry $REGISTRY_VERSION and buildah $BUILDAH_VERSION with apt-get" >&2
  $sudo apt-get update -qq
  local opts=(-y -qq --no-install-recommends -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
  if ! $sudo apt-get install "${opts[@]}" "docker-registry=$REGISTRY_VERSION" "buildah=$BUILDAH_VERSION" apache2-utils curl >/dev/null; then
    echo "${E2E_NAME:-e2e}: pinned versions unavailable, installing the distribution's current ones" >&2
    $sudo apt-get install "${opts[@]}" docker-registry buildah apache2-utils curl >/dev/null
  fi
  $sudo /etc/init.d/docker-registry stop >/dev/null 2>&1 || true
}

# need_skopeo: skopeo, installed with apt-get when missing (pinned
# version, Debian 12).
SKOPEO_VERSION=1.9.3+ds1-1+b10
need_skopeo() {
  command -v skopeo >/dev/null && return
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  echo "${E2E_NAME:-e2e}: installing skopeo $SKOPEO_VERSION with apt-get" >&2
  $sudo apt-get update -qq
  local opts=(-y -qq --no-install-recommends -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
  if ! $sudo apt-get install "${opts[@]}" "skopeo=$SKOPEO_VERSION" >/dev/null; then
    echo "${E2E_NAME:-e2e}: pinned version unavailable, installing the distribution's current one" >&2
    $sudo apt-get install "${opts[@]}" skopeo >/dev/null
  fi
}

# need_image_tools: docker-registry, buildah, htpasswd and curl, installed
# when any is missing.
need_image_tools() {
  local tool
  for tool in docker-registry buildah htpasswd curl; do
    command -v $tool >/dev/null || { install_image_tools; return; }
  done
}

# start_registry NAME [HTPASSWD-FILE]: a registry on a free loopback port
# (with basic auth when given a file), stopped on exit; sets $registry to
# its host:port.
start_registry() {
  local name=$1 auth=${2:-} port
  port=$(free_port)
  mkdir -p "$work/$name-data"
  {
    echo "version: 0.1"
    echo "log: {level: error}"
    echo "storage: {filesystem: {rootdirectory: $work/$name-data}}"
    echo "http: {addr: 127.0.0.1:$port, secret: e2e-not-secret}"
    [ -z "$auth" ] || echo "auth: {htpasswd: {realm: e2e, path: $auth}}"
  } > "$work/$name.yml"
  bg "$work/$name.log" docker-registry serve "$work/$name.yml"
  WATCH_PID=$bg_pid wait_until 10 curl -s -o /dev/null "http://127.0.0.1:$port/v2/" || fail "registry $name did not start: $(cat "$work/$name.log")"
  registry=127.0.0.1:$port
}

export BUILDAH_ISOLATION=chroot
buildah=(buildah --root "$work/storage/root" --runroot "$work/storage/run" --storage-driver vfs)

# build_push CONTEXT REF [buildah push options...]: build CONTEXT/Dockerfile
# (base images pulled from the loopback registries over plain HTTP), push
# it to REF.
build_push() {
  local ctx=$1 ref=$2; shift 2
  "${buildah[@]}" build --isolation chroot --tls-verify=false -q -f "$ctx/Dockerfile" -t "localhost/e2e/tmp" "$ctx" >/dev/null
  "${buildah[@]}" push -q --tls-verify=false "$@" localhost/e2e/tmp "docker://$ref"
}

# bundle_dockerfile CONTEXT PACKAGE: a Dockerfile in CONTEXT that makes a
# registry+v1 bundle image of CONTEXT's manifests/ and metadata/, labelled
# as upstream's bundle.Dockerfile labels it.
bundle_dockerfile() {
  cat > "$1/Dockerfile" <<EOF
FROM scratch
COPY manifests /manifests/
COPY metadata /metadata/
LABEL operators.operatorframework.io.bundle.mediatype.v1=registry+v1
LABEL operators.operatorframework.io.bundle.manifests.v1=manifests/
LABEL operators.operatorframework.io.bundle.metadata.v1=metadata/
LABEL operators.operatorframework.io.bundle.package.v1=$2
EOF
}

# ctr_from IMAGE: a working container of IMAGE, removed on exit; sets $ctr.
ctr_from() {
  ctr=$("${buildah[@]}" from -q --tls-verify=false "$1")
  containers+=("$ctr")
}
