// SPDX-License-Identifier: GPL-2.0
#include "empty_probes.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "knotif_trace.skel.h"

void empty_probes_take(struct empty_probes *e, struct knotif_trace_bpf *skel)
{
	/* the per-event probes; --prog-stats lists their empty programs in this order */
	struct bpf_program *per_event[EMPTY_PROBES_MAX] = {
		skel->progs.tp_queued, skel->progs.tp_received, skel->progs.tp_replied,
		skel->progs.tp_addfd, skel->progs.tp_interrupted, skel->progs.tp_listener_gone,
		skel->progs.tp_resumed, skel->progs.tp_done, skel->progs.on_sys_exit,
		skel->progs.on_switch, skel->progs.on_waking, skel->progs.fentry_seccomp_filter,
	};

	e->count = 0;
	for (int i = 0; i < EMPTY_PROBES_MAX; i++) {
		struct bpf_program *prog = per_event[i];
		struct empty_probe *p = &e->probe[e->count];
		const char *name = bpf_program__name(prog);
		const char *event = strchr(name, '_');	/* tp_queued -> _queued */

		if (!bpf_program__autoload(prog))
			continue;
		bpf_program__set_autoload(prog, false);
		snprintf(p->name, sizeof(p->name), "empty%s", event ? event : name);
		p->hook = bpf_program__section_name(prog);
		p->attach_type = bpf_program__expected_attach_type(prog);
		p->prog_fd = p->link_fd = -1;
		e->count++;
	}
}

int empty_prog_load(const char *name, int attach_type, __u32 btf_id)
{
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = attach_type, .attach_btf_id = btf_id);

	return bpf_prog_load(BPF_PROG_TYPE_TRACING, name, "GPL", insns, 2, &opts);
}

/* the BTF id a probe's section names ("tp_btf/EVENT", "fentry/FUNC"), or -ENOENT */
static int hook_btf_id(const struct btf *vmlinux, const struct empty_probe *p)
{
	const char *target = strchr(p->hook, '/');
	char name[128];

	if (!vmlinux || !target)
		return -ENOENT;
	if (p->attach_type == BPF_TRACE_FENTRY)
		return btf__find_by_name_kind(vmlinux, target + 1, BTF_KIND_FUNC);
	snprintf(name, sizeof(name), "btf_trace_%s", target + 1);
	return btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF);
}

int empty_probes_load(struct empty_probes *e, char *why, size_t len)
{
	/* parsed once for every probe's lookup */
	struct btf *vmlinux = e->count ? btf__load_vmlinux_btf() : NULL;
	int err = 0;

	for (int i = 0; i < e->count; i++) {
		struct empty_probe *p = &e->probe[i];
		int id = hook_btf_id(vmlinux, p);

		if (id <= 0) {
			snprintf(why, len, "%s: no %s in the kernel's BTF", p->name, p->hook);
			err = -ENOENT;
			break;
		}
		p->prog_fd = empty_prog_load(p->name, p->attach_type, (__u32)id);
		if (p->prog_fd < 0) {
			snprintf(why, len, "%s on %s: %s", p->name, p->hook, strerror(-p->prog_fd));
			err = p->prog_fd;
			break;
		}
	}
	btf__free(vmlinux);
	return err;
}

int empty_probes_attach(struct empty_probes *e, char *why, size_t len)
{
	for (int i = 0; i < e->count; i++) {
		struct empty_probe *p = &e->probe[i];

		/* tp_btf and fentry alike: the hook is the program's attach_btf_id */
		p->link_fd = bpf_raw_tracepoint_open(NULL, p->prog_fd);
		if (p->link_fd < 0) {
			snprintf(why, len, "%s on %s: %s", p->name, p->hook, strerror(-p->link_fd));
			return p->link_fd;
		}
	}
	return 0;
}

void empty_probes_close(struct empty_probes *e)
{
	for (int i = 0; i < e->count; i++) {
		if (e->probe[i].link_fd >= 0)
			close(e->probe[i].link_fd);
		if (e->probe[i].prog_fd >= 0)
			close(e->probe[i].prog_fd);
		e->probe[i].prog_fd = e->probe[i].link_fd = -1;
	}
	e->count = 0;
}
