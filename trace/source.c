// SPDX-License-Identifier: GPL-2.0
#include "source.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "check.h"
#include "clock.h"
#include "empty_probes.h"
#include "knotif_trace.skel.h"

const char *const source_key[KT_SRC_COUNT] = {
	[KT_SRC_DONE] = "done",
	[KT_SRC_TRACEPOINT] = "tracepoint",
	[KT_SRC_FENTRY] = "fentry",
	[KT_SRC_SCHED] = "sched",
};

const char *const source_detail[KT_SRC_COUNT] = {
	[KT_SRC_DONE] = "seccomp:seccomp_notif_done: one event per notification, the kernel's own "
			"moments",
	[KT_SRC_TRACEPOINT] = "seccomp:seccomp_notif_* tracepoints: exact states",
	[KT_SRC_FENTRY] = "fentry on __seccomp_filter (exact queue moment) + ioctl/sched "
			  "tracepoints",
	[KT_SRC_SCHED] = "reconstructed from raw_syscalls:sys_exit, sched_switch and sched_waking: "
			 "queued = the target's first wake-up or sleep in the call",
};

const char *const sched_probe_key[SCHED_PROBE_COUNT] = {
	[PROBE_SYS_EXIT] = "sys_exit",
	[PROBE_SCHED_SWITCH] = "sched_switch",
	[PROBE_SCHED_WAKING] = "sched_waking",
};

/*
 * The patched kernel's event @event, in BTF (@vmlinux, NULL when the
 * kernel has none): tp_btf programs attach by their BTF type. @patch names
 * the patch of kernel/patches that adds it.
 */
static bool seccomp_tracepoint(const struct btf *vmlinux, const char *event, const char *patch,
			       char *why, size_t len)
{
	char name[64], path[128];

	snprintf(name, sizeof(name), "btf_trace_%s", event);
	if (vmlinux && btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF) > 0)
		return true;
	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/seccomp/%s", event);
	if (!access(path, F_OK))
		snprintf(why, len, "seccomp:%s exists but is not in the kernel's BTF", event);
	else
		snprintf(why, len, "no seccomp:%s tracepoint (a kernel without kernel/patches, %s)",
			 event, patch);
	return false;
}

/*
 * Trial load and attach of an empty fentry program on func (empty_prog_load()),
 * the way libbpf-tools decides between fentry and its fallbacks.
 */
static bool fentry_works(const struct btf *vmlinux, const char *func, char *why, size_t len)
{
	int id = vmlinux ? btf__find_by_name_kind(vmlinux, func, BTF_KIND_FUNC) : -ENOENT;
	int fd, link;

	if (id <= 0) {
		snprintf(why, len, "fentry: %s is not in the kernel's BTF", func);
		return false;
	}
	fd = empty_prog_load("kt_fentry_try", BPF_TRACE_FENTRY, (__u32)id);
	if (fd < 0) {
		snprintf(why, len, "fentry on %s refused at load: %s", func, strerror(-fd));
		return false;
	}
	link = bpf_link_create(fd, 0, BPF_TRACE_FENTRY, NULL);
	if (link < 0) {
		snprintf(why, len, "fentry on %s refused at attach: %s", func, strerror(errno));
		close(fd);
		return false;
	}
	close(link);
	close(fd);
	return true;
}

/*
 * The done event as tp_done reads it: one pointer to struct
 * seccomp_notif_record. An earlier revision of kernel/patches passed the
 * record's fields as ten arguments; its event is refused by name here
 * rather than by a CO-RE failure at load.
 */
static bool done_event(const struct btf *vmlinux, char *why, size_t len)
{
	if (!seccomp_tracepoint(vmlinux, "seccomp_notif_done", "the done event", why, len))
		return false;
	if (btf__find_by_name_kind(vmlinux, "seccomp_notif_record", BTF_KIND_STRUCT) > 0)
		return true;
	snprintf(why, len, "seccomp:seccomp_notif_done of an earlier kernel/patches "
		 "revision (no struct seccomp_notif_record)");
	return false;
}

int source_choose(int wanted, struct source_support *support)
{
	/* parsed once for every source's test */
	struct btf *vmlinux = btf__load_vmlinux_btf();
	size_t len = sizeof(support->why[0]);
	int source;

	support->ok[KT_SRC_DONE] = done_event(vmlinux, support->why[KT_SRC_DONE], len);
	support->ok[KT_SRC_TRACEPOINT] = seccomp_tracepoint(vmlinux, "seccomp_notif_queued",
							    "the tracepoints",
							    support->why[KT_SRC_TRACEPOINT], len);
	support->ok[KT_SRC_FENTRY] = fentry_works(vmlinux, "__seccomp_filter",
						  support->why[KT_SRC_FENTRY], len);
	btf__free(vmlinux);
	support->ok[KT_SRC_SCHED] = true;	/* stock tracepoints: the last resort, untested */
	if (wanted == SOURCE_AUTO) {
		for (source = 0; source < KT_SRC_SCHED && !support->ok[source]; source++)
			;
		return source;
	}
	if (support->ok[wanted])
		return wanted;
	fprintf(stderr, "%s: unsupported: --source=%s: %s\n", knotif_prog, source_key[wanted],
		support->why[wanted]);
	return -EOPNOTSUPP;
}

/* --empty-programs: the chosen per-event probes' hooks, each with a program of two instructions */
static struct empty_probes empties;

void source_set_autoload(struct knotif_trace_bpf *skel, int source, const struct probe_options *po)
{
	struct bpf_program *tp[] = {
		skel->progs.tp_queued, skel->progs.tp_received, skel->progs.tp_replied,
		skel->progs.tp_addfd, skel->progs.tp_interrupted, skel->progs.tp_listener_gone,
		skel->progs.tp_resumed,
	};
	struct bpf_program *sched[SCHED_PROBE_COUNT] = {
		[PROBE_SYS_EXIT] = skel->progs.on_sys_exit,
		[PROBE_SCHED_SWITCH] = skel->progs.on_switch,
		[PROBE_SCHED_WAKING] = skel->progs.on_waking,
	};

	bool seccomp_events = source == KT_SRC_DONE || source == KT_SRC_TRACEPOINT;

	/* the other sources' programs keep out of the load */
	for (size_t i = 0; i < sizeof(tp) / sizeof(tp[0]); i++)
		bpf_program__set_autoload(tp[i], source == KT_SRC_TRACEPOINT);
	bpf_program__set_autoload(skel->progs.tp_done, source == KT_SRC_DONE);
	bpf_program__set_autoload(skel->progs.fentry_seccomp_filter, source == KT_SRC_FENTRY);
	bpf_program__set_autoload(skel->progs.on_fork, po->follow_forks);
	skel->rodata->unotif_from_syscalls = !seccomp_events;
	/*
	 * The seccomp events need no other probe; the syscall and scheduler
	 * ones (a raw_syscalls:sys_exit attachment costs every syscall of the
	 * machine) then serve only ptrace.
	 */
	if (seccomp_events && !po->ptrace) {
		for (size_t i = 0; i < SCHED_PROBE_COUNT; i++)
			bpf_program__set_autoload(sched[i], false);
	} else if (po->only_probes) {
		for (size_t i = 0; i < SCHED_PROBE_COUNT; i++)
			bpf_program__set_autoload(sched[i], po->only_probes & (1U << i));
	}
	if (po->empty_programs)
		empty_probes_take(&empties, skel);
}

/* a step of --empty-programs' own programs (load, attach): 0, or -EOPNOTSUPP with the reason said */
static int empty_step(int (*step)(struct empty_probes *e, char *why, size_t len))
{
	char why[200];

	if (!step(&empties, why, sizeof(why)))
		return 0;
	fprintf(stderr, "%s: unsupported: --empty-programs: %s\n", knotif_prog, why);
	return -EOPNOTSUPP;
}

int source_load(struct knotif_trace_bpf *skel, int source)
{
	int err = knotif_trace_bpf__load(skel);

	if (!err && empty_step(empty_probes_load))
		return -EOPNOTSUPP;

	if (err == -EPERM || err == -EACCES)
		fprintf(stderr, "%s: unsupported: loading BPF programs needs root (CAP_BPF and "
			"CAP_PERFMON): %s\n", knotif_prog, strerror(-err));
	else if (err)
		fprintf(stderr, "%s: unsupported: the kernel refused the %s programs: %s "
			"(run with -v for the verifier's log)\n", knotif_prog, source_key[source],
			strerror(-err));
	return err ? -EOPNOTSUPP : 0;
}

int source_attach(struct knotif_trace_bpf *skel, int source)
{
	int err;

	/*
	 * The done event's notifications queued before this are another
	 * consumer's (see tp_done), and so are those queued while we attach:
	 * that consumer may let the event go off in between, and the kernel
	 * then stops taking their moments. So nothing counts until the attach
	 * returned, and then what was queued from that moment on, while our
	 * own probe holds the event on.
	 */
	skel->bss->attach_ns = ~0ULL;
	err = knotif_trace_bpf__attach(skel);
	if (!err && empty_step(empty_probes_attach))
		return -EOPNOTSUPP;
	skel->bss->attach_ns = now_ns();

	if (err)
		fprintf(stderr, "%s: unsupported: attaching the %s probes: %s\n", knotif_prog,
			source_key[source], strerror(-err));
	return err ? -EOPNOTSUPP : 0;
}

void source_close(void)
{
	empty_probes_close(&empties);
}

int prog_stats_enable(void)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0) {
		fprintf(stderr, "%s: unsupported: --prog-stats: enabling BPF run-time stats: %s\n",
			knotif_prog, strerror(errno));
		return -EOPNOTSUPP;
	}
	return fd;
}

/*
 * What each loaded program cost, from the kernel's own BPF run-time stats
 * (the time inside the program, its helpers included; not the tracepoint's
 * dispatch to it). Under QEMU -icount a ns is an instruction.
 */
static void prog_stats_line(const char *name, int fd, FILE *out)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		fprintf(out, "# prog-stats: %s: %s\n", name, strerror(errno));
		return;
	}
	fprintf(out, "# prog-stats: %-16s %12llu runs %14llu ns %10.1f ns/run\n", name,
		(unsigned long long)info.run_cnt, (unsigned long long)info.run_time_ns,
		info.run_cnt ? (double)info.run_time_ns / (double)info.run_cnt : 0.0);
}

void prog_stats_print(const struct knotif_trace_bpf *skel, FILE *out)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj) {
		int fd = bpf_program__fd(prog);

		if (fd >= 0)	/* else not loaded: another source's or an unneeded attachment */
			prog_stats_line(bpf_program__name(prog), fd, out);
	}
	for (int i = 0; i < empties.count; i++)
		prog_stats_line(empties.probe[i].name, empties.probe[i].prog_fd, out);
}
