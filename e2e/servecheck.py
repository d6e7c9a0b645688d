#!/usr/bin/env python3
"""JSON plumbing for e2e/serve.e2e.sh. Every subcommand prints what it
found and exits 1 when a check fails.

  servecheck.py grpc OPM DIR GRPCURL ADDR
      Cross-checks a running opm serve of DIR against `opm alpha list
      packages|channels|bundles DIR` (an independent code path): package
      names, channel heads and default channels, every (package, channel,
      bundle, replaces, skips, skipRange, image) row of ListBundles, and the
      CSV of every channel head from GetBundleForChannel.
  servecheck.py objects FILE
      Prints the number of JSON values in FILE (opm render -o json output).
  servecheck.py jsonl FILE RENDERED
      Checks FILE (a /api/v1/all body): every line one JSON object, and the
      objects are those of RENDERED (opm render -o json of the same catalog),
      compared as a multiset.
  servecheck.py field FILE KEY
      Prints KEY of every line of a JSON-lines FILE, one a line.
  servecheck.py listeners PID
      Prints every TCP address process PID listens on, one a line.
  servecheck.py descendant PID ARGV0
      Prints the pid of every descendant of PID whose argv[0] is ARGV0 (from
      /proc: minimal Debian images have no ps).
  servecheck.py head HOST PORT PATH
      Sends HEAD PATH over a raw socket, prints the status line, the
      Content-Length and the number of bytes after the headers.
"""
import concurrent.futures
import json
import os
import socket
import subprocess
import sys


def die(msg):
    print("servecheck: " + msg, file=sys.stderr)
    sys.exit(1)


def values(text):
    """Every JSON value of a stream of concatenated values."""
    dec, i, out = json.JSONDecoder(), 0, []
    text = text.strip()
    while i < len(text):
        obj, i = dec.raw_decode(text, i)
        out.append(obj)
        while i < len(text) and text[i].isspace():
            i += 1
    return out


def table(opm, what, directory, columns):
    """Rows of an `opm alpha list` table, cut at the header's column starts."""
    out = subprocess.run([opm, "alpha", "list", what, directory], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    header, starts, at = out[0], [], 0
    for c in columns:
        at = header.index(c, at)
        starts.append(at)
        at += 1
    ends = starts[1:] + [None]
    return [tuple(line[s:e].strip() for s, e in zip(starts, ends)) for line in out[1:]]


def check_grpc(opm, directory, grpcurl, addr):
    def call(method, request=None):
        cmd = [grpcurl, "-plaintext", "-max-msg-sz", str(64 << 20)]
        if request is not None:
            cmd += ["-d", json.dumps(request)]
        try:
            p = subprocess.run(cmd + [addr, method], capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            die("%s %s: no answer in 60 s" % (method, json.dumps(request)))
        if p.returncode != 0:
            die("%s %s: %s" % (method, json.dumps(request), p.stderr.strip()))
        return values(p.stdout)

    pool = concurrent.futures.ThreadPoolExecutor(max(4, os.cpu_count() or 1))
    packages = table(opm, "packages", directory, ["NAME", "DISPLAY NAME", "DEFAULT CHANNEL"])
    channels = table(opm, "channels", directory, ["PACKAGE", "CHANNEL", "HEAD"])
    bundles = table(opm, "bundles", directory,
                    ["PACKAGE", "CHANNEL", "BUNDLE", "REPLACES", "SKIPS", "SKIP RANGE", "IMAGE"])
    listed = pool.submit(call, "api.Registry/ListBundles")
    bad = 0

    names = sorted(p["name"] for p in call("api.Registry/ListPackages"))
    if names != sorted(p[0] for p in packages):
        bad += 1
        print("ListPackages: %s\n  alpha list packages: %s" % (names, [p[0] for p in packages]))

    got_channels, defaults = [], {}
    for name, (pkg,) in zip(names, pool.map(lambda n: call("api.Registry/GetPackage", {"name": n}), names)):
        defaults[name] = pkg.get("defaultChannelName", "")
        got_channels += [(name, c["name"], c.get("csvName", "")) for c in pkg.get("channels", [])]
    want_defaults = {p[0]: p[2] for p in packages}
    if defaults != want_defaults:
        bad += 1
        print("GetPackage default channels differ from alpha list packages:",
              sorted(set(defaults.items()) ^ set(want_defaults.items())))
    if sorted(got_channels) != sorted(channels):
        bad += 1
        print("GetPackage heads differ from alpha list channels:",
              sorted(set(got_channels) ^ set(channels))[:10])

    rows = sorted((b.get("packageName", ""), b.get("channelName", ""), b.get("csvName", ""),
                   b.get("replaces", ""), ",".join(b.get("skips", [])), b.get("skipRange", ""),
                   b.get("bundlePath", "")) for b in listed.result())
    if rows != sorted(bundles):
        bad += 1
        print("ListBundles (%d rows) differs from alpha list bundles (%d rows):" % (len(rows), len(bundles)),
              sorted(set(rows) ^ set(bundles))[:10])

    def head(ch):
        b = call("api.Registry/GetBundleForChannel", {"pkgName": ch[0], "channelName": ch[1]})[0]
        problems = []
        if b.get("csvName") != ch[2]:
            problems.append("csvName %r, want the head %r" % (b.get("csvName"), ch[2]))
        try:
            csv = json.loads(b.get("csvJson", ""))
            if csv.get("kind") != "ClusterServiceVersion":
                problems.append("csvJson kind %r" % csv.get("kind"))
        except ValueError as e:
            problems.append("csvJson is not JSON: %s" % e)
        if not b.get("object"):
            problems.append("no object")
        return problems

    for ch, problems in zip(channels, pool.map(head, channels)):
        if problems:
            bad += 1
            print("GetBundleForChannel %s/%s: %s" % (ch[0], ch[1], "; ".join(problems)))
    pool.shutdown()
    print("%d packages, %d channels, %d bundle rows, %d channel heads: %d differ" %
          (len(names), len(channels), len(rows), len(channels), bad))
    sys.exit(1 if bad else 0)


def normal(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def check_jsonl(path, rendered):
    with open(path, encoding="utf-8") as f:
        data = f.read()
    if not data.endswith("\n"):
        die("%s does not end with a newline" % path)
    got = []
    for n, line in enumerate(data[:-1].split("\n"), 1):
        try:
            obj = json.loads(line)
        except ValueError as e:
            die("line %d is not JSON: %s" % (n, e))
        if not isinstance(obj, dict):
            die("line %d is not an object" % n)
        got.append(normal(obj))
    with open(rendered, encoding="utf-8") as f:
        want = [normal(o) for o in values(f.read())]
    if sorted(got) != sorted(want):
        extra, missing = set(got) - set(want), set(want) - set(got)
        die("%d lines, %d rendered objects; %d lines not rendered (first: %s), %d rendered objects not served (first: %s)" %
            (len(got), len(want), len(extra), next(iter(extra), "")[:200], len(missing), next(iter(missing), "")[:200]))
    print(len(got))


def listeners(pid):
    inodes = set()
    for fd in os.listdir("/proc/%s/fd" % pid):
        try:
            link = os.readlink("/proc/%s/fd/%s" % (pid, fd))
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    for table_name, v6 in (("tcp", False), ("tcp6", True)):
        with open("/proc/%s/net/%s" % (pid, table_name)) as f:
            next(f)
            for line in f:
                fields = line.split()
                if fields[3] != "0A" or fields[9] not in inodes:  # 0A: LISTEN
                    continue
                host, port = fields[1].split(":")
                raw = bytes.fromhex(host)
                # /proc shows addresses as 32-bit words in host (little-endian) order.
                raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
                ip = socket.inet_ntop(socket.AF_INET6 if v6 else socket.AF_INET, raw)
                print("[%s]:%d" % (ip, int(port, 16)) if v6 else "%s:%d" % (ip, int(port, 16)))


def descendant(root, argv0):
    parent, cmd = {}, {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % p) as f:
                parent[p] = f.read().rsplit(")", 1)[1].split()[1]
            with open("/proc/%s/cmdline" % p, "rb") as f:
                cmd[p] = f.read().split(b"\0")[0].decode(errors="replace")
        except OSError:
            continue
    for p in parent:
        if cmd[p] != argv0:
            continue
        q = parent[p]
        while q in parent and q != root:
            q = parent[q]
        if q == root:
            print(p)


def head(host, port, path):
    s = socket.create_connection((host, int(port)), 5)
    s.sendall(("HEAD %s HTTP/1.1\r\nHost: %s:%s\r\nConnection: close\r\n\r\n" % (path, host, port)).encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    headers, _, body = data.partition(b"\r\n\r\n")
    lines = headers.decode("latin-1").split("\r\n")
    length = next((l.split(":", 1)[1].strip() for l in lines if l.lower().startswith("content-length:")), "")
    print("%s|%s|%d" % (lines[0], length, len(body)))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "grpc":
        check_grpc(*args)
    elif cmd == "objects":
        with open(args[0], encoding="utf-8") as f:
            print(len(values(f.read())))
    elif cmd == "jsonl":
        check_jsonl(*args)
    elif cmd == "field":
        with open(args[0], encoding="utf-8") as f:
            for line in f:
                print(json.loads(line).get(args[1], ""))
    elif cmd == "listeners":
        listeners(args[0])
    elif cmd == "descendant":
        descendant(*args)
    elif cmd == "head":
        head(*args)
    else:
        die("unknown subcommand " + cmd)


if __name__ == "__main__":
    main()
