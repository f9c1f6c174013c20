# SPDX-License-Identifier: GPL-2.0
# Every command a README shows can be typed as written from the repository
# root after scripts/setup. It does not run them (some need root, a kernel
# build or minutes); it checks that each one's first word resolves:
#   build/X     X is in the build folder (BUILD_DIR), or a target some
#               CMakeLists.txt declares with add_executable (not built here)
#   a/path      relative to the repository root, an executable file
#   /a/path     an executable file
#   $VAR/...    VAR set by an earlier line of the same block
#   word        a shell builtin or keyword, or a command on PATH that is
#               not one of this project's programs (those are build/X even
#               where the Install section's package put them on PATH)
# The convention it holds the READMEs to:
#   - commands live in ```sh blocks, one command line each (a trailing \
#     continues it), without a prompt: no "$ " (a line starting with # is a
#     shell comment, so say "as root" in words);
#   - every fenced block is labelled: ```sh for commands, ```text for
#     output and usage synopses (anything else is not read);
#   - each command of a line (after &&, ||, ;, |, ( and $( ) is checked.
# It first checks itself on made-up blocks: `knotif-stress --targets=1`
# (bare, installed or not) must fail, `build/knotif-stress --targets=1` must
# pass, a bare word on no PATH must fail.
# usage: readme_commands.sh [BUILD_DIR]   (default: build/ of the repository;
#        VERBOSE=1 lists every word checked)
set -euo pipefail
. "$(dirname "$0")/testlib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
PY=/usr/bin/python3
[ -x "$PY" ] || skip "$PY not installed (Debian package python3)"

# the READMEs: every one git tracks, else every one in the tree but build
# folders and kernel trees
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	mapfile -t readmes < <(git -C "$ROOT" ls-files -- 'README.md' '*/README.md')
else
	mapfile -t readmes < <(cd "$ROOT" && find . -mindepth 1 \( -name 'build*' -o -name '.*' -o -name 'linux-*' \) -prune -o \
		-name README.md -print | sed 's|^\./||' | sort)
fi
((${#readmes[@]})) || fail "no README.md found under $ROOT"

# what bash itself resolves, whatever PATH holds
builtins=$(compgen -b -k | sort -u | tr '\n' ' ')

cd "$ROOT"
KNOTIF_BUILTINS=$builtins "$PY" - "$ROOT" "$BUILD" "${readmes[@]}" <<'PY'
import glob
import os
import re
import shlex
import shutil
import sys

ROOT, BUILD, READMES = sys.argv[1], sys.argv[2], sys.argv[3:]
BUILTINS = set(os.environ["KNOTIF_BUILTINS"].split())
VERBOSE = os.environ.get("VERBOSE", "") not in ("", "0")  # every word checked, and its verdict
COMMAND_LABELS = {"sh", "bash", "shell"}
# after one of these tokens a new command starts
SEPARATORS = {"&&", "||", ";", "|", "&", "(", ")", ";;", "|&", "$(", "{", "}"}
# a reserved word that the next word is the command of
PREFIX_WORDS = {"if", "then", "else", "elif", "while", "until", "do", "!", "time"}
ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^`\s]*)")
HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
VARREF = re.compile(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")


def declared_targets():
    names = set()
    for path in glob.glob(os.path.join(ROOT, "**", "CMakeLists.txt"), recursive=True):
        rel = os.path.relpath(path, ROOT)
        if rel.startswith("build") or "/build" in rel:
            continue
        with open(path, errors="replace") as f:
            names.update(re.findall(r"add_executable\(\s*([A-Za-z0-9_.+-]+)\s", f.read()))
    return names


TARGETS = declared_targets()
BUILD_OK = os.path.isdir(BUILD)


def resolve(word, assigned):
    """None when WORD, a command's first word, resolves; else why not."""
    if word.startswith("$"):
        m = VARREF.match(word)
        if m and m.group(1) in assigned:
            return None
        return "uses %s, which no earlier line of the block sets" % (m.group(0) if m else word)
    if word.startswith("~"):
        return "a path in someone's home: write it from the repository root"
    if word.startswith("build/"):
        rest = word[len("build/"):]
        path = os.path.join(BUILD, rest)
        if BUILD_OK and os.path.isfile(path) and os.access(path, os.X_OK):
            return None
        if rest in TARGETS:
            return None  # declared, not built here (knotif-trace needs BTF, ...)
        return "%s is not a program in %s nor a target any CMakeLists.txt declares" % (rest, BUILD)
    if "/" in word:
        path = word if word.startswith("/") else os.path.join(ROOT, word)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return None
        return "no executable file %s%s" % (word, "" if word.startswith("/") else " under the repository root")
    if word in TARGETS:
        # knotif's own program: the README means this checkout's build, whatever
        # an installed knotif (the Install section's) puts on PATH
        return "a program of this project: write build/%s (an installed copy need not be this version)" % word
    if word in BUILTINS or shutil.which(word):
        return None
    return "not a shell builtin and not on PATH"


def commands(line):
    """The first word of every command on a shell line, and the variables it sets."""
    lex = shlex.shlex(line, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    lex.commenters = "#"
    tokens = list(lex)
    firsts, sets, start = [], [], True
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        # "$(" arrives as a word ending in "$" and a "(": a command starts after it
        if tok in SEPARATORS or tok.endswith("$"):
            if tok.endswith("$") and tok not in SEPARATORS:
                m = ASSIGN.match(tok)
                if m and start:
                    sets.append(m.group(1))
            start = True
        elif start:
            m = ASSIGN.match(tok)
            if m:
                sets.append(m.group(1))
            elif tok in ("export", "readonly", "local", "declare"):
                for t in tokens[i + 1:]:
                    if t in SEPARATORS:
                        break
                    m = ASSIGN.match(t)
                    if m:
                        sets.append(m.group(1))
                firsts.append(tok)
                start = False
            elif tok in ("for", "read"):  # for VAR in ...; read VAR
                if i + 1 < len(tokens):
                    sets.append(tokens[i + 1])
                firsts.append(tok)
                start = False
            elif tok in PREFIX_WORDS:
                firsts.append(tok)
            elif re.match(r"^[0-9]*[<>]", tok):  # a redirection before the command
                i += 1
            else:
                firsts.append(tok)
                start = False
        elif re.match(r"^[0-9]*[<>]&?$", tok):
            i += 1  # its target is no command
        i += 1
    return firsts, sets


def check(name, text):
    """Problems of one README's fenced blocks: [(line, message)], and the count checked."""
    problems, checked = [], 0
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, label, opened = m.group(2), m.group(3).lower(), i + 1
        body = []
        i += 1
        while i < len(lines) and not re.match(r"^\s*" + re.escape(fence[0]) + "{%d,}\\s*$" % len(fence), lines[i]):
            body.append((i + 1, lines[i]))
            i += 1
        i += 1
        if i > len(lines):
            problems.append((opened, "a fenced block that never closes"))
        for num, raw in body:
            if re.match(r"^\s*\$ ", raw):
                problems.append((num, "a prompt ($ ): a ```sh block holds the commands alone: " + raw.strip()))
        if not label:
            problems.append((opened, "an unlabelled block: ```sh for commands, ```text for output or a synopsis"))
            continue
        if label not in COMMAND_LABELS:
            continue
        assigned, pending, heredoc = set(), "", None
        for num, raw in body:
            if heredoc:
                if raw.strip() == heredoc:
                    heredoc = None
                continue
            line = pending + raw
            if line.rstrip().endswith("\\"):
                pending = line.rstrip()[:-1] + " "
                continue
            if not line.strip() or line.lstrip().startswith("#"):
                pending = ""
                continue
            try:
                firsts, sets = commands(line)
            except ValueError:  # a quote that a later line closes
                pending = line + "\n"
                continue
            pending = ""
            h = HEREDOC.search(line)
            if h:
                heredoc = h.group(2)
            for word in firsts:
                checked += 1
                why = resolve(word, assigned)
                if VERBOSE and name != "selftest":
                    print("%s:%d: %s: %s" % (name, num, word, why or "ok"))
                if why:
                    problems.append((num, "`%s`: %s: %s" % (word, why, line.strip())))
            assigned.update(sets)
        if pending:
            problems.append((body[-1][0] if body else opened, "a command line that never ends (quote or \\)"))
    return problems, checked


# the check checks itself first: a command that is not on PATH must fail
selftest = {
    "```sh\nknotif-stress --targets=1\n```\n": False,
    "```sh\nknotif-no-such-command-7f3a --x\n```\n": False,
    "```sh\nbuild/knotif-stress --targets=1\n```\n": True,
    "```sh\n$ build/knotif-stress --targets=1\n```\n": False,
    "```\nbuild/knotif-stress --targets=1\n```\n": False,
    "```text\nknotif-stress [--targets=LIST]\n```\n": True,
    "```sh\nmkdir -p /tmp/x && knotif-bench\n```\n": False,
    "```sh\nx=$(knotif-history list)\n```\n": False,
    "```sh\nd=/tmp\n\"$d/initdb\" -D x\n\"$e/initdb\" -D x\n```\n": False,
    "```sh\nd=/tmp\n\"$d/initdb\" -D x\n(cd /tmp && ls *.c > series)  # ok\n```\n": True,
}
for text, ok in selftest.items():
    got = not check("selftest", text)[0]
    if got != ok:
        print("FAIL: the check itself: %r %s" % (text, "failed" if ok else "passed"))
        sys.exit(1)

failed, total, blocks = 0, 0, 0
for name in READMES:
    if not os.path.exists(os.path.join(ROOT, name)):
        continue  # tracked, deleted in this work tree
    with open(os.path.join(ROOT, name), errors="replace") as f:
        text = f.read()
    problems, checked = check(name, text)
    total += checked
    for num, msg in problems:
        print("%s:%d: %s" % (name, num, msg))
    failed += len(problems)
if not BUILD_OK:
    print("note: no build folder %s: build/X checked against the targets CMakeLists.txt declares" % BUILD)
if failed:
    print("FAIL: %d problem(s) in the READMEs' fenced blocks (the convention: scripts/tests/readme_commands.sh)"
          % failed)
    sys.exit(1)
print("ok: %d commands in the ```sh blocks of %d READMEs resolve from the repository root" % (total, len(READMES)))
PY
