#!/usr/bin/env python3
"""Rewrites a catalog of JSON files the way a script would write it.

    jsondump.py SRC DST

Every *.json file under SRC (a stream of JSON objects, as opm render
writes them) is written to the same path under DST, each object with
Python's json.dump(obj, f, indent=2) and a newline: the same content in
another encoding, as a catalog maintained by scripts has it (non-ASCII
characters as \\u escapes, <, > and & not escaped, numbers as Python
writes them). Other files are copied.
"""
import json
import os
import shutil
import sys


def objects(text):
    dec = json.JSONDecoder()
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in " \t\r\n":
            i += 1
        if i >= n:
            return
        obj, i = dec.raw_decode(text, i)
        yield obj


def main(src, dst):
    for root, _, files in os.walk(src):
        out = os.path.join(dst, os.path.relpath(root, src))
        os.makedirs(out, exist_ok=True)
        for name in files:
            path = os.path.join(root, name)
            if not name.endswith(".json"):
                shutil.copyfile(path, os.path.join(out, name))
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                for obj in objects(text):
                    json.dump(obj, f, indent=2)
                    f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: jsondump.py SRC DST")
    main(sys.argv[1], sys.argv[2])
