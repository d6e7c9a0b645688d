# Pinned gRPC clients for the e2e scripts (sourced, not run): installs
# grpcurl and grpc_health_probe into bin/tools when they are missing or at
# another version, and curl with apt-get when it is missing (E2E_TOOLS
# names others to install instead, such as chromium). Sets GRPCURL,
# HEALTH_PROBE and TOOLS (the directory). Needs Go; what it installs is
# reported on stderr.
#
# grpc_health_probe's own go.mod has replace directives, so `go install
# ...@version` refuses it; it is built from a throwaway module that
# requires it as a tool instead, with CGO_ENABLED=0 so that the binary is
# static and runs in a FROM scratch image.

GRPCURL_VERSION=v1.9.4
HEALTH_PROBE_VERSION=v0.4.53

TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/bin/tools
GRPCURL=$TOOLS/grpcurl
HEALTH_PROBE=$TOOLS/grpc_health_probe

# tool_is BINARY MODULE VERSION: BINARY was built from MODULE at VERSION.
tool_is() {
  [ -x "$1" ] && go version -m "$1" 2>/dev/null | awk -v m="$2" -v v="$3" '$1 == "mod" && $2 == m && $3 == v { found = 1 } END { exit !found }'
}

install_grpcurl() {
  tool_is "$GRPCURL" github.com/fullstorydev/grpcurl "$GRPCURL_VERSION" && return
  echo "tools: installing grpcurl $GRPCURL_VERSION into $TOOLS" >&2
  mkdir -p "$TOOLS"
  GOBIN=$TOOLS CGO_ENABLED=0 go install "github.com/fullstorydev/grpcurl/cmd/grpcurl@$GRPCURL_VERSION" >&2
}

install_health_probe() {
  tool_is "$HEALTH_PROBE" github.com/grpc-ecosystem/grpc-health-probe "$HEALTH_PROBE_VERSION" && return
  echo "tools: installing grpc_health_probe $HEALTH_PROBE_VERSION (static) into $TOOLS" >&2
  mkdir -p "$TOOLS"
  local mod
  mod=$(mktemp -d)
  (
    cd "$mod" &&
      go mod init e2e.tools/healthprobe >/dev/null 2>&1 &&
      go get -tool "github.com/grpc-ecosystem/grpc-health-probe@$HEALTH_PROBE_VERSION" 2>/dev/null &&
      CGO_ENABLED=0 go build -trimpath -o "$HEALTH_PROBE" github.com/grpc-ecosystem/grpc-health-probe
  ) >&2
  local rc=$?
  rm -rf "$mod"
  return $rc
}

# apt_install PACKAGE: installs a Debian package with apt-get (with sudo
# when not root).
apt_install() {
  echo "tools: installing $1 with apt-get" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$1" >/dev/null
}

install_curl() {
  command -v curl >/dev/null && return
  apt_install curl
}

# chromium (Debian's, headless) for the checks that render in a browser;
# not among the defaults: E2E_TOOLS=chromium.
install_chromium() {
  command -v chromium >/dev/null || command -v chromium-browser >/dev/null && return
  command -v apt-get >/dev/null && apt_install chromium
}

# build_tool PACKAGE: builds one of this module's commands (for example
# ./bench/cmd/loadtest) into bin/tools and prints its path.
build_tool() {
  local out
  out=$TOOLS/$(basename "$1")
  mkdir -p "$TOOLS"
  (cd "$TOOLS/../.." && go build -o "$out" "$1") >&2 && echo "$out"
}

for t in ${E2E_TOOLS:-grpcurl health_probe curl}; do
  "install_$t" || { echo "tools: could not install $t" >&2; return 1; }
done
