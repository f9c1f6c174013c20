#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Write a large result file shaped like a real one, for knotif-compare's
memory test and its measurements: TEMPLATE's context and first iteration row
(every key a real row carries), repeated REPS times for each of NAMES
benchmark names, p50/floor_ratio drawn from a seeded generator. Rows are
written one at a time, so the writer's own memory stays small.

Usage: synthetic-run.py TEMPLATE.json NAMES REPS SEED OUT.json"""
import json
import random
import sys


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__.split("\n\n")[1])
    template, names, reps, seed, out = sys.argv[1:]
    names, reps = int(names), int(reps)
    with open(template) as f:
        doc = json.load(f)
    row = next(r for r in doc["benchmarks"] if r.get("run_type") == "iteration")
    rng = random.Random(int(seed))
    with open(out, "w") as f:
        f.write('{"context": %s,\n"benchmarks": [\n' % json.dumps(doc["context"]))
        sep = ""
        for n in range(names):
            name = "synthetic/%d/placement:same" % n
            for r in range(reps):
                p50 = rng.uniform(900, 1100)
                row.update(name=name, run_name=name, repetitions=reps, repetition_index=r,
                           p50=p50, real_time=p50 * 1.05, cpu_time=p50 * 1.08,
                           floor_ratio=p50 / 11000)
                f.write(sep + json.dumps(row))
                sep = ",\n"
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
