#!/usr/bin/env bash
# opm alpha olmv1 against a real kube-apiserver (opt-in): proves the RBAC
# of `opm alpha olmv1 rbac` sufficient, bundle by bundle.
#   - etcd and kube-apiserver on 127.0.0.1 only: a self-signed serving
#     certificate, a static admin token (system:masters), RBAC
#     authorization, OwnerReferencesPermissionEnforcement admission (as on
#     OpenShift: owning an object with blockOwnerDeletion needs update on
#     the owner's finalizers); no watch cache (a CRD deleted while its
#     cache starts would wait on "storage is (re)initializing");
#   - for up to KUBE_E2E_BUNDLES (default 10) real bundles OLM v1 supports
#     (KUBE_E2E_BUNDLE_DIR, by default ../shared/conformance/bundles when
#     present, else the testdata bundles; those with aggregated
#     ClusterRoles always), and up to KUBE_E2E_SINGLE (default 3) without
#     AllNamespaces, in SingleNamespace mode: the admin applies the
#     namespaces and the `rbac` output; then
#     e2e/kubecheck.py, impersonating the installer service account, does
#     to every object of `manifests` what operator-controller does
#     (server-side apply create and patch, create, get, update, patch,
#     delete; list and watch of each kind cluster-wide). Any Forbidden is a
#     gap; the bundle's Roles and ClusterRoles are created without the
#     escalate verb (but for aggregated ClusterRoles, which need it);
#   - a negative control: without the finalizers rule the last bundle's
#     installer is refused (blockOwnerDeletion), or the server proves
#     nothing;
#   - every apply and create asks for strict field validation
#     (fieldValidation=Strict), so a field the server's types do not know
#     fails the test; olmv1/testdata/bundles/typed-demo_0.1.0, whose CSV
#     misplaces spec.template.containers, applies as manifests renders it
#     (the field dropped, as operator-controller drops it) and is refused
#     with the field put back.
# Runs only when KUBE_APISERVER and ETCD name the binaries (build recipe in
# docs/olmv1.md); prints SKIP and exits 0 otherwise.
# Usage: KUBE_APISERVER=... ETCD=... e2e/olmv1-kube.e2e.sh bin/opm
set -euo pipefail
if [ ! -x "${KUBE_APISERVER:-}" ] || [ ! -x "${ETCD:-}" ]; then
  echo "olmv1-kube e2e: SKIP: set KUBE_APISERVER and ETCD to kube-apiserver and etcd binaries (see docs/olmv1.md, 'Proven against a real API server')"
  exit 0
fi
bin=$(realpath "$1")
E2E_NAME=olmv1-kube
source "$(dirname "$0")/lib.sh"
t0=$(date +%s)

# certificates, service account key, admin token.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$work/serving.key" -out "$work/serving.crt" 2> /dev/null || fail "openssl could not make a serving certificate"
openssl genrsa -out "$work/sa.key" 2048 2> /dev/null && openssl rsa -in "$work/sa.key" -pubout -out "$work/sa.pub" 2> /dev/null ||
  fail "openssl could not make the service account key"
token=$(python3 -c 'import secrets;print(secrets.token_hex(16))')
echo "$token,e2e-admin,e2e-admin,system:masters" > "$work/tokens.csv"

start_servers() {
  local e1 e2 api
  e1=$(free_port); e2=$(free_port); api=$(free_port)
  bg "$work/etcd.log" "$ETCD" --name e2e --data-dir "$work/etcd" --unsafe-no-fsync \
    --listen-client-urls "http://127.0.0.1:$e1" --advertise-client-urls "http://127.0.0.1:$e1" \
    --listen-peer-urls "http://127.0.0.1:$e2" --initial-advertise-peer-urls "http://127.0.0.1:$e2" \
    --initial-cluster "e2e=http://127.0.0.1:$e2"
  etcd_pid=$bg_pid
  bg "$work/apiserver.log" "$KUBE_APISERVER" --etcd-servers "http://127.0.0.1:$e1" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$api" \
    --tls-cert-file "$work/serving.crt" --tls-private-key-file "$work/serving.key" \
    --token-auth-file "$work/tokens.csv" --authorization-mode RBAC \
    --service-account-issuer https://127.0.0.1 --service-account-key-file "$work/sa.pub" \
    --service-account-signing-key-file "$work/sa.key" --api-audiences e2e \
    --service-cluster-ip-range 10.96.0.0/24 --allow-privileged \
    --enable-admission-plugins OwnerReferencesPermissionEnforcement --profiling=false \
    --endpoint-reconciler-type none --watch-cache=false
  api_pid=$bg_pid
  export KUBE_SERVER="https://127.0.0.1:$api" KUBE_TOKEN=$token KUBE_CA="$work/serving.crt"
}
for try in 1 2 3; do
  start_servers
  WATCH_PID=$api_pid wait_until 120 python3 "$here/e2e/kubecheck.py" ready && break
  stop "$api_pid" 10; stop "$etcd_pid" 10
  grep -q 'address already in use' "$work/apiserver.log" "$work/etcd.log" ||
    fail "kube-apiserver did not become ready: $(tail -5 "$work/apiserver.log") $(tail -3 "$work/etcd.log")"
done
python3 "$here/e2e/kubecheck.py" ready || fail "kube-apiserver did not become ready: $(tail -5 "$work/apiserver.log")"
ok
t1=$(date +%s)

# the bundles: those OLM v1 installs in AllNamespaces mode, spread over
# the list, those with aggregated ClusterRoles first.
src=${KUBE_E2E_BUNDLE_DIR:-$here/../shared/conformance/bundles}
dirs=("$src"/*/)
[ -d "${dirs[0]}" ] || dirs=("$here"/testdata/bundles/*/ "$here"/olmv1/testdata/bundles/*/)
picked=(); supported=(); single=(); refused=0
for d in "${dirs[@]}"; do
  set +e
  "$bin" alpha olmv1 rbac "$d" --namespace ns --extension-name ext > /dev/null 2> "$work/rbac.err"; rc=$?
  set -e
  case $rc in
    0) if grep -rqs '^aggregationRule:' "$d/manifests"; then picked+=("$d"); else supported+=("$d"); fi ;;
    1) if "$bin" alpha olmv1 rbac "$d" --namespace ns --watch-namespace other --extension-name ext > /dev/null 2>&1; then
         single+=("$d"); else refused=$((refused+1)); fi ;;
    *) fail "$(basename "$d"): opm alpha olmv1 rbac: exit $rc: $(cat "$work/rbac.err")" ;;
  esac
done
max=$(( ${KUBE_E2E_BUNDLES:-10} - ${#picked[@]} ))
if [ ${#supported[@]} -le "$max" ]; then picked+=("${supported[@]}"); else
  for i in $(seq 0 $((max-1))); do picked+=("${supported[$((i * ${#supported[@]} / max))]}"); done
fi
# and up to KUBE_E2E_SINGLE (default 3) bundles without AllNamespaces, in
# SingleNamespace mode: the operator's Roles go to the watched namespace.
for d in "${single[@]:0:${KUBE_E2E_SINGLE:-3}}"; do picked+=("single:$d"); done

n=0; gaps=(); objects=0
for d in "${picked[@]}"; do
  ns="e2e-$n"; ext="ext-$n"; tb=$(date +%s); mode=()
  case $d in single:*) d=${d#single:}; mode=(--watch-namespace "$ns-watched") ;; esac
  name=$(basename "$d")${mode[1]:+ (SingleNamespace)}
  "$bin" alpha olmv1 rbac "$d" --namespace "$ns" "${mode[@]}" --extension-name "$ext" -o json > "$work/rbac.json" 2> "$work/rbac.err" ||
    fail "$name: opm alpha olmv1 rbac: $(cat "$work/rbac.err")"
  "$bin" alpha olmv1 manifests "$d" --namespace "$ns" "${mode[@]}" -o json > "$work/manifests.json" 2> "$work/manifests.err" ||
    fail "$name: rbac succeeded but manifests did not: $(cat "$work/manifests.err")"
  set +e
  python3 "$here/e2e/kubecheck.py" install "$work/rbac.json" "$work/manifests.json" "$ns" "$ext" > "$work/check.out" 2> "$work/check.err"; rc=$?
  set -e
  case $rc in
    0) ok ;;
    1) gaps+=("$name: $(grep -m5 FORBIDDEN "$work/check.err" | tr "\n" ";" || true)") ;;
    *) fail "$name: $(cat "$work/check.err")" ;;
  esac
  echo "olmv1-kube e2e: $name: $(cat "$work/check.out") ($(( $(date +%s) - tb ))s)"
  objects=$((objects + $(python3 -c 'import json,sys;print(len(json.load(open(sys.argv[1]))["items"]))' "$work/manifests.json")))
  n=$((n+1))
done
[ "$n" -gt 0 ] || fail "no bundle OLM v1 supports among ${dirs[*]}"

# negative control: the same check with the finalizers rule left out of
# the last bundle's RBAC must be refused, or the server proves nothing.
"$bin" alpha olmv1 rbac "$d" --namespace e2e-neg "${mode[@]/#$ns/e2e-neg}" --extension-name ext-neg -o json |
  python3 -c 'import json,sys
l = json.load(sys.stdin)
for o in l["items"]:
    if o.get("rules"):
        o["rules"] = [r for r in o["rules"] if "clusterextensions/finalizers" not in r.get("resources", [])]
json.dump(l, sys.stdout)' > "$work/rbac.json"
"$bin" alpha olmv1 manifests "$d" --namespace e2e-neg "${mode[@]/#$ns/e2e-neg}" -o json > "$work/manifests.json"
set +e
python3 "$here/e2e/kubecheck.py" install "$work/rbac.json" "$work/manifests.json" e2e-neg ext-neg > "$work/check.out" 2> "$work/check.err"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q 'FORBIDDEN.*blockOwnerDeletion' "$work/check.err" && ok ||
  fail "without update on clusterextensions/finalizers the installer was not refused (exit $rc): $(head -c 600 "$work/check.err")"
# strict field validation: every apply and create of kubecheck.py asks
# for fieldValidation=Strict. typed-demo's CSV has a misplaced
# spec.template.containers, which manifests drops as operator-controller
# does: its objects must apply, and must be refused with the field put
# back, or the server proves nothing about unknown fields.
typed="$here/olmv1/testdata/bundles/typed-demo_0.1.0"
for strict in e2e-strict e2e-strict-bad; do
  "$bin" alpha olmv1 rbac "$typed" --namespace $strict --extension-name ext-$strict -o json > "$work/rbac.json"
  "$bin" alpha olmv1 manifests "$typed" --namespace $strict -o json 2> /dev/null > "$work/manifests.json"
  [ $strict = e2e-strict ] || python3 -c 'import json,sys
l = json.load(open(sys.argv[1]))
for o in l["items"]:
    if o["kind"] == "Deployment":
        o["spec"]["template"]["containers"] = [{"name": "stray", "image": "example.com/stray:v1"}]
json.dump(l, open(sys.argv[1], "w"))' "$work/manifests.json"
  set +e
  python3 "$here/e2e/kubecheck.py" install "$work/rbac.json" "$work/manifests.json" $strict ext-$strict > "$work/check.out" 2> "$work/check.err"; rc=$?
  set -e
  if [ $strict = e2e-strict ]; then
    [ $rc -eq 0 ] && ok || fail "typed-demo (its unknown field dropped) was not applied with strict field validation (exit $rc): $(head -c 600 "$work/check.err")"
  else
    [ $rc -eq 2 ] && grep -q 'spec.template.containers' "$work/check.err" && ok ||
      fail "typed-demo with spec.template.containers put back was not refused by strict field validation (exit $rc): $(head -c 600 "$work/check.err")"
  fi
done
[ ${#gaps[@]} -eq 0 ] || fail "RBAC gaps (Forbidden as the installer) in ${#gaps[@]} of $n bundles: $(printf '\n  %s' "${gaps[@]}")"
echo "olmv1-kube e2e: $checks checks passed; $n bundles ($objects objects) installed, managed and removed as their installer with no Forbidden, refused without the finalizers rule, and an unknown field refused by strict field validation ($refused refused by OLM v1 in every install mode skipped); servers up in $((t1-t0))s, bundles in $(( $(date +%s) - t1 ))s"
