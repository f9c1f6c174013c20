#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""knotif-compare reads result files as a stream (yajl), knotif-history
reads them whole (jansson): both must accept the same files with the same
content and refuse the same files with the same message. Hand-made cases
for every check jansson makes that yajl does not, then seeded byte-level
mutations of a real run (deleted, inserted, replaced, repeated bytes; cut
short), all given to readers-agree in one call. Under the asan preset this
is also the stream reader's sanitizer run.

One disagreement is jansson's, and allowed: a raw NUL byte right after a
number is dropped by jansson's reader (it ungets the NUL, then reads past
it), so "0\0," loads; yajl refuses it, as RFC 8259 does.

Usage: readers-agree.py READERS_AGREE TEMPLATE.json   Exit 0/1."""
import json
import os
import random
import subprocess
import sys
import tempfile

from testlib import check, fail, failures, finish, soft_fail

MUTATIONS = 3000
SEED = 14
# bytes a mutation inserts: mostly JSON's own, so many mutants stay parseable
ALPHABET = b'{}[]":,\\ \n0123456789.eE-+tfnulrsaxu' + bytes([0, 0x7f, 0xc3, 0xff])


def handmade(small):
    """(name, bytes) pairs: what each reader must refuse or read alike"""
    row = json.dumps(small["benchmarks"][0])
    ctx = json.dumps(small["context"])
    cases = {
        "empty": "",
        "whitespace": " \n ",
        "scalar top level": '"x"',
        "number top level": "1",
        "array top level": "[1, 2]",
        "object without benchmarks": '{"context": %s}' % ctx,
        "benchmarks an object": '{"benchmarks": {}}',
        "benchmarks a string": '{"benchmarks": "x"}',
        "no context": '{"benchmarks": [%s]}' % row,
        "context an array": '{"context": [1], "benchmarks": [%s]}' % row,
        "context after benchmarks": '{"benchmarks": [%s], "context": %s}' % (row, ctx),
        "empty benchmarks": '{"benchmarks": []}',
        "row not an object": '{"benchmarks": [%s, 1]}' % row,
        "row without name": '{"benchmarks": [%s, {"run_type": "iteration"}]}' % row,
        "name not a string": '{"benchmarks": [{"name": 1}]}',
        "bad row, then bad JSON": '{"benchmarks": [{"x": 1}], "y": tru}',
        "bad row, then a duplicate key": '{"benchmarks": [{"x": 1}], "benchmarks": []}',
        "duplicate top-level key": '{"benchmarks": [], "benchmarks": []}',
        "duplicate context": '{"context": {}, "benchmarks": [], "context": {}}',
        "duplicate key in a row": '{"benchmarks": [{"name": "a", "name": "b"}]}',
        "duplicate key deep": '{"x": {"y": [{"z": 1, "z": 2}]}, "benchmarks": []}',
        "NUL in a string": '{"benchmarks": [{"name": "a\\u0000b"}]}',
        "NUL in a key": '{"benchmarks": [{"na\\u0000me": "a"}]}',
        "lone low surrogate": '{"benchmarks": [{"name": "\\udc00"}]}',
        "surrogate pair": '{"benchmarks": [{"name": "\\ud83d\\ude00"}]}',
        "escaped name": '{"benchmarks": [{"name": "a\\n\\"\\u00e9\\t"}]}',
        "raw control character": '{"benchmarks": [{"name": "a\x01b"}]}',
        "integer beyond int64": '{"benchmarks": [{"name": "a", "p50": 9223372036854775808}]}',
        "negative integer beyond int64": '{"benchmarks": [{"name": "a", "p50": -9223372036854775809}]}',
        "int64 extremes": '{"benchmarks": [{"name": "a", "p50": -9223372036854775808, "p99": 9223372036854775807}]}',
        "real overflow": '{"benchmarks": [{"name": "a", "p50": 1e400}]}',
        "real underflow": '{"benchmarks": [{"name": "a", "p50": 1e-400}]}',
        "exponent without fraction": '{"benchmarks": [{"name": "a", "p50": 1E3, "p99": -0}]}',
        "leading zero": '{"benchmarks": [{"name": "a", "p50": 01}]}',
        "nested 2048": '{"x": %s, "benchmarks": []}' % ("[" * 2047 + "]" * 2047),
        "nested 2049": '{"x": %s, "benchmarks": []}' % ("[" * 2048 + "]" * 2048),
        "nested 100000": "[" * 100000,
        "trailing garbage": '{"benchmarks": []} x',
        "two documents": '{"benchmarks": []} {}',
        "trailing comma": '{"benchmarks": [],}',
        "comment": '{"benchmarks": [] /* no */}',
        "single quotes": "{'benchmarks': []}",
        "NaN": '{"benchmarks": [{"name": "a", "p50": NaN}]}',
        "error row": '{"benchmarks": [{"name": "a", "error_occurred": true, "error_message": "unsupported: x"}]}',
        "error row without message": '{"benchmarks": [{"name": "a", "error_occurred": true}]}',
        "aggregate rows only": '{"benchmarks": [{"name": "a_mean", "run_type": "aggregate"}]}',
        "time unit us": '{"benchmarks": [{"name": "a", "real_time": 1.5, "cpu_time": 2, "time_unit": "us"}]}',
        "icount spelling": '{"benchmarks": [{"name": "a", "p50_ns": 1, "p99_ns": 2}]}',
    }
    out = [(k, v.encode()) for k, v in cases.items()]
    out.append(("invalid UTF-8", b'{"benchmarks": [{"name": "a\xff"}]}'))
    out.append(("overlong UTF-8", b'{"benchmarks": [{"name": "a\xc0\xaf"}]}'))
    out.append(("UTF-8 BOM", b'\xef\xbb\xbf{"benchmarks": []}'))
    return out


def mutate(rng, doc):
    b = bytearray(doc)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        at = rng.randrange(len(b) + 1)
        op = rng.randrange(6)
        if op == 0 and at < len(b):
            del b[at]
        elif op == 1:
            b[at:at] = bytes([rng.choice(ALPHABET)])
        elif op == 2 and at < len(b):
            b[at] = rng.choice(ALPHABET)
        elif op == 3:
            n = rng.randrange(1, 40)
            b[at:at] = b[at:at + n]
        elif op == 4:
            del b[at:]
        else:
            b[at:at] = rng.choice((b'"name": "x", ', b'{}', b'[]', b'"\\u0000"', b'1e999', b'"\\ud800"'))
    return bytes(b)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    checker, template = sys.argv[1:]
    with open(template) as f:
        doc = json.load(f)
    small = {"context": doc["context"],
             "benchmarks": [r for r in doc["benchmarks"] if r.get("run_type") == "iteration"][:3]
             + [r for r in doc["benchmarks"] if r.get("run_type") == "aggregate"][:1]}
    rng = random.Random(SEED)
    base = json.dumps(small, indent=1).encode()
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, (name, data) in enumerate(handmade(small) + [("template", base)]):
            paths.append(os.path.join(tmp, "case-%02d-%s.json" % (i, name.replace(" ", "-"))))
            with open(paths[-1], "wb") as f:
                f.write(data)
        for i in range(MUTATIONS):
            paths.append(os.path.join(tmp, "mutant-%04d.json" % i))
            with open(paths[-1], "wb") as f:
                f.write(mutate(rng, base))
        run = subprocess.run([checker] + paths, capture_output=True, text=True, timeout=300)
        print(run.stderr, end="", file=sys.stderr)
        check(run.returncode in (0, 1), "readers-agree exited %d" % run.returncode)
        for line in run.stdout.splitlines()[:-1]:
            path, what = line.split(": ", 1)
            with open(path, "rb") as f:
                raw_nul = b"\0" in f.read()
            if raw_nul and what.startswith("only the whole-document load reads it"):
                print("allowed (a raw NUL jansson drops): " + line)
            else:
                soft_fail(line)
        if not run.stdout:
            fail("readers-agree printed nothing")
        print(run.stdout.splitlines()[-1])
        if not failures:
            # both kinds must occur, or the mutations tested nothing
            summary = run.stdout.splitlines()[-1].split()
            read, refused = int(summary[2]), int(summary[4])
            check(read >= MUTATIONS // 10 and refused >= MUTATIONS // 10,
                  "too one-sided a mix to test anything: %d read, %d refused" % (read, refused))
    finish()


if __name__ == "__main__":
    main()
