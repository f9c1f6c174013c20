# SPDX-License-Identifier: GPL-2.0
"""A report page as headless Chromium renders it: the DOM after parsing and
layout (no network, no GPU), with its ids, section texts and anything that
could reach outside the file. Shared by the report's tests."""
import html.parser
import os
import subprocess
import tempfile


class Dom(html.parser.HTMLParser):
    """ids by tag, <section> texts, and what could reach outside the file"""

    def __init__(self):
        super().__init__()
        self.ids = {}
        self.dup_ids = set()
        self.texts = {}
        self.external = []
        self.section = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            if any(a["id"] in s for s in self.ids.values()):
                self.dup_ids.add(a["id"])
            self.ids.setdefault(tag, set()).add(a["id"])
        if tag == "section":
            self.section = a.get("id")
        if tag in ("script", "link", "img", "iframe", "object", "embed"):
            self.external.append(tag)
        for k in ("src", "href", "xlink:href"):
            if k in a and not a[k].startswith("#"):
                self.external.append("%s=%s" % (k, a[k]))

    def handle_data(self, data):
        if self.section:
            self.texts[self.section] = self.texts.get(self.section, "") + data


def dump_dom(page, tmp, screenshot=None):
    """(Dom, None), or (an empty Dom, what went wrong)."""
    base = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--user-data-dir=" + tempfile.mkdtemp(dir=tmp)]
    url = "file://" + os.path.abspath(page)
    out = subprocess.run(base + ["--dump-dom", url], capture_output=True, text=True, timeout=120)
    if out.returncode != 0 or "<svg" not in out.stdout:
        return Dom(), "chromium --dump-dom %s: exit %d" % (page, out.returncode)
    if screenshot:
        subprocess.run(base + ["--window-size=1200,4000", "--screenshot=" + screenshot, url],
                       capture_output=True, timeout=120)
    dom = Dom()
    dom.feed(out.stdout)
    return dom, None
