#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
Measures the tracers' own overhead into --out (results/trace/regen passes
results/trace/), and regenerates the example outputs beside the bpftrace
scripts in trace/.

Overhead: the same knotif-bench benchmarks, same placement, run untraced,
under the bpftrace proxy (knotif-phases.bt for unotif, knotif-ptrace.bt for
ptrace) and under knotif-trace, in ROUNDS interleaved rounds (the order
rotates each round) so that machine noise lands on every configuration
alike. Per round, each traced p50 is compared with the untraced p50 of the
same round: the cost per round trip (ns) is the median of the differences,
the overhead the median of the ratios, minus one. The same rounds also run
knotif-trace with each of its stock-kernel attachments alone
(--only-probes, same-CPU benchmarks), and with all of them but nothing
selected (-p 1: every probe leaves in its first instructions), to say which
attachment costs what. The load average is recorded before and after.

Writes OUT/overhead.json and overhead.md (scripts/readme-tables then
copies the table into the READMEs); with --examples also
trace/knotif-phases_example.txt, trace/knotif-ptrace_example.txt and
trace/knotif-trace_example.txt. With --before DIR, an older checkout built
in DIR/build: its bpftrace scripts and knotif-trace run as two more
configurations of the same rounds, and a third table says what changed (the
same cost rule). Needs root, a build in build/ (cmake --preset ci && cmake
--build build).

With --vm: the same comparison inside the patched kernel (kernel/patches,
built by Makefile.kernel) under QEMU with one vCPU and -icount, where time is
instructions executed: no noise, so one round says it; configurations
untraced, knotif-trace's done source and the tracepoint source (the default
before it), each unotif only, attached with nothing selected, and with its
programs empty, the tracepoint source with ptrace, and the sched source,
all in each round; then, once, each seccomp source's programs' own
instructions (--prog-stats). Writes OUT/overhead-vm.{json,md}.

With --vm-profile: in the same guest, one run of unotif/sync/emulate each
untraced and under the done and tracepoint sources, with QEMU's tbcount
plugin counting instructions by kernel function inside knotif-bench's timed
loop (as make -f Makefile.kernel vm-profile does): where the tracer's
instructions go, function by function. Writes OUT/profile-vm.{json,md}.

With --rewrite: measures nothing. Each .md in OUT is written again from the
.json beside it (overhead, overhead-vm, profile-vm: each that exists), by
the same code that writes it after a measurement, which reads nothing but
that .json.

usage: trace/scripts/overhead.py --out DIR [--rounds N] [--samples N] [--reps N] [--examples]
                                 [--build DIR] [--before DIR] [--vm] [--vm-profile] [--rewrite]
       results/trace/regen [the same, but --out]
"""
import argparse
import base64
import datetime
import gzip
import io
import json
import os
import platform
import re
import signal
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import gbrows  # noqa: E402

TRACE = os.path.join(ROOT, "trace")
UNOTIF = ["unotif/sync/emulate", "unotif/async/emulate"]
PTRACE = ["ptrace-seccomp/emulate"]
PLACEMENTS = ["same", "cross"]
# the host's second table: each attachment alone, all three, all three with nothing selected
ATTACH_NAMES = ["only sys_exit", "only sched_switch", "only sched_waking", "knotif-trace",
                "nothing selected"]
# Makefile.kernel's KNOTIF_CACHE unless set: the VM tables name the kernel image inside it
DEFAULT_CACHE = "/var/cache/knotif"
PROFILE_BENCH = "unotif/sync/emulate/placement:same"
PROFILE_ROWS = 16	# functions shown per source, by the size of their change
# profile-vm.md's row order (the JSON's keys are sorted)
PROFILE_CONFIGS = ["untraced", "done", "tracepoint"]


def die(msg):
    print(f"{os.path.basename(sys.argv[0])}: {msg}", file=sys.stderr)
    sys.exit(1)


OUR_PID = os.getpid()


def die_with_parent():
    """In a child before exec: SIGTERM when this program goes away, however it goes."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGTERM)	# PR_SET_PDEATHSIG
    if os.getppid() != OUR_PID:
        os._exit(1)	# we died before the prctl


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode:
        die(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stderr}")
    return p


def bench_args(bench, methods, out, samples, reps, placements=PLACEMENTS):
    names = "|".join(methods)
    return [bench, f"--benchmark_filter=^({names})/placement:({'|'.join(placements)})$",
            f"--placement={','.join(placements)}", f"--samples={samples}",
            f"--benchmark_repetitions={reps}", f"--benchmark_out={out}",
            "--benchmark_format=console"]


def p50s(doc):
    """{benchmark: p50 (median over repetitions)} of a knotif-bench document, floors left out."""
    rows, errors = gbrows.headline_rows(doc)
    for name, message in errors.items():
        die(f"{name}: {message}")
    return {name: row["p50"] for name, row in rows.items() if not gbrows.is_floor(row)}


def medians(path):
    d = gbrows.load(path)
    return p50s(d), d["context"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, metavar="DIR",
                    help="where overhead*.{json,md} and profile-vm.{json,md} go "
                         "(results/trace/regen: results/trace)")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--samples", type=int, default=5000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--examples", action="store_true", help="also rewrite trace/*_example.txt")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--before", metavar="DIR",
                    help="an older checkout, built in DIR/build: its tracers in the same rounds")
    ap.add_argument("--vm", action="store_true", help="the instruction-counted QEMU comparison instead")
    ap.add_argument("--vm-profile", action="store_true",
                    help="in the same guest, where a traced round trip's instructions go, by function")
    ap.add_argument("--rewrite", action="store_true",
                    help="measure nothing: write each .md in --out again from its .json")
    a = ap.parse_args()
    if a.rewrite:
        return rewrite(a.out)
    if a.vm_profile:
        return vm_profile(a)
    if a.vm:
        return vm_overhead(a)
    return host_overhead(a)


def rewrite(out):
    """--rewrite: each .md in out from the .json beside it."""
    written = 0
    for name, write_md in (("overhead", write_host_md), ("overhead-vm", write_vm_md),
                           ("profile-vm", write_profile_md)):
        src, md = (os.path.join(out, name + ext) for ext in (".json", ".md"))
        if not os.path.exists(src):
            continue
        try:
            with open(src) as f:
                write_md(json.load(f), md)
        except (OSError, ValueError) as e:
            die(f"{src}: {e}")
        except KeyError as e:
            die(f"{src}: no {e} in it (not a result this tool wrote?)")
        print(f"wrote {md}", file=sys.stderr)
        written += 1
    if not written:
        die(f"--rewrite: no overhead.json, overhead-vm.json or profile-vm.json in {out}")


def write_json(result, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(result, f, indent=2, sort_keys=True)
        f.write("\n")


def write_text(path, text):
    """The whole file at once: a writer that fails half-way leaves the old one as it was."""
    with open(path, "w") as f:
        f.write(text)


def save(result, out, name, write_md):
    """OUT/NAME.json and NAME.md from it, the table printed (scripts/readme-tables
    copies it into the READMEs)."""
    write_json(result, os.path.join(out, name + ".json"))
    md = os.path.join(out, name + ".md")
    write_md(result, md)
    print(open(md).read())


def host_overhead(a):
    """The host's rounds: overhead.{json,md}, with --examples the examples."""
    if os.geteuid() != 0:
        die("needs root (the tracers load BPF programs)")
    bench, kt = host_tools(a.build)
    before_kt, before_sha = before_tools(a.before) if a.before else (None, None)
    tmp = tempfile.mkdtemp(prefix="knotif-trace-regen.")
    # a name of our own, so the bpftrace filters see only this run
    link = os.path.join(tmp, f"ktregen{os.getpid()}"[:15])
    os.symlink(bench, link)
    comm = os.path.basename(link)
    configs = host_configs(a, bench, kt, link, comm, before_kt)
    load_before = os.getloadavg()
    rounds, context = host_rounds(configs, a.rounds, tmp)
    load_after = os.getloadavg()
    table, attachments, before = host_tables(rounds, bool(a.before))
    k = context["knotif"]
    result = {
        "schema_version": 2,
        "what": "tracer overhead: knotif-bench p50 traced - untraced (ns) and traced / untraced - 1, "
                "median over interleaved rounds",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host": platform.node(), "kernel_release": k["kernel_release"], "cpu_model": k["cpu_model"],
        "num_cpus": os.cpu_count(), "load_avg_before": load_before, "load_avg_after": load_after,
        "git_sha": k["git_sha"], "placements": k["placements"], "rounds": a.rounds,
        "samples_per_repetition": a.samples, "repetitions": a.reps,
        "command_line": sys.argv, "results": table, "attachments": attachments,
        "raw_rounds": rounds,
    }
    if a.before:
        result["before"] = {"dir": a.before, "git_sha": before_sha, "results": before}
    save(result, a.out, "overhead", write_host_md)
    if a.examples:
        write_examples(link, comm, kt, bench)


def host_tools(build):
    """knotif-bench and knotif-trace of the build: (bench, kt)."""
    bench = os.path.join(build, "knotif-bench")
    kt = os.path.join(build, "knotif-trace")
    for f in (bench, kt):
        if not os.access(f, os.X_OK):
            die(f"{f} missing: cmake --preset ci && cmake --build build")
    return bench, kt


def before_tools(before):
    """--before DIR: the older checkout's knotif-trace (its bpftrace scripts checked there too)
    and its git sha: (kt, sha)."""
    kt = os.path.join(before, "build", "knotif-trace")
    for f in [kt] + [os.path.join(before, "trace", s) for s in ("knotif-phases.bt", "knotif-ptrace.bt")]:
        if not os.access(f, os.R_OK):
            die(f"--before {before}: {f} missing (a checkout, built in its build/)")
    sha = subprocess.run(["git", "-C", before, "rev-parse", "--short=12", "HEAD"],
                         capture_output=True, text=True).stdout.strip() or "unknown"
    return kt, sha


def host_configs(a, bench, kt, link, comm, before_kt):
    """{name: run(out) -> the knotif-bench files it wrote}, one per configuration of a round."""
    def untraced(out):
        run(bench_args(bench, UNOTIF + PTRACE, out, a.samples, a.reps))
        return [out]

    def bpftrace_from(trace_dir):
        def config(out):
            outs = []
            for script, methods in (("knotif-phases.bt", UNOTIF), ("knotif-ptrace.bt", PTRACE)):
                o = out.replace(".json", f".{script}.json")
                # bpftrace -c splits on blanks and runs no shell: no quoting
                cmd = " ".join(bench_args(link, methods, o, a.samples, a.reps))
                run(["bpftrace", "-o", os.devnull, os.path.join(trace_dir, script), "0", comm,
                     "-c", cmd])
                outs.append(o)
            return outs
        return config

    def knotif_trace_from(tracer):
        def config(out):
            run([tracer, "-q", "-j", out.replace(".json", ".summary.json"), "--"] +
                bench_args(bench, UNOTIF + PTRACE, out, a.samples, a.reps))
            return [out]
        return config

    def only(probes):
        def config(out):
            run([kt, "-q", f"--only-probes={probes}", "--"] +
                bench_args(bench, UNOTIF + PTRACE, out, a.samples, a.reps, ["same"]))
            return [out]
        return config

    def nothing_selected(out):
        # every probe attached, none with anything to do: pid 1 is never a benchmark.
        # Bounded twice: it dies with us (PDEATHSIG) and ends by itself (-d).
        r, w = os.pipe()
        p = subprocess.Popen([kt, "-q", "-p", "1", "-d", "900", "--ready-fd", str(w)], pass_fds=(w,),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             preexec_fn=die_with_parent)
        os.close(w)
        ready = os.read(r, 16)
        os.close(r)
        if not ready:
            p.wait(timeout=60)
            die(f"knotif-trace -p 1 did not attach: {p.stderr.read()}")
        try:
            run(bench_args(bench, UNOTIF + PTRACE, out, a.samples, a.reps, ["same"]))
        finally:
            p.send_signal(signal.SIGINT)
            p.wait(timeout=60)
        return [out]

    configs = {"untraced": untraced, "bpftrace": bpftrace_from(TRACE),
               "knotif-trace": knotif_trace_from(kt),
               "only sys_exit": only("sys_exit"), "only sched_switch": only("sched_switch"),
               "only sched_waking": only("sched_waking"), "nothing selected": nothing_selected}
    if a.before:
        configs["bpftrace before"] = bpftrace_from(os.path.join(a.before, "trace"))
        configs["knotif-trace before"] = knotif_trace_from(before_kt)
    return configs


def host_rounds(configs, n, tmp):
    """n interleaved rounds, the order rotating each round: ([{config: {benchmark: p50}}],
    the knotif-bench context of the first run)."""
    order = list(configs)
    rounds, context = [], None
    for r in range(n):
        this = {}
        for i in range(len(order)):
            name = order[(r + i) % len(order)]
            print(f"round {r + 1}/{n}: {name}", file=sys.stderr, flush=True)
            p50 = {}
            for f in configs[name](os.path.join(tmp, f"r{r}-{name.replace(' ', '_')}.json")):
                m, ctx = medians(f)
                p50.update(m)
                context = context or ctx
            this[name] = p50
        rounds.append(this)
    return rounds, context


def cost(rounds, name, b):
    """(median traced p50, median ns over untraced, median ratio - 1, per-round ratios)"""
    diffs = [r[name][b] - r["untraced"][b] for r in rounds]
    ratios = [r[name][b] / r["untraced"][b] for r in rounds]
    return (statistics.median(r[name][b] for r in rounds), statistics.median(diffs),
            statistics.median(ratios) - 1, ratios)


def host_tables(rounds, with_before):
    """The rows of the host's three tables: (tracers, attachments, before and after)."""
    table = []
    for b in sorted(rounds[0]["untraced"]):
        row = {"benchmark": b, "untraced_p50_ns": statistics.median(r["untraced"][b] for r in rounds)}
        for name in ("bpftrace", "knotif-trace"):
            row[f"{name}_p50_ns"], row[f"{name}_cost_ns"], row[f"{name}_overhead"], \
                row[f"{name}_ratios"] = cost(rounds, name, b)
        table.append(row)
    attachments = []
    for b in sorted(rounds[0]["only sys_exit"]):
        row = {"benchmark": b}
        for name in ATTACH_NAMES:
            _, row[f"{name}_cost_ns"], row[f"{name}_overhead"], _ = cost(rounds, name, b)
        attachments.append(row)
    before = []
    if with_before:
        for b in sorted(rounds[0]["untraced"]):
            row = {"benchmark": b}
            for name in ("bpftrace before", "bpftrace", "knotif-trace before", "knotif-trace"):
                _, row[f"{name}_cost_ns"], row[f"{name}_overhead"], row[f"{name}_ratios"] = \
                    cost(rounds, name, b)
            # per round, the newer tracer's traced p50 over the older one's: < 1 is cheaper
            for name in ("bpftrace", "knotif-trace"):
                r = [x[name][b] / x[f"{name} before"][b] for x in rounds]
                row[f"{name}_new_over_old"] = statistics.median(r)
                row[f"{name}_new_faster_rounds"] = sum(1 for v in r if v < 1)
            before.append(row)
    return table, attachments, before


def md_start(flags, title):
    """A generated .md's first lines: the command that writes it, the title."""
    f = io.StringIO()
    f.write(f"<!-- generated by results/trace/regen{' ' + flags if flags else ''}: do not edit -->\n")
    f.write(f"# {title}\n\n")
    return f


def write_host_md(result, path):
    """overhead.md from overhead.json's contents alone."""
    rounds = result["rounds"]
    f = md_start("", "Tracer overhead on the round trip")
    f.write(f"Linux {result['kernel_release']}, {result['cpu_model']}, {result['num_cpus']} CPUs, "
            f"load average {result['load_avg_before'][0]:.1f} before, "
            f"{result['load_avg_after'][0]:.1f} after; git {result['git_sha']}, "
            f"{result['date']}; {rounds} interleaved rounds of {result['repetitions']} x "
            f"{result['samples_per_repetition']} samples. Cost = median over rounds of (traced p50 "
            f"- untraced p50 of the same round); overhead = the same of the ratio, - 1.\n\n")
    f.write("| benchmark | untraced p50 µs | bpftrace p50 µs | bpftrace cost | "
            "knotif-trace p50 µs | knotif-trace cost |\n")
    f.write("|---|---:|---:|---:|---:|---:|\n")
    for row in result["results"]:
        f.write(f"| {row['benchmark']} | {row['untraced_p50_ns'] / 1000:.3f} "
                f"| {row['bpftrace_p50_ns'] / 1000:.3f} | {row['bpftrace_cost_ns']:+.0f} ns "
                f"({100 * row['bpftrace_overhead']:+.1f}%) "
                f"| {row['knotif-trace_p50_ns'] / 1000:.3f} | {row['knotif-trace_cost_ns']:+.0f} ns "
                f"({100 * row['knotif-trace_overhead']:+.1f}%) |\n")
    f.write("\nWhich attachment costs what (knotif-trace's sched source, same-CPU round trips): "
            "each alone doing its work for the benchmark (`--only-probes`), all three, and all "
            "three with nothing selected (`-p 1`, the floor of the attachments themselves).\n\n")
    f.write("| benchmark | sys_exit alone | sched_switch alone | sched_waking alone "
            "| all three | all three, nothing selected |\n")
    f.write("|---|---:|---:|---:|---:|---:|\n")
    for row in result["attachments"]:
        f.write(f"| {row['benchmark']} | " + " | ".join(
            f"{row[n + '_cost_ns']:+.0f} ns ({100 * row[n + '_overhead']:+.1f}%)"
            for n in ATTACH_NAMES) + " |\n")
    if "before" in result:
        f.write(f"\nBefore and after: the tracers of git {result['before']['git_sha']} (`--before`) "
                f"in the same rounds. New / old = median over rounds of the traced p50 with the new "
                f"tracer over the traced p50 with the old one (below 1: the new one is cheaper), and "
                f"in how many of the {rounds} rounds the new one was faster.\n\n")
        f.write("| benchmark | bpftrace before | bpftrace now | new / old | knotif-trace before "
                "| knotif-trace now | new / old |\n")
        f.write("|---|---:|---:|---:|---:|---:|---:|\n")
        for row in result["before"]["results"]:
            cells = []
            for n in ("bpftrace", "knotif-trace"):
                cells += [f"{row[n + ' before_cost_ns']:+.0f} ns ({100 * row[n + ' before_overhead']:+.1f}%)",
                          f"{row[n + '_cost_ns']:+.0f} ns ({100 * row[n + '_overhead']:+.1f}%)",
                          f"{row[n + '_new_over_old']:.3f} ({row[n + '_new_faster_rounds']}/{rounds})"]
            f.write(f"| {row['benchmark']} | " + " | ".join(cells) + " |\n")
    write_text(path, f.getvalue())


def kernel_info(key):
    """A line of Makefile.kernel's info: the trees of this checkout's series (by content hash)."""
    info = run(["make", "-s", "-f", os.path.join(ROOT, "Makefile.kernel"), "info"]).stdout
    return re.search(rf"^{key}: *(\S+)", info, re.M).group(1)


def knotif_cache():
    """Where Makefile.kernel keeps its trees, absolute: kept in the VM results, whose tables
    name the kernel image inside it."""
    return os.path.abspath(os.environ.get("KNOTIF_CACHE", DEFAULT_CACHE))


def kernel_shown(result):
    """The kernel image as the VM tables name it: inside the cache of the run (results from
    before the cache was kept in them were all measured in the default one)."""
    return os.path.relpath(result["kernel_image"], result.get("knotif_cache", DEFAULT_CACHE))


def vm_guest(a):
    """The patched kernel of this series and an initramfs of trace/tests/vm/init with
    static knotif-trace and knotif-bench: (kernel, initrd)."""
    patched = kernel_info("patched")
    kernel = os.environ.get("BZIMAGE") or os.path.join(patched, "obj/arch/x86/boot/bzImage")
    if not os.path.isfile(kernel):
        die(f"no patched kernel of this series at {patched}: make -f Makefile.kernel build-patched")
    static = os.path.join(a.build, "trace-static")
    run(["cmake", "-S", ROOT, "-B", static, "-DKNOTIF_STATIC=ON"])
    run(["cmake", "--build", static, "-j2", "--target", "knotif-trace", "knotif-bench"])
    tmp = tempfile.mkdtemp(prefix="knotif-trace-regen.")
    initrd = os.path.join(tmp, "initrd.cpio.gz")
    run(["sh", os.path.join(ROOT, "kernel", "scripts", "mkinitramfs.sh"), initrd,
         os.path.join(TRACE, "tests", "vm", "init"), os.path.join(static, "knotif-trace"),
         os.path.join(static, "knotif-bench")])
    return kernel, initrd


def vm_boot(kernel, initrd, append, qemu_args=()):
    """One boot under -icount with one vCPU: the console."""
    cmd = ["qemu-system-x86_64", "-accel", "tcg", "-m", "1G", "-nographic", "-no-reboot",
           "-cpu", "max", "-smp", "1", "-icount", "shift=0,sleep=off", "-kernel", kernel,
           "-initrd", initrd, "-append", "console=ttyS0 quiet panic=-1 " + append,
           "-serial", "mon:stdio", *qemu_args]
    print("booting " + kernel, file=sys.stderr, flush=True)
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=3600,
                          stdin=subprocess.DEVNULL).stdout.replace("\r", "")


def vm_overhead(a):
    """--vm: every configuration in each round of one guest boot: overhead-vm.{json,md}."""
    kernel, initrd = vm_guest(a)
    filt = f"^({'|'.join(UNOTIF + PTRACE)})/placement:same$"
    log = vm_boot(kernel, initrd, f"knotif.trace=overhead knotif.rounds={a.rounds} "
                  f"knotif.samples={a.samples} knotif.reps={a.reps} knotif.filter={filt}")
    runs = {}
    for m in re.finditer(r"KNOTIF-OVERHEAD-BEGIN (\S+) (\d+) status (\d+)\n(.*?)KNOTIF-OVERHEAD-END", log, re.S):
        config, rnd, status, body = m.groups()
        if status != "0":
            die(f"{config} round {rnd} failed in the guest")
        runs.setdefault(config, []).append(p50s(json.loads(body)))
    configs = ["untraced", "done-unotif", "done-idle", "done-empty", "tracepoint-unotif",
               "tracepoint-idle", "tracepoint-empty", "tracepoint", "sched"]
    if any(c not in runs for c in configs):
        die("the guest did not run every configuration; its console:\n" + log[-3000:])
    progs = {src: (prog_stats(log, f"{src}-traced", first), prog_stats(log, f"{src}-idle", first))
             for src, first in (("tracepoint", "tp_queued"), ("done", "tp_done"))}
    table = []
    for b in sorted(runs["untraced"][0]):
        row = {"benchmark": b}
        for c in configs:
            row[f"{c}_p50"] = statistics.median(r[b] for r in runs[c])
            if c != "untraced":
                row[f"{c}_cost"] = row[f"{c}_p50"] - row["untraced_p50"]
                row[f"{c}_overhead"] = row[f"{c}_p50"] / row["untraced_p50"] - 1
        table.append(row)
    result = {
        "schema_version": 3,
        "what": "tracer overhead in instructions: QEMU -icount (1 ns = 1 instruction), 1 vCPU, "
                "knotif-bench p50 traced - untraced (instructions) and traced / untraced - 1",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "kernel_image": kernel, "knotif_cache": knotif_cache(), "rounds": a.rounds,
        "samples_per_repetition": a.samples, "repetitions": a.reps, "command_line": sys.argv,
        "results": table, "raw_runs": runs,
        "tracepoint_unotif_programs": progs["tracepoint"][0],
        "tracepoint_unotif_programs_idle": progs["tracepoint"][1],
        "done_unotif_programs": progs["done"][0], "done_unotif_programs_idle": progs["done"][1],
    }
    save(result, a.out, "overhead-vm", write_vm_md)


def write_vm_md(result, path):
    """overhead-vm.md from overhead-vm.json's contents alone."""
    table = result["results"]
    progs = {src: (result[f"{src}_unotif_programs"], result[f"{src}_unotif_programs_idle"])
             for src in ("tracepoint", "done")}
    sync = next((r for r in table if r["benchmark"].startswith("unotif/sync/")), None)
    f = md_start("--vm", "Tracer overhead in instructions (patched 6.12 under QEMU -icount, 1 vCPU)")
    f.write(f"{kernel_shown(result)}, {result['date']}; {result['rounds']} rounds of "
            f"{result['repetitions']} x {result['samples_per_repetition']} samples; p50 in "
            f"instructions (the guest clock counts them); cost = traced - untraced, in instructions "
            f"per round trip; overhead = traced / untraced - 1. Every configuration ran in each "
            f"round.\n\n")
    vm_table(f, table, ["done-unotif", "done-idle", "done-empty", "tracepoint-unotif",
                        "tracepoint-idle", "tracepoint-empty"],
             ["done, unotif only (the default)", "the same, nothing selected",
              "the same, programs empty", "tracepoint, unotif only",
              "the same, nothing selected", "the same, programs empty"])
    f.write("\nWith the ptrace probes (the tracepoint source's seccomp events and the "
            "stock-kernel probes for ptrace), and the sched source:\n\n")
    vm_table(f, table, ["tracepoint", "sched"], ["tracepoint + ptrace probes", "sched"])
    f.write("\n\"Nothing selected\": the same programs attached while another process is traced "
            "(`-p` of an idle process): each leaves after its first lookup, the floor of the "
            "source. \"Programs empty\": the same probes, each returning at once "
            "(`--empty-programs`): the seccomp events' dispatch to a BPF program alone (for "
            "the done event, with the kernel's four moments, which it takes only while the "
            "event is enabled).\n")
    for src, what in (("done", "the done source"), ("tracepoint", "the tracepoint source")):
        traced, idle = progs[src]
        f.write(f"\nInside {what}'s programs (`--kinds=unotif`, `unotif/sync/emulate`, "
                "`--prog-stats`: the kernel's BPF run-time stats, whose own clock reads add "
                "some instructions to each run): instructions per run, helpers included, "
                "traced and with nothing selected.\n\n")
        f.write("| program | runs per notification | instructions per run | per notification "
                "| nothing selected, per run |\n")
        f.write("|---|---:|---:|---:|---:|\n")
        idle_by_name = {p["program"]: p for p in idle}
        for p in traced:
            i = idle_by_name.get(p["program"])
            f.write(f"| {p['program']} | {p['runs_per_notification']:.2f} | "
                    f"{p['insn_per_run']:.0f} | {p['insn_per_notification']:.0f} | "
                    + (f"{i['insn_per_run']:.0f}" if i else "–") + " |\n")
        if sync and src == "done":
            f.write("\n" + vm_split_done(sync, traced) + "\n")
        received = next((p for p in traced if p["program"] == "tp_received"), None)
        if sync and src == "tracepoint" and received and "tp_received" in idle_by_name:
            f.write("\n" + vm_split(sync, received, idle_by_name["tp_received"], idle) + "\n")
    write_text(path, f.getvalue())


def vm_profile(a):
    """--vm-profile: where a traced round trip's instructions go, by kernel function."""
    kernel, initrd = vm_guest(a)
    plugin = kernel_info("plugin")
    run(["make", "-s", "-f", os.path.join(ROOT, "Makefile.kernel"), plugin])
    tmp = tempfile.mkdtemp(prefix="knotif-trace-profile.")
    profiles = {}
    for config in PROFILE_CONFIGS:
        d = os.path.join(tmp, config)
        os.makedirs(d)
        source = "" if config == "untraced" else f" knotif.source={config}"
        log = vm_boot(kernel, initrd, f"knotif.trace=profile knotif.samples={a.samples} "
                      f"knotif.filter=^{PROFILE_BENCH}${source}",
                      ["-plugin", f"{plugin},marks=on,out={d}/profile.txt"])
        status = re.search(r"KNOTIF-PROFILE-STATUS (\d+)\n", log)
        if not status or status.group(1) != "0":
            die(f"{config}: the profiled run failed in the guest; its console:\n" + log[-3000:])
        part = {k: re.search(rf"KNOTIF-{k}-BEGIN\n(.*?)KNOTIF-{k}-END", log, re.S).group(1)
                for k in ("KALLSYMS", "BENCH")}
        with open(os.path.join(d, "kallsyms.txt"), "wb") as f:
            f.write(gzip.decompress(base64.b64decode(part["KALLSYMS"])))
        with open(os.path.join(d, "knotif-bench.json"), "w") as f:
            f.write(part["BENCH"])
        out = os.path.join(d, "profile.json")
        run(["/usr/bin/python3", os.path.join(ROOT, "kernel", "scripts", "profile-table.py"),
             "--map", os.path.join(d, "kallsyms.txt"), "--run", d, "--label", config,
             "--out-json", out, "--top", "0"])
        profiles[config] = json.load(open(out))
    result = {
        "schema_version": 1,
        "what": "instructions per round trip of the benchmark's timed loop by kernel function "
                "(QEMU tbcount plugin between knotif-bench's marks, 1 vCPU, -icount), untraced "
                "and under knotif-trace -k unotif with each seccomp source",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "kernel_image": kernel, "knotif_cache": knotif_cache(), "benchmark": PROFILE_BENCH,
        "samples": a.samples, "command_line": sys.argv, "profiles": profiles,
    }
    save(result, a.out, "profile-vm", write_profile_md)


def write_profile_md(result, path):
    """profile-vm.md from profile-vm.json's contents alone."""
    profiles = result["profiles"]
    untraced = profiles["untraced"]
    base = untraced["instructions_per_round_trip"]
    f = md_start("--vm-profile", "Where a traced round trip's instructions go, by kernel function")
    f.write(f"{kernel_shown(result)}, {result['date']}; `{result['benchmark']}`, "
            f"{result['samples']} samples, one run per configuration under QEMU's tbcount plugin "
            "(`kernel/profile/tbcount.c`), which counts only inside knotif-bench's timed "
            "loop: the loop's instructions by function over its round trips. That is the "
            "mean of the run's own mix of paths (a preemption more or less moves the "
            "scheduler's rows), not the p50 that `overhead-vm.md` quotes as the cost: "
            "the tracer's own functions (in bold) are exact here, the totals are this "
            "run's.\n\n")
    f.write("| configuration | p50 | loop, per round trip | switches | preemptions |\n")
    f.write("|---|---:|---:|---:|---:|\n")
    for config in PROFILE_CONFIGS:
        prof = profiles[config]
        f.write(f"| {config} | {prof['p50']:.0f} | {prof['profile_total']:.0f} | "
                f"{prof['ctx_switches_per_op']:.3f} | {prof['preemptions_per_op']:.3f} |\n")
    for config in PROFILE_CONFIGS[1:]:
        traced = profiles[config]["instructions_per_round_trip"]
        # by name, so that the rest's sum adds in one order whatever the hash seed
        change = {k: traced.get(k, 0) - base.get(k, 0) for k in sorted(set(traced) | set(base))}
        shown = sorted(change, key=lambda k: (-abs(change[k]), k))[:PROFILE_ROWS]
        rest = sum(v for k, v in change.items() if k not in shown)
        f.write(f"\nUnder the {config} source (`knotif-trace -s {config} -k unotif`), the "
                f"{PROFILE_ROWS} largest changes:\n\n")
        f.write("| function | untraced | traced | change |\n|---|---:|---:|---:|\n")
        for k in shown:
            f.write(f"| {'**' + k + '**' if not base.get(k) else k} | {base.get(k, 0):.1f} | "
                    f"{traced.get(k, 0):.1f} | {change[k]:+.1f} |\n")
        f.write(f"| the rest | | | {rest:+.1f} |\n")
        f.write(f"| all | {untraced['profile_total']:.1f} | "
                f"{profiles[config]['profile_total']:.1f} | "
                f"{profiles[config]['profile_total'] - untraced['profile_total']:+.1f} |\n")
    f.write("\nIn bold: a function the untraced run never entered (the tracer's own). "
            "`[module area: BPF JIT programs]` is the tracer's programs, and the "
            "benchmark's seccomp filter, also JIT-compiled there (its untraced count).\n")
    write_text(path, f.getvalue())


def vm_table(f, table, configs, headers):
    """One markdown table of the --vm rows: untraced p50, then each configuration's p50 and cost."""
    f.write("| benchmark | untraced | " + " | ".join(headers) + " |\n")
    f.write("|---|---:|" + "---:|" * len(configs) + "\n")
    for row in table:
        cells = [f"{row['untraced_p50']:.0f}"] + [
            f"{row[c + '_p50']:.0f} ({row[c + '_cost']:+.0f} insn, {100 * row[c + '_overhead']:+.1f}%)"
            for c in configs]
        f.write(f"| {row['benchmark']} | " + " | ".join(cells) + " |\n")


def vm_split_done(sync, progs):
    """Where the done source's instructions go, from the table's columns and --prog-stats."""
    traced, idle, empty = (sync[f"done-{c}_cost"] for c in ("unotif", "idle", "empty"))
    done = next((p for p in progs if p["program"] == "tp_done"), None)
    untraced = sync["untraced_p50"]
    before = sync["tracepoint-unotif_cost"]
    ratio = f", {traced / before:.2f}x of it" if before > 0 else ""
    return (f"Where the {traced:+.0f} instructions of `unotif/sync/emulate` under the done source "
            f"go ({100 * traced / untraced:+.1f}% of the untraced {untraced:.0f}; the tracepoint "
            f"source in the same rounds: {before:+.0f}{ratio}): the done "
            f"event's dispatch to a BPF program with the kernel's four moments (programs empty) "
            f"{empty:.0f}; the program's filter lookup and its leaving {idle - empty:.0f} "
            f"(nothing selected less programs empty); the rest, {traced - idle:.0f}, is its "
            f"counts and four phases binned"
            + (f" (`tp_done` runs {done['insn_per_run']:.0f} instructions traced, "
               f"--prog-stats' clock reads included)" if done else "") + ".")


def vm_split(sync, received, received_idle, idle_progs):
    """Where the tracepoint source's instructions go, from the table's columns and --prog-stats."""
    traced, idle, empty = (sync[f"tracepoint-{c}_cost"] for c in ("unotif", "idle", "empty"))
    lookups = idle - empty
    # --prog-stats' clock reads fall partly inside each run: what the idle runs report beyond
    # their true work (idle - empty) is that share
    stats_share = (sum(p["insn_per_notification"] for p in idle_progs) - lookups) / 4
    clock = received["insn_per_run"] - received_idle["insn_per_run"]	# the stats' share cancels
    bound = idle + 4 * clock
    untraced = sync["untraced_p50"]
    return (f"Where the {traced:+.0f} instructions of `unotif/sync/emulate` under the tracepoint "
            f"source go: the four events' "
            f"dispatch to a BPF program (programs empty) {empty:.0f}, {empty / 4:.0f} per event; "
            f"each program's first lookup and its leaving, {lookups:.0f} for the four (nothing "
            f"selected less programs empty); four clock reads, {4 * clock:.0f} (one is "
            f"`tp_received`'s run with its target selected less its run with nothing selected: "
            f"`bpf_ktime_get_ns()`, two tests and a store, {clock:.0f}); the rest, "
            f"{traced - bound:.0f}, is the bookkeeping (state stores, counts, the four phases "
            f"binned, almost all of it in `tp_resumed`). Dispatch, lookups and four clock reads "
            f"alone come to {bound:.0f} instructions, {100 * bound / untraced:+.1f}% of the "
            f"untraced {untraced:.0f}, before a phase is counted or binned. (`--prog-stats` "
            f"counts about {stats_share:.0f} instructions of its own clock reads in each run "
            f"above.)")


def prog_stats(log, config, first):
    """
    The guest's --prog-stats lines of one run: per program, runs and instructions (a ns is one),
    per notification as counted by the runs of program first (one run each).
    """
    m = re.search(rf"KNOTIF-PROGSTATS-BEGIN {config} status (\d+)\n(.*?)KNOTIF-PROGSTATS-END", log, re.S)
    if not m or m.group(1) != "0":
        die(f"the guest's --prog-stats run ({config}) failed; its console:\n" + log[-3000:])
    rows = []
    for line in m.group(2).splitlines():
        p = re.match(r"# prog-stats: (\S+)\s+(\d+) runs\s+(\d+) ns", line)
        if p and int(p.group(2)):
            rows.append({"program": p.group(1), "runs": int(p.group(2)), "insn": int(p.group(3))})
    queued = next((r["runs"] for r in rows if r["program"] == first), 0)
    if not queued:
        die(f"--prog-stats in the guest saw no {first} run ({config})")
    for r in rows:
        r["runs_per_notification"] = r["runs"] / queued
        r["insn_per_run"] = r["insn"] / r["runs"]
        r["insn_per_notification"] = r["insn"] / queued
    return [r for r in rows if r["program"].startswith("tp_")]


def write_examples(link, comm, kt, bench):
    for script, methods in (("knotif-phases.bt", ["unotif/sync/emulate"]),
                            ("knotif-ptrace.bt", ["ptrace-seccomp/emulate"])):
        filt = f"^({'|'.join(methods)})/placement:same$"
        cmd = f"knotif-bench --benchmark_filter='{filt}' --samples=5000 --benchmark_repetitions=3"
        out = tempfile.mktemp(suffix=".txt")
        run(["bpftrace", "-o", out, os.path.join(TRACE, script), "0", comm, "-c",
             f"{link} --benchmark_filter={filt} --samples=5000 --benchmark_repetitions=3 "
             f"--benchmark_format=console"])
        body = open(out).read()
        os.unlink(out)
        ex = os.path.join(TRACE, script.replace(".bt", "_example.txt"))
        with open(ex, "w") as f:
            f.write(f"# {script} 0 knotif-bench, while running\n# {cmd}\n"
                    f"# (Linux {platform.release()}; generated by results/trace/regen --examples)\n\n")
            f.write(body.replace(comm, "knotif-bench"))
        print(f"wrote {ex}", file=sys.stderr)
    filt = "^(unotif/sync/emulate|unotif/async/addfd|ptrace-seccomp/emulate)/placement:same$"
    cmd = f"knotif-bench --benchmark_filter='{filt}' --samples=5000 --benchmark_repetitions=3"
    # the benchmark's own table goes to /dev/null: stdout is the tracer's
    p = run([kt, "--", "sh", "-c", f"exec \"$0\" '--benchmark_filter={filt}' --samples=5000 "
             "--benchmark_repetitions=3 >/dev/null", bench])
    summary = p.stdout
    ex = os.path.join(TRACE, "knotif-trace_example.txt")
    with open(ex, "w") as f:
        f.write(f"# knotif-trace -- {cmd}\n"
                f"# (Linux {platform.release()}; generated by results/trace/regen --examples)\n\n")
        f.write(summary)
    print(f"wrote {ex}", file=sys.stderr)


if __name__ == "__main__":
    main()
