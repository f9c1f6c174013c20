# SPDX-License-Identifier: GPL-2.0
"""What a knotif tool's --help says it takes: the long options it defines
(and whether each takes a value) and its commands. The one reading of
--help that the bash completion (scripts/gen-completion) and the man-page
test (scripts/tests/man_pages.py) share, so both list what --help lists.

An option is defined on a line that starts, after at most 8 spaces, with
"-" (GNU, argp and argparse layouts, and analysis/ci-gate's comment
block): every --name before the description's two-space gap is defined
there; "--name=V", "--name[=V]" and "--name V" take a value. Commands are
the first words of the indented lines of a "Commands:" block."""
import re

DEFINITION = re.compile(r"^\s{1,8}(-\S.*?)(?:\s{2,}|$)")
LONG = re.compile(r"(?<![\w-])(--[A-Za-z][\w-]*)(\[?=|\s+[A-Z{<])?")
COMMAND = re.compile(r"^\s{1,4}([a-z][\w-]*)(\s|$)")


def options(help_text):
    """{"--name": takes_value} for every long option help_text defines."""
    out = {}
    for line in help_text.splitlines():
        m = DEFINITION.match(line)
        if not m:
            continue
        for name, value in LONG.findall(m.group(1)):
            out[name] = out.get(name, False) or bool(value)
    return out


def commands(help_text):
    """The commands of a "Commands:" block, in order."""
    out, inside = [], False
    for line in help_text.splitlines():
        if line.strip() == "Commands:":
            inside = True
        elif inside and not line.strip():
            break
        elif inside:
            m = COMMAND.match(line)
            if m and m.group(1) not in out:
                out.append(m.group(1))
    return out
