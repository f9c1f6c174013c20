#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""matrix-explain.py: why the matrix's rows differ between kernels, from the runs.

Reads vm-matrix's matrix.json (p50, context switches and preemptions per
round trip, modes) and vm-profile's per-benchmark profiles (PROFILES/<kernel>/
<bench>.json: one round trip's instructions by kernel function, the floor's
taken out) and writes OUT.md, each question answered by the numbers that
answer it, and OUT.json with those numbers. Nothing here is typed in by hand:
every figure comes from the two inputs; the text around them only names what
the figures are.

Functions are grouped by name (symgroups.py): what a context switch and the
scheduler's accounting cost, the system-call entry and exit with the
mitigations a distribution turns on, seccomp and its filter (the BPF JIT's
programs), user space (both processes, the harness's untimed part included),
and the rest of the kernel.

OUT-summary.md (beside OUT.md) holds one generated line per comparison, for
the README: the ratio, the switches, and the group holding most of the
difference.

The kernels come from kernel/debian-images.txt (--images=FILE: another list),
nowhere else: knotif's stock build and every Debian image marked EXPLAIN yes,
newest version first and a version's generic image before its flavours. Each
comparison takes the kernels that fit it, and only the methods both of its
kernels support (a row matrix.json says is unsupported is left out): ADDFD and
sync mode on every kernel; each flavour against the generic image of its ABI
(the flavour is in the package's name: linux-image-ABI-FLAVOUR-amd64-unsigned);
one generic image per version (the newest pinned) against the version before;
and the generic image of knotif's version against knotif's tinyconfig build.
--methods prints the methods it explains, the ones vm-explain profiles;
--kernels prints the kernels, the ones vm-explain profiles (with MATRIX.json:
and fails, before anything is profiled, where the matrix lacks one of them).

Usage: matrix-explain.py [--images=FILE] MATRIX.json PROFILES_DIR OUT.md OUT.json
       matrix-explain.py [--images=FILE] --kernels [MATRIX.json]
       matrix-explain.py --methods"""
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from symgroups import NAMES as GROUP_NAMES, OTHER_FUNCTIONS  # noqa: E402  (this directory)

TOP = 8
IMAGES = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "debian-images.txt"))
STOCK = "knotif-stock"
METHODS = ("null", "unotif/async/emulate", "unotif/async/addfd", "unotif/sync/emulate", "unotif/sync/addfd",
           "ptrace-seccomp/emulate")
# a Debian image's package: linux-image-<ABI>-[<FLAVOUR>-]amd64-unsigned (ABI 6.1.0-57, 6.12.118+deb12)
PACKAGE = re.compile(r"linux-image-(?P<abi>[0-9][^-]*(?:-[0-9][^-]*)?)-(?:(?P<flavour>[a-z][a-z0-9]*)-)?amd64-unsigned")
# a kernel's own version at the start of a string (6.12.118-1~deb12u1, 6.12.118+deb12)
VERSION = re.compile(r"[0-9]+(?:\.[0-9]+)*")
# a flavour's name in the text, where it is not the flavour itself
FLAVOURS = {"rt": "PREEMPT_RT"}
# the question of a version step, where the two images have more to say than the
# generic sentence (matrix-explain's own prose, by the images' names)
STEP_QUESTIONS = {
    ("debian-6.1", "debian-6.12"): "What changed between Debian 12's default kernel and its 6.12 backport, per method "
                                   "(6.1 has no sync wake-up: 6.6 added it). A 6.1 row with modes compares its median "
                                   "repetition.",
}


class Image:
    """one line of kernel/debian-images.txt"""
    def __init__(self, path, n, line):
        fields = line.split()
        if len(fields) != 5 or fields[4] not in ("yes", "no"):
            sys.exit(f"{path}:{n}: not NAME PACKAGE VERSION SHA256 EXPLAIN (yes or no): {line.strip()}")
        self.name, self.package, self.version, _, explain = fields
        self.explain = explain == "yes"
        up = VERSION.match(self.version)
        m = PACKAGE.fullmatch(self.package)
        if self.explain and (m is None or up is None):
            sys.exit(f"{path}:{n}: {self.name}: to be explained, a package linux-image-ABI-[FLAVOUR-]amd64-unsigned "
                     f"and a version that starts with the kernel's (6.12.118-1~deb12u1): {self.package} {self.version}")
        self.abi, self.flavour = (m["abi"], m["flavour"]) if m else (None, None)
        self.upstream = up[0] if up else self.version
        self.key = tuple(int(x) for x in self.upstream.split(".")) if up else ()
        self.series = ".".join(self.upstream.split(".")[:2])


def explained(path):
    """the Debian images vm-explain profiles and the comparisons take: EXPLAIN yes,
    newest version first, a version's generic image before its flavours, then
    the file's order"""
    with open(path) as f:
        images = [Image(path, n, line) for n, line in enumerate(f, 1) if line.strip() and not line.startswith("#")]
    return sorted((i for i in images if i.explain), key=lambda i: (i.key, i.flavour is None), reverse=True)


def kernel_names(images):
    """the kernels explained: knotif's stock build, then the images"""
    return [STOCK] + [i.name for i in images]


class Data:
    def __init__(self, matrix_path, profiles):
        with open(matrix_path) as f:
            doc = json.load(f)
        self.date = doc["context"].get("date", "?")
        self.rows = {(b["run_name"], b["kernel"]): b for b in doc["benchmarks"]}
        self.profiles = profiles
        self.used = {}

    def row(self, bench, kernel):
        return self.rows.get((bench + "/placement:same", kernel))

    def has(self, kernel):
        return any(k == kernel for _, k in self.rows)

    def supported(self, bench, kernel):
        """not a row the guest said is unsupported (a missing row is a gap, shown as such)"""
        r = self.row(bench, kernel)
        return r is None or not r.get("error_occurred") or not r.get("error_message", "").startswith("unsupported")

    def version(self, kernel):
        """the kernel's own version (uname -r's first part) as its matrix rows give it"""
        r = next((b for (_, k), b in self.rows.items() if k == kernel), None)
        m = VERSION.match(r.get("kernel_version", "")) if r else None
        return m[0] if m else None

    def p50(self, bench, kernel):
        r = self.row(bench, kernel)
        return None if r is None or r.get("error_occurred") else r["p50"]

    def profile(self, bench, kernel):
        path = os.path.join(self.profiles, kernel, bench.replace("/", "-") + ".json")
        if not os.path.exists(path):
            return None
        with open(path) as f:
            doc = json.load(f)
        if "error" in doc:
            return None
        self.used[f"{kernel}/{bench}"] = {k: doc[k] for k in ("p50", "ctx_switches_per_op", "preemptions_per_op",
                                                               "round_trips", "profile_total")}
        return doc


def fmt(v, sign=False):
    if v is None:
        return "—"
    return f"{v:+,.0f}" if sign else f"{v:,.0f}"


def counters(r):
    if r is None or r.get("error_occurred"):
        return "—", "—"
    cs, pre = r.get("ctx_switches_per_op"), r.get("preemptions_per_op")
    return (f"{cs:.2f}" if cs is not None else "—"), (f"{pre:.2f}" if pre is not None else "—")


def compare(data, out, summary, key, title, question, pairs):
    """pairs: [(label, (bench, kernel) A, (bench, kernel) B)]: B against A, by p50,
    by switches, and by the profile's groups and functions"""
    TITLES[key] = title
    out += [f"## {title}", "", question, ""]
    out.append("| | A: p50 | B: p50 | B / A | switches A → B | preemptions A → B |")
    out.append("|---|---:|---:|---:|---:|---:|")
    summary[key] = []
    for label, a, b in pairs:
        pa, pb = data.p50(*a), data.p50(*b)
        ca, pra = counters(data.row(*a))
        cb, prb = counters(data.row(*b))
        ratio = f"{pb / pa:.2f}×" if pa and pb else "—"
        out.append(f"| {label} | {fmt(pa)} | {fmt(pb)} | {ratio} | {ca} → {cb} | {pra} → {prb} |")
        summary[key].append({"label": label, "a": list(a), "b": list(b), "p50_a": pa, "p50_b": pb,
                             "switches": [ca, cb], "preemptions": [pra, prb]})
    out.append("")
    profiled = [(label, a, b, data.profile(*a), data.profile(*b)) for label, a, b in pairs]
    profiled = [p for p in profiled if p[3] is not None and p[4] is not None]
    if not profiled:
        out += ["(no profile of these runs: `make -f Makefile.kernel vm-explain`)", ""]
        return
    out.append("Where B's extra instructions go, per round trip (vm-profile; B − A by group). The "
               "profiled runs are runs of their own and may take another mix of paths than the matrix's: "
               "their p50, switches and preemptions come first.")
    out.append("")
    out.append("| | profiled runs: p50 A → B (switches, preemptions) | " + " | ".join(GROUP_NAMES) + " | total |")
    out.append("|---|---|" + "---:|" * (len(GROUP_NAMES) + 1))
    for label, a, b, da, db in profiled:
        delta = {g: db["groups"][g] - da["groups"][g] for g in GROUP_NAMES}
        runs = (f"{fmt(da['p50'])} → {fmt(db['p50'])} ({da['ctx_switches_per_op']:.2f} → "
                f"{db['ctx_switches_per_op']:.2f}, {da['preemptions_per_op']:.2f} → {db['preemptions_per_op']:.2f})")
        out.append(f"| {label} | {runs} | " + " | ".join(fmt(delta[g], True) for g in GROUP_NAMES) +
                   f" | {fmt(sum(delta.values()), True)} |")
        # by name: the functions both profiles kept (each keeps its largest)
        pa, pb = da["instructions_per_round_trip"], db["instructions_per_round_trip"]
        syms = {s: pb.get(s, 0) - pa.get(s, 0) for s in set(pa) | set(pb) if s != OTHER_FUNCTIONS}
        top = sorted(syms.items(), key=lambda kv: (-abs(round(kv[1], 1)), kv[0]))[:TOP]
        for entry in summary[key]:
            if entry["label"] == label:
                entry["groups_b_minus_a"] = delta
                entry["top_functions_b_minus_a"] = dict(top)
                entry["profiled_p50"] = [da["p50"], db["p50"]]
                entry["profiled_switches"] = [da["ctx_switches_per_op"], db["ctx_switches_per_op"]]
    out.append("")
    for label, a, b, pa, pb in profiled:
        entry = next(e for e in summary[key] if e["label"] == label)
        funcs = ", ".join(f"`{s}` {fmt(v, True)}" for s, v in entry["top_functions_b_minus_a"].items())
        out.append(f"- {label}, the functions that moved most: {funcs}")
    out.append("")


TITLES = {}


def summary_lines(summary):
    """one generated line per comparison: B/A, the switches, and where most of
    the difference is (the group with the largest share of it, by the profile)"""
    lines = []
    for key, title in TITLES.items():
        parts = []
        for e in summary.get(key, []):
            if not e["p50_a"] or not e["p50_b"]:
                continue
            part = f"{e['label']} {e['p50_b'] / e['p50_a']:.2f}× ({e['switches'][0]} → {e['switches'][1]} switches"
            groups = e.get("groups_b_minus_a")
            total = sum(groups.values()) if groups else 0
            if groups:
                pp, ps = e["profiled_p50"], e["profiled_switches"]
                part += f"; profiled runs {pp[1] / pp[0]:.2f}× at {ps[0]:.2f} → {ps[1]:.2f} switches"
                if abs(total) >= 50:
                    g, v = max(groups.items(), key=lambda kv: abs(kv[1]))
                    part += f", {v / total:.0%} of their {total:+,.0f} in {g}"
            parts.append(part + ")")
        if parts:
            lines.append(f"- **{title}**: " + "; ".join(parts) + ".")
    modes = summary.get("modes", [])
    if modes:
        strong = [m for m in modes if m["correlation"] is not None and abs(m["correlation"]) >= 0.9]
        lines.append(f"- **Modes**: {len(modes)} rows' repetitions disagree (a †); in {len(strong)} of them the share "
                     "of slow round trips follows the preemptions repetition by repetition (|r| ≥ 0.9: "
                     + ", ".join(f"{m['kernel']} `{m['benchmark'].split('/placement')[0]}` {m['correlation']:+.2f}"
                                 for m in strong) + ").")
    return lines


def modes(data, out, summary):
    """every row with two modes or more: does the slowest mode's share follow the
    preemptions, repetition by repetition?"""
    out += ["## The modes behind a †", "",
            "A row's repetitions disagree (cv over 0.5 %) when its round trips split between paths in other shares "
            "(matrix.md lists each mode). Per repetition, the share of round trips on a slow path (10 % "
            "or more over the row's fastest mode) beside the preemptions per round trip; r is their "
            "correlation over the row's repetitions (near −1: the round trips that are not preempted take "
            "the slow path; near +1: the preempted ones do; none: the preemptions do not move). Five "
            "repetitions in two groups give an r near ±1 whenever both move, so the last column is the "
            "stronger sign: slow share + preemptions, which stays at 1.00 when every round trip that is not "
            "preempted, and only those, takes the slow path:", ""]
    out.append("| kernel | benchmark | modes | r | slow share / preemptions (per repetition) | slow + preemptions |")
    out.append("|---|---|---|---:|---|---|")
    summary["modes"] = []
    for (name, kernel), r in sorted(data.rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        shares, pre = r.get("slow_share_repetitions"), r.get("preemptions_per_op_repetitions")
        if not shares or not pre or len(r.get("modes", [])) < 2 or r.get("cv_percent", 0) <= 0.5:
            continue
        corr = None
        if len(set(shares)) > 1 and len(set(pre)) > 1:
            corr = statistics.correlation(shares, pre)
        ms = ", ".join(f"{m['instructions']:,} ({m['share']:.0%})" for m in r["modes"])
        out.append(f"| {kernel} | `{name}` | {ms} | {'—' if corr is None else f'{corr:+.2f}'} | "
                   + " · ".join(f"{s:.0%}/{p:.2f}" for s, p in zip(shares, pre)) + " | "
                   + " · ".join(f"{s + p:.2f}" for s, p in zip(shares, pre)) + " |")
        summary["modes"].append({"kernel": kernel, "benchmark": name, "modes": r["modes"],
                                 "correlation": corr, "slow_share": shares, "preemptions_per_op": pre})
    out.append("")


def comparisons(data, images, sw):
    """(key, title, question, pairs) of every comparison, from the images
    debian-images.txt explains and what each kernel supports"""
    def pairs(items):
        return [(label, a, b) for label, a, b in items if data.supported(*a) and data.supported(*b)]

    kernels = kernel_names(images)
    generic = [i for i in images if i.flavour is None]
    out = [("addfd", "ADDFD against a plain reply",
            "What ADDFD (install a descriptor in the target, then reply) costs beyond a plain reply, and why "
            f"that differs between kernels. {sw}",
            pairs((f"async, {k}" + (" (tinyconfig)" if k == STOCK else ""), ("unotif/async/emulate", k),
                   ("unotif/async/addfd", k)) for k in kernels)),
           ("sync_addfd", "Sync-mode ADDFD against async",
            "What ADDFD costs in sync wake-up mode (`SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP`, sold as the fast "
            f"one) against async mode, kernel by kernel. {sw}",
            pairs((k, ("unotif/async/addfd", k), ("unotif/sync/addfd", k)) for k in kernels)),
           ("sync_emulate", "Sync-mode emulate against async",
            f"What sync wake-up does to a plain reply. {sw}",
            pairs((k, ("unotif/async/emulate", k), ("unotif/sync/emulate", k)) for k in kernels))]
    # each flavour against the generic image of its ABI (a flavour seen again,
    # at an older ABI: its key and title carry the version)
    seen = set()
    for f in images:
        g = next((i for i in generic if i.abi == f.abi), None)
        if f.flavour is None or g is None:
            continue
        name = FLAVOURS.get(f.flavour, f.flavour)
        key, title = f.flavour, FLAVOURS.get(f.flavour, f"Debian's {f.flavour} flavour")
        if key in seen:
            key, title = f"{key}_{f.series}", f"{title}, {f.series}"
        seen.add(key)
        out.append((key, title, f"What Debian's {name} image does to each method, against its generic image "
                    f"of the same version. {sw}", pairs((m, (m, g.name), (m, f.name)) for m in METHODS)))
    # one generic image per version (the newest pinned), each against the one before
    newest = {}
    for i in generic:
        newest.setdefault(i.series, i)
    steps = sorted(newest.values(), key=lambda i: i.key)
    for a, b in zip(steps, steps[1:]):
        question = STEP_QUESTIONS.get((a.name, b.name), f"What changed between Debian's {a.series} and {b.series} "
                                      "generic images, per method. A row with modes compares its median repetition.")
        out.append((f"v{a.series.replace('.', '')}_v{b.series.replace('.', '')}", f"Debian {a.series} → {b.series}",
                    f"{question} {sw}", pairs((m, (m, a.name), (m, b.name)) for m in METHODS)))
    # the generic image of knotif's version (that version, else that series, else the newest)
    v = data.version(STOCK)
    d = (next((i for i in generic if i.upstream == v), None) or
         next((i for i in generic if i.series == ".".join((v or "").split(".")[:2])), None) or
         next(iter(generic), None))
    if d is not None:
        same = f"the same {v}" if d.upstream == v else f"{v or 'its tree'} (Debian's: {d.upstream})"
        out.append(("distro", "A distribution's kernel against tinyconfig",
                    "What each method pays on Debian's generic kernel against knotif's tinyconfig build of "
                    f"{same}: the preemption model (voluntary against none), hardening and the mitigations "
                    "(return thunks, entry trampolines) as TCG's `-cpu max` presents a CPU to them, and accounting "
                    f"(cgroups, PSI, audit). {sw}", pairs((m, (m, STOCK), (m, d.name)) for m in METHODS)))
    return out


def in_matrix(data, matrix, kernels, images_path):
    """every kernel to explain has its rows in the matrix"""
    missing = [k for k in kernels if not data.has(k)]
    if missing:
        sys.exit(f"matrix-explain: {matrix} has no rows of {', '.join(missing)} ({images_path} explains them: "
                 "make -f Makefile.kernel vm-matrix)")


def main():
    args = sys.argv[1:]
    images_path = IMAGES
    if args and args[0].startswith("--images="):
        images_path = args.pop(0).split("=", 1)[1]
    if args == ["--methods"]:
        print(" ".join(METHODS))
        return
    if args[:1] == ["--kernels"] and len(args) <= 2:
        kernels = kernel_names(explained(images_path))
        if len(args) == 2:
            in_matrix(Data(args[1], None), args[1], kernels, images_path)
        print(" ".join(kernels))
        return
    if len(args) != 4:
        sys.exit(__doc__.split("\n\n")[-1])
    matrix, profiles, out_md, out_json = args
    data = Data(matrix, profiles)
    images = explained(images_path)
    in_matrix(data, matrix, kernel_names(images), images_path)
    out = ["<!-- SPDX-License-Identifier: GPL-2.0 -->",
           "# What the kernel matrix shows, measured",
           "",
           f"Produced by `make -f Makefile.kernel vm-explain` from `results/kernel/matrix.json` (vm-matrix, "
           f"{data.date[:10]}) and vm-profile's profiles (`results/kernel/profile/`); do not edit by hand. "
           "Each figure is instructions per round trip under `-icount` (one vCPU: target and supervisor "
           "share it). A profile is one benchmark's timed loop in one guest run (2,000 round trips, after the "
           "guest's boot work has settled): knotif-bench marks the loop, QEMU's tbcount plugin counts the "
           "instructions of each translated block inside the marks, and they are summed per kernel function "
           "(the running kernel's /proc/kallsyms) over the round trips. The loop holds each call's checks "
           "too (ADDFD's fstat and close of the descriptor it got), so a profile's total exceeds the p50, "
           "and a run's profile is its own mix of paths (its preemptions beside it); differences between "
           "kernels or methods compare like with like.",
           ""]
    summary = {}
    sw = ("Switches and preemptions are per round trip, target and supervisor together "
          "(procfs: every context switch, and the involuntary ones among them).")
    for key, title, question, pairs in comparisons(data, images, sw):
        if pairs:
            compare(data, out, summary, key, title, question, pairs)
    modes(data, out, summary)
    out += ["## What `-icount` cannot show", "",
            "Instructions are not cycles. A serialising or microcoded instruction (a CR3 write when page-table "
            "isolation switches address spaces, `verw` clearing CPU buffers, an indirect-branch barrier, "
            "`swapgs`, `sysret`) counts as one, yet costs tens to hundreds of cycles on hardware; a cache "
            "or TLB miss costs nothing here. The other way, TCG counts a `rep`-prefixed string instruction "
            "once per element: a `memset` of a page by `rep stosb` (`memset_erms`, `clear_page_erms`) is "
            "thousands of instructions here and a few hundred cycles on hardware. So the mitigations' share above is their instruction count, a "
            "floor of their real cost, and which of them run depends on the CPU the guest is shown "
            "(`-cpu max`: TCG's model, not a real part's bugs). Cross-CPU effects need a second vCPU: with "
            "two, `-icount` counts both vCPUs' instructions in turn (`results/kernel/cross/`, kernel/README.md), "
            "but a wake-up IPI, an idle exit and a cache-line transfer cost nothing there. These "
            "figures rank code paths; hardware timings (knotif-bench on the host) rank machines.", ""]
    summary["profiles_used"] = data.used
    with open(out_md, "w") as f:
        f.write("\n".join(out))
    with open(out_json, "w") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")
    with open(os.path.splitext(out_md)[0] + "-summary.md", "w") as f:
        f.write("\n".join(summary_lines(summary)) + "\n")


if __name__ == "__main__":
    main()
