#!/usr/bin/env python3
"""Renders the mermaid blocks of markdown files in headless chromium.

Usage: mermaidcheck.py CHROMIUM MERMAID_JS WORKDIR [--screenshot PNG] FILE.md...

Writes WORKDIR/page.html, which loads MERMAID_JS (copied next to it) and,
for every ```mermaid block of the files, calls mermaid.parse and
mermaid.render (securityLevel strict, as GitHub renders them), then
writes its verdict into the page: "OK n", or "FAIL" and one line per
block that failed with mermaid's error. Chromium dumps the DOM after the
page's scripts ran (virtual time), and this reads the verdict from it.
Exits 0 when every block rendered, 1 when one did not (the errors on
stderr), 2 when there was nothing to render or chromium gave no verdict.
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><script src="mermaid.min.js"></script></head>
<body><pre id="verdict">PENDING</pre><div id="out"></div>
<script id="blocks" type="application/json">%s</script>
<script>
(async () => {
  const blocks = JSON.parse(document.getElementById('blocks').textContent);
  mermaid.initialize({startOnLoad: false, securityLevel: 'strict'});
  const errors = [];
  for (let i = 0; i < blocks.length; i++) {
    try {
      await mermaid.parse(blocks[i].text);
      const {svg} = await mermaid.render('g' + i, blocks[i].text);
      if (/Syntax error/i.test(svg)) throw new Error('mermaid drew a syntax error');
      const div = document.createElement('div');
      div.innerHTML = svg;
      document.getElementById('out').appendChild(div);
    } catch (e) {
      errors.push(blocks[i].name + ': ' + String((e && e.message) || e).replace(/\\n/g, ' | '));
    }
  }
  document.getElementById('verdict').textContent =
    errors.length ? 'FAIL\\n' + errors.join('\\n') : 'OK ' + blocks.length;
})().catch(e => { document.getElementById('verdict').textContent = 'FAIL\\npage: ' + e; });
</script></body></html>
"""

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--virtual-time-budget=60000"]


def blocks_of(paths):
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for i, m in enumerate(re.finditer(r"^```mermaid\n(.*?)^```$", text, re.S | re.M)):
            out.append({"name": "%s (block %d)" % (os.path.basename(path), i + 1), "text": m.group(1)})
    return out


def chromium(binary, work, page, *extra):
    profile = tempfile.mkdtemp(dir=work, prefix="profile")
    cmd = [binary, *FLAGS, "--user-data-dir=" + profile, *extra, "file://" + page]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def main(argv):
    if len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    binary, mermaid_js, work = argv[1:4]
    rest, shot = argv[4:], None
    if rest[:1] == ["--screenshot"]:
        shot, rest = rest[1], rest[2:]
    blocks = blocks_of(rest)
    if not blocks:
        print("mermaidcheck: no mermaid block in %s" % " ".join(rest), file=sys.stderr)
        return 2
    shutil.copy(mermaid_js, os.path.join(work, "mermaid.min.js"))
    page = os.path.join(work, "page.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write(PAGE % json.dumps(blocks).replace("</", "<\\/"))
    p = chromium(binary, work, page, "--dump-dom")
    m = re.search(r'<pre id="verdict">(.*?)</pre>', p.stdout, re.S)
    if not m:
        print("mermaidcheck: chromium gave no verdict (exit %d):\n%s" % (p.returncode, p.stderr[-2000:]), file=sys.stderr)
        return 2
    verdict = html.unescape(m.group(1))
    if shot:
        chromium(binary, work, page, "--window-size=1400,2000", "--screenshot=" + os.path.abspath(shot))
    if verdict.startswith("OK "):
        print("mermaidcheck: %s blocks rendered" % verdict[3:])
        return 0
    print("mermaidcheck: %s" % verdict, file=sys.stderr)
    return 1 if verdict.startswith("FAIL") else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
