#!/usr/bin/env python3
"""Kubernetes API plumbing for e2e/olmv1-kube.e2e.sh: proves the RBAC of
`opm alpha olmv1 rbac` sufficient against a real kube-apiserver by doing,
as the installer service account, what operator-controller does with the
objects of `opm alpha olmv1 manifests`. Every request goes to
KUBE_SERVER (https, verified with KUBE_CA) with the admin token
KUBE_TOKEN; installer requests add Impersonate-User. Prints every
Forbidden (an RBAC gap) and exits 1 if there was one; other failures
exit 2.

  kubecheck.py ready
      Exits 0 when /readyz answers ok.
  kubecheck.py install RBAC MANIFESTS NAMESPACE EXTENSION
      RBAC and MANIFESTS are `-o json` outputs (v1 Lists). As admin: the
      namespace, the ClusterExtension (a stub CRD for it, as for every kind
      of the manifests the server does not serve and the bundle does not
      define), then the RBAC. As the installer, with every object owned by
      the ClusterExtension (blockOwnerDeletion, as operator-controller's
      applier sets it): create each object by server-side apply with
      strict field validation (an unknown field fails the test); get,
      update, merge-patch and apply each again; list and watch each kind
      cluster-wide; delete them all; create them again by POST, as Helm
      does, and delete them again. Webhook configurations are created last
      and deleted first: nothing serves them.
"""
import http.client
import json
import os
import ssl
import sys
import time
import traceback
import urllib.parse

SERVER = os.environ.get("KUBE_SERVER", "")
TOKEN = os.environ.get("KUBE_TOKEN", "")
CTX = ssl.create_default_context(cafile=os.environ["KUBE_CA"]) if os.environ.get("KUBE_CA") else None
WEBHOOKS = ("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")
# Every write validates fields strictly: a member the server's type does
# not know (which operator-controller's typed decoding would have dropped)
# is refused with 400, not silently dropped with a warning.
STRICT = "fieldValidation=Strict"
APPLY = "?fieldManager=olmv1-e2e&force=true&" + STRICT
gaps = []


class Failed(Exception):
    pass


def connect():
    u = urllib.parse.urlsplit(SERVER)
    return http.client.HTTPSConnection(u.hostname, u.port, context=CTX, timeout=30)


conn = None


def send(method, path, body, as_user, ctype, stream=False):
    """Sends one request on the kept-alive connection (a new one for a
    stream, closed before its body is read); returns (status, bytes)."""
    global conn
    headers = {"Authorization": "Bearer " + TOKEN, "Accept": "application/json"}
    if as_user:
        headers["Impersonate-User"] = as_user
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = ctype
    if stream:
        c = connect()
        c.request(method, path, data, headers)
        resp = c.getresponse()
        status, text = resp.status, resp.read() if resp.status != 200 else b""
        c.close()
        return status, text
    for attempt in (1, 2):
        if conn is None:
            conn = connect()
        try:
            conn.request(method, path, data, headers)
            resp = conn.getresponse()
            return resp.status, resp.read()
        except (http.client.HTTPException, OSError):
            conn.close()
            conn = None
            if attempt == 2:
                raise


def call(method, path, body=None, as_user=None, ctype="application/json", ok=(200, 201, 202), stream=False):
    """One API request; returns (status, decoded body). A status outside
    ok raises Failed, a 403 of the installer is recorded as a gap."""
    status, text = send(method, path, body, as_user, ctype, stream)
    try:
        out = json.loads(text) if text else {}
    except ValueError:
        out = {"message": text[:200].decode(errors="replace")}
    if status in ok:
        return status, out
    what = "%s %s: %d %s" % (method, path, status, out.get("message", ""))
    if status == 403 and as_user:
        gaps.append(what)
        print("FORBIDDEN " + what, file=sys.stderr)
        return status, out
    raise Failed(what)


class Discovery:
    """Resources the server serves: (apiVersion, kind) -> (resource, namespaced)."""

    def __init__(self):
        self.kinds = {}
        _, core = call("GET", "/api/v1")
        self.add("v1", core)
        _, groups = call("GET", "/apis")
        for g in groups.get("groups", []):
            for v in g["versions"]:
                self.load(v["groupVersion"])

    def load(self, gv):
        status, lst = call("GET", "/apis/" + gv, ok=(200, 404, 503))
        if status == 200:
            self.add(gv, lst)

    def add(self, gv, lst):
        for r in lst.get("resources", []):
            if "/" not in r["name"]:
                self.kinds[(gv, r["kind"])] = (r["name"], r["namespaced"])

    def path(self, obj, named=True, all_namespaces=False):
        """The URL path of obj (named) or of its collection."""
        gv, kind, meta = obj["apiVersion"], obj["kind"], obj["metadata"]
        resource, namespaced = self.kinds[(gv, kind)]
        p = "/api/v1" if gv == "v1" else "/apis/" + gv
        if namespaced and not all_namespaces:
            p += "/namespaces/" + meta["namespace"]
        p += "/" + resource
        return p + "/" + meta["name"] if named else p


def plural(kind):
    k = kind.lower()
    if k.endswith(("s", "x", "z", "ch", "sh")):
        return k + "es"
    if k.endswith("y") and len(k) > 1 and k[-2] not in "aeiou":
        return k[:-1] + "ies"
    return k + "s"


def stub_crd(gv, kind, namespaced):
    """A CRD serving kind with any content: for kinds another operator
    (cert-manager, OLM v1) defines."""
    group, version = gv.split("/")
    p = plural(kind)
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": p + "." + group},
            "spec": {"group": group, "scope": "Namespaced" if namespaced else "Cluster",
                     "names": {"plural": p, "singular": kind.lower(), "kind": kind, "listKind": kind + "List"},
                     "versions": [{"name": version, "served": True, "storage": True,
                                   "subresources": {"status": {}},
                                   "schema": {"openAPIV3Schema": {"type": "object",
                                                                  "x-kubernetes-preserve-unknown-fields": True}}}]}}


def wait_established(disc, crd, as_user=None):
    """Waits until crd is established and its group version served."""
    name, spec = crd["metadata"]["name"], crd["spec"]
    for _ in range(300):
        _, got = call("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name, as_user=as_user)
        conds = (got.get("status") or {}).get("conditions") or []
        if any(c["type"] == "Established" and c["status"] == "True" for c in conds):
            break
        time.sleep(0.05)
    for v in spec["versions"]:
        gv = spec["group"] + "/" + v["name"]
        for _ in range(300):
            disc.load(gv)
            if (gv, spec["names"]["kind"]) in disc.kinds:
                break
            time.sleep(0.05)


def admin_setup(disc, rbac, objs, ns, ext):
    """The admin's part: the namespaces (install and watched), stub CRDs,
    the ClusterExtension, the RBAC."""
    for n in sorted({ns} | {o["metadata"]["namespace"] for o in rbac + objs if o["metadata"].get("namespace")}):
        call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": n}}, ok=(201, 409))
    defined = {(c["spec"]["group"] + "/" + v["name"], c["spec"]["names"]["kind"])
               for c in objs if c["kind"] == "CustomResourceDefinition" for v in c["spec"]["versions"]}
    wanted = {("olm.operatorframework.io/v1", "ClusterExtension"): False}
    for o in objs:
        key = (o["apiVersion"], o["kind"])
        if key not in disc.kinds and key not in defined:
            wanted[key] = "namespace" in o["metadata"]
    for (gv, kind), namespaced in sorted(wanted.items()):
        if (gv, kind) in disc.kinds:
            continue
        crd = stub_crd(gv, kind, namespaced)
        call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd, ok=(201, 409))
        wait_established(disc, crd)
    cext = {"apiVersion": "olm.operatorframework.io/v1", "kind": "ClusterExtension", "metadata": {"name": ext},
            "spec": {"namespace": ns}}
    call("POST", disc.path(cext, named=False), cext, ok=(201, 409))
    _, cext = call("GET", disc.path(cext))
    for o in rbac:
        call("PATCH", disc.path(o) + "?fieldManager=e2e-admin&force=true&" + STRICT, o, ctype="application/apply-patch+yaml")
    return {"apiVersion": "olm.operatorframework.io/v1", "kind": "ClusterExtension", "name": ext,
            "uid": cext["metadata"]["uid"], "controller": True, "blockOwnerDeletion": True}


def wait_rbac(rbac, user):
    """Waits until the authorizer's cache holds the installer's roles
    and bindings (asked by SubjectAccessReview of a rule of each role)."""
    for o in rbac:
        for r in [r for r in o.get("rules") or [] if not r.get("nonResourceURLs")][:1]:
            attrs = {"verb": r["verbs"][0], "group": r["apiGroups"][0], "resource": r["resources"][0],
                     "name": (r.get("resourceNames") or [""])[0], "namespace": o["metadata"].get("namespace", "")}
            review = {"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview",
                      "spec": {"user": user, "groups": ["system:serviceaccounts", "system:authenticated"],
                               "resourceAttributes": attrs}}
            for _ in range(200):
                _, got = call("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", review)
                if got.get("status", {}).get("allowed"):
                    break
                time.sleep(0.05)
            else:
                raise Failed("the installer is not allowed %s by %s %s 10s after it was applied" % (attrs, o["kind"], o["metadata"]["name"]))


def owned(o, owner):
    """o as operator-controller applies it: owned by the ClusterExtension."""
    o = json.loads(json.dumps(o))
    o["metadata"]["ownerReferences"] = [owner]
    return o


def as_installer(disc, method, o, sa, owner, path, ctype="application/json", ok=(200, 201, 202)):
    """One request of the installer on object o; if it is forbidden (a
    gap, recorded), the admin does it instead so that the rest can go on."""
    status, got = call(method, path, owned(o, owner), as_user=sa, ctype=ctype, ok=ok)
    if status == 403:
        status, got = call(method, path, owned(o, owner), ctype=ctype, ok=ok)
    if o["kind"] == "CustomResourceDefinition":
        wait_established(disc, o, as_user=sa)
    if o["kind"] == "ClusterRole" and "aggregationRule" in o and status == 201:
        # what the cluster's aggregation controller does with a role from
        # outside the bundle: the installer does not hold its rules.
        base = path.split("?")[0]
        call("PATCH", base if method == "PATCH" else base + "/" + o["metadata"]["name"],
             {"rules": [{"apiGroups": [""], "resources": ["nodes"], "verbs": ["get"]}]},
             ctype="application/merge-patch+json")
    return status, got


def apply_all(disc, objs, sa, owner):
    """Creates every object by server-side apply, as the installer.
    Returns the objects created and the reasons of those the API server
    refused as invalid (the bundle's fault, not the RBAC's)."""
    created, invalid = [], []
    custom = {(c["spec"]["group"] + "/" + v["name"], c["spec"]["names"]["kind"])
              for c in objs if c["kind"] == "CustomResourceDefinition" for v in c["spec"]["versions"]}
    for o in objs:
        status, got = as_installer(disc, "PATCH", o, sa, owner, disc.path(o) + APPLY,
                                   ctype="application/apply-patch+yaml", ok=(200, 201, 400, 422))
        # a custom resource of the bundle with a field its CRD's schema
        # does not have (400 under strict validation) is the bundle's, as
        # operator-controller applies it as it is; anything else is ours.
        if status == 422 or status == 400 and (o["apiVersion"], o["kind"]) in custom:
            invalid.append("%s %s: %s" % (o["kind"], o["metadata"]["name"], got.get("message", "")))
            continue
        if status == 400:
            raise Failed("apply of %s %s refused: %s" % (o["kind"], o["metadata"]["name"], got.get("message", "")))
        if status != 201:
            raise Failed("apply of %s %s did not create it (%d)" % (o["kind"], o["metadata"]["name"], status))
        created.append(o)
    return created, invalid


def manage_all(disc, objs, sa, owner):
    """Get, update, patch, apply again, and list and watch cluster-wide."""
    watched = set()
    for o in objs:
        path = disc.path(o)
        status, got = call("GET", path, as_user=sa)
        if status == 200:
            got["metadata"].setdefault("labels", {})["olmv1-e2e"] = "updated"
            call("PUT", path, got, as_user=sa)
        call("PATCH", path, {"metadata": {"labels": {"olmv1-e2e": "patched"}}}, as_user=sa,
             ctype="application/merge-patch+json")
        call("PATCH", path + APPLY, owned(o, owner), as_user=sa,
             ctype="application/apply-patch+yaml")
        coll = disc.path(o, named=False, all_namespaces=True)
        if coll not in watched:
            watched.add(coll)
            call("GET", coll + "?limit=1", as_user=sa)
            call("GET", coll + "?watch=true&timeoutSeconds=5", as_user=sa, stream=True)


def delete_all(disc, objs, sa):
    """Deletes every object, webhook configurations first, and waits
    until they are gone."""
    for o in reversed(objs):
        status, _ = call("DELETE", disc.path(o), as_user=sa, ok=(200, 202, 404))
        if status == 403:
            call("DELETE", disc.path(o), ok=(200, 202, 404))
    for o in objs:
        for _ in range(600):
            status, _ = call("GET", disc.path(o), ok=(200, 404))
            if status == 404:
                break
            time.sleep(0.05)
        else:
            _, got = call("GET", disc.path(o))
            raise Failed("%s %s is not gone 30s after its delete: finalizers %s, status %s" % (
                o["kind"], o["metadata"]["name"], got["metadata"].get("finalizers"),
                ["%s=%s %s" % (c["type"], c["status"], c.get("message", "")) for c in (got.get("status") or {}).get("conditions") or []]))


def create_all(disc, objs, sa, owner):
    """Creates every object by POST, as Helm does."""
    for o in objs:
        as_installer(disc, "POST", o, sa, owner, disc.path(o, named=False) + "?" + STRICT, ok=(201,))


def install(rbac_file, manifests_file, ns, ext):
    rbac = json.load(open(rbac_file))["items"]
    objs = json.load(open(manifests_file))["items"]
    objs = [o for o in objs if o["kind"] not in WEBHOOKS] + [o for o in objs if o["kind"] in WEBHOOKS]
    seen, unique, dups = set(), [], []
    for o in objs:
        key = (o["apiVersion"].split("/")[0], o["kind"], o["metadata"].get("namespace"), o["metadata"]["name"])
        if key in seen:
            dups.append("%s %s" % (o["kind"], o["metadata"]["name"]))
            print("DUPLICATE (two objects of the manifests share one name; the first is used) %s %s" % key[1::2], file=sys.stderr)
            continue
        seen.add(key)
        unique.append(o)
    objs = unique
    sa = next(o["metadata"]["name"] for o in rbac if o["kind"] == "ServiceAccount")
    rules = [r for o in rbac for r in o.get("rules") or []]
    aggregated = [o["metadata"]["name"] for o in objs if o["kind"] == "ClusterRole" and "aggregationRule" in o]
    held = {res for o in objs if o["kind"] in ("Role", "ClusterRole") for r in o.get("rules") or []
            if {"escalate", "*"} & set(r["verbs"]) for res in r.get("resources", [])}
    if aggregated:
        held.add("clusterroles")
    for r in rules:
        if "escalate" in r["verbs"] and not set(r.get("resources", [])) <= held:
            raise Failed("the installer's RBAC grants escalate beyond what aggregated ClusterRoles and the bundle's own roles need: %s" % r)
    escalate = "with escalate on clusterroles, for aggregated %s" % ", ".join(aggregated) if aggregated else "without escalate"
    if any("*" in r["verbs"] and {"*", "rbac.authorization.k8s.io"} & set(r.get("apiGroups", [])) and
           {"*", "roles", "clusterroles"} & set(r.get("resources", [])) for r in rules):
        escalate = "with escalate held through the bundle's own wildcard"
    disc = Discovery()
    disc.applied = set()
    owner = admin_setup(disc, rbac, objs, ns, ext)
    user = "system:serviceaccount:%s:%s" % (ns, sa)
    wait_rbac(rbac, user)
    objs, invalid = apply_all(disc, objs, user, owner)
    for i in invalid:
        print("INVALID (the bundle's object, refused by the API server: not an RBAC gap) " + i, file=sys.stderr)
    manage_all(disc, objs, user, owner)
    delete_all(disc, objs, user)
    create_all(disc, objs, user, owner)
    delete_all(disc, objs, user)
    roles = sum(o["kind"] in ("Role", "ClusterRole") for o in objs)
    print("%d objects, %d kinds, %d roles created %s: %d forbidden%s%s" % (
        len(objs), len({(o["apiVersion"], o["kind"]) for o in objs}), roles, escalate, len(gaps),
        "; %d refused as invalid: %s" % (len(invalid), "; ".join(invalid)) if invalid else "",
        "; duplicates: " + ", ".join(dups) if dups else ""))


def main(argv):
    try:
        if argv[1:2] == ["ready"]:
            status, _ = call("GET", "/readyz", ok=(200, 500, 503))
            return 0 if status == 200 else 1
        if argv[1:2] == ["install"] and len(argv) == 6:
            install(*argv[2:])
            return 1 if gaps else 0
    except Failed as e:
        print("kubecheck: %s" % e, file=sys.stderr)
        return 2
    except Exception:  # a bug here or an answer not understood: not a gap
        traceback.print_exc()
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
