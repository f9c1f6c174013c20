# SPDX-License-Identifier: GPL-2.0
"""How a string from the inputs is shown: benchmark names, hosts, kernel
strings and command lines come from result files anyone can edit.

XML 1.0 (the inline SVG; an HTML parser is no kinder to them) forbids C0
controls other than tab, newline and carriage return, U+FFFE, U+FFFF and
lone surrogates (json.load makes one of "\\ud800"); the bidi controls can
make a name read backwards ("evil\\u202etxt.exe"). Each becomes a visible
escape, as knotif-compare and knotif-history print it (lib/console/escape.c):
\\n \\t \\r, \\xNN for C0, DEL and C1, \\uNNNN for the rest. Unlike there, a
backslash is kept single: on a page a regex in a command line reads as
typed, and no terminal is driven by what looks like an escape.

Figures (SVG text does not wrap) show names elided as lib/console/escape.c's
escape_elided() does: the first and last characters with "…#xxxxxxxx…"
between, xxxxxxxx the same FNV-1a hash of the whole name, so two long names
that share their ends read differently, and alike in the terminal and here.
"""
import html
import re

# what a terminal or an XML parser must not get raw (lib/console/escape.c's set, plus XML's own)
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                     "\ud800-\udfff\ufffe\uffff]")
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
# one shown unit of escaped text: an escape this module made, or one character
_UNIT = re.compile(r"\\x[0-9a-f]{2}|\\u[0-9a-f]{4}|\\[ntr]|.", re.S)

FIGURE_MAX = 90  # lib/console/table.h's TABLE_CELL_MAX: a name in a figure as wide as in a table


def _escape_one(m):
    c = ord(m.group())
    if m.group() in _NAMED:
        return _NAMED[m.group()]
    if c < 0x80:
        return "\\x%02x" % c
    if c < 0xa0:  # C1: its UTF-8 bytes, as lib/console/escape.c shows them
        return "\\xc2\\x%02x" % c
    return "\\u%04x" % c


def text(s):
    """s with every character XML forbids or that moves text made a visible escape."""
    return _HIDDEN.sub(_escape_one, str(s))


def html_text(s):
    """text(s) for HTML, quotes too (it may go in an attribute)."""
    return html.escape(text(s), quote=True)


def fnv1a(s):
    """lib/console/escape.c's hash of a name: the same 8 hex digits in a terminal and here"""
    h = 2166136261
    for b in s.encode("utf-8", "surrogatepass"):
        h = ((h ^ b) * 16777619) & 0xffffffff
    return h


def elided(s, width=FIGURE_MAX):
    """text(s) in at most width characters: its ends and "…#hash…" between when longer."""
    shown = text(s)
    units = _UNIT.findall(shown)
    cols = [len(u) if u.startswith("\\") and len(u) > 1 else 1 for u in units]
    if sum(cols) <= width:
        return shown
    head_max = (width - 11) * 5 // 8
    tail_max = width - 11 - head_max
    head, used = [], 0
    for u, c in zip(units, cols):
        if used + c > head_max:
            break
        head.append(u)
        used += c
    tail, used = [], 0
    for u, c in zip(reversed(units), reversed(cols)):
        if used + c > tail_max:
            break
        tail.append(u)
        used += c
    return "%s…#%08x…%s" % ("".join(head), fnv1a(str(s)), "".join(reversed(tail)))


def slug(s):
    """s made id-safe ("unotif/sync/emulate" -> "unotif-sync-emulate"); beyond 72 characters its
    first 63 and the hash of all of s, so a 10,000-character name does not make every id in its
    figure (matplotlib's included) 10,000 characters long, and two such names stay apart"""
    out = re.sub(r"[^A-Za-z0-9]+", "-", str(s)).strip("-").lower()
    return out if len(out) <= 72 else "%s-%08x" % (out[:63], fnv1a(str(s)))


def xml_clean(doc):
    """What is left that XML forbids, as U+FFFD: the page is well-formed even if a
    string reached it without text() (a bug, but not one that breaks the page)."""
    return re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]", "\ufffd", doc)
