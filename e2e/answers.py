#!/usr/bin/env python3
"""Replays an answers file (see serve/registry_test.go) against a
running opm serve with grpcurl and reports every answer that differs.

usage: answers.py GRPCURL HOST:PORT ANSWERS_FILE
Each answer is brought to the file's form: one line of JSON per message,
keys sorted, no HTML escaping, or "! CODE message" for an error.
"""
import concurrent.futures
import json
import subprocess
import sys

CODES = ["OK", "Canceled", "Unknown", "InvalidArgument", "DeadlineExceeded", "NotFound",
         "AlreadyExists", "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
         "Aborted", "OutOfRange", "Unimplemented", "Internal", "Unavailable", "DataLoss",
         "Unauthenticated"]


def parse(path):
    calls = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                continue
            if line.startswith("> "):
                method, rest = line[2:].split(" ", 1)
                request, end = json.JSONDecoder().raw_decode(rest)
                calls.append({"method": method, "request": request,
                              "header": rest[end:].strip(), "want": ""})
            elif calls:
                calls[-1]["want"] += line + "\n"
    return calls


def normal(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def ask(grpcurl, addr, c):
    cmd = [grpcurl, "-plaintext", "-format-error", "-max-msg-sz", str(64 << 20),
           "-d", json.dumps(c["request"])]
    if c["header"]:
        cmd += ["-H", c["header"]]
    cmd += [addr, c["method"]]
    p = subprocess.run(cmd, capture_output=True, text=True)
    out, dec, i, s = "", json.JSONDecoder(), 0, p.stdout.strip()
    while i < len(s):
        obj, i = dec.raw_decode(s, i)
        out += normal(obj) + "\n"
        while i < len(s) and s[i].isspace():
            i += 1
    if p.returncode != 0:
        try:
            err = json.loads(p.stderr)
            out += "! %s %s\n" % (CODES[err.get("code", 2)], err.get("message", ""))
        except ValueError:
            out += "! grpcurl failed: " + p.stderr.strip() + "\n"
    return out


def main():
    grpcurl, addr, path = sys.argv[1:4]
    calls = parse(path)
    with concurrent.futures.ThreadPoolExecutor(4) as ex:
        got = list(ex.map(lambda c: ask(grpcurl, addr, c), calls))
    bad = 0
    for c, g in zip(calls, got):
        if g != c["want"]:
            bad += 1
            print("DIFF %s %s\n  got:  %s\n  want: %s" % (c["method"], normal(c["request"]),
                  g[:600].strip(), c["want"][:600].strip()))
    print("%d calls, %d differ" % (len(calls), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
