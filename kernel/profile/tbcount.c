// SPDX-License-Identifier: GPL-2.0
/*
 * tbcount: a QEMU TCG plugin that counts how often each translated block
 * runs, for vm-profile (kernel/scripts/profile.sh). At exit it writes one
 * line per block that ran: its guest virtual address, its instructions and
 * its count; the host side sums count x instructions per kernel symbol.
 *
 * With marks=on it counts only inside windows the guest opens with
 * `xchg %bx,%bx` (66 87 db) and closes with `xchg %cx,%cx` (66 87 c9):
 * knotif-bench runs them around a benchmark's timed loop when
 * KNOTIF_PROFILE_MARKS=1. Each mark snapshots every block's count; a
 * window adds the difference. The first line then says how many windows
 * closed.
 *
 * Counting is an inline add QEMU emits into the block itself (no callback
 * per execution), and the guest's instruction clock (-icount) does not see
 * it: the guest runs exactly as without the plugin, only slower on the host.
 * A block left early by an exception (a page fault on its third
 * instruction) still counts whole: the profile can exceed the guest's own
 * count by those instructions, which a two-run difference mostly cancels.
 * One vCPU (vm-profile boots one): the adds are not atomic.
 *
 *   -plugin tbcount.so,out=FILE[,marks=on]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin-abi.h"

KNOTIF_PLUGIN_EXPORT int qemu_plugin_version = KNOTIF_QEMU_PLUGIN_VERSION;

struct block {
	uint64_t vaddr;
	uint64_t count;		/* QEMU's inline add writes here: never moved */
	uint64_t at_open;	/* count when the current window opened */
	uint64_t in_windows;	/* executions inside closed windows */
	uint32_t insns;
};

/* chunks, not one growing array: the counters' addresses are baked into code */
#define CHUNK 65536
struct chunk {
	struct chunk *next;
	size_t used;
	struct block blocks[CHUNK];
};

static struct chunk *chunks;
static char *out_path;
static int marks;		/* count inside marked windows only */
static int window_open;
static uint64_t windows;

static const unsigned char open_mark[] = { 0x66, 0x87, 0xdb };	/* xchg %bx,%bx */
static const unsigned char close_mark[] = { 0x66, 0x87, 0xc9 };	/* xchg %cx,%cx */

static struct block *new_block(void)
{
	if (!chunks || chunks->used == CHUNK) {
		struct chunk *c = calloc(1, sizeof(*c));

		if (!c) {
			qemu_plugin_outs("tbcount: out of memory\n");
			abort();
		}
		c->next = chunks;
		chunks = c;
	}
	return &chunks->blocks[chunks->used++];
}

static void each_block(void (*fn)(struct block *b))
{
	for (struct chunk *c = chunks; c; c = c->next)
		for (size_t i = 0; i < c->used; i++)
			fn(&c->blocks[i]);
}

static void snapshot(struct block *b)
{
	b->at_open = b->count;
}

static void add_window(struct block *b)
{
	b->in_windows += b->count - b->at_open;
}

/* one vCPU: marks come in order; a second open without a close restarts the window */
static void on_mark(unsigned int vcpu, void *opens)
{
	(void)vcpu;
	if (opens) {
		each_block(snapshot);
		window_open = 1;
	} else if (window_open) {
		each_block(add_window);
		window_open = 0;
		windows++;
	}
}

static int is_mark(struct qemu_plugin_insn *insn, const unsigned char *mark)
{
	return qemu_plugin_insn_size(insn) == 3 && !memcmp(qemu_plugin_insn_data(insn), mark, 3);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b = new_block();
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = (uint32_t)n;
	/* a block made inside a window counts from 0: at_open is 0 already */
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->count, 1);
	if (!marks)
		return;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (is_mark(insn, open_mark))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS, (void *)1);
		else if (is_mark(insn, close_mark))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
}

static void write_profile(qemu_plugin_id_t id, void *data)
{
	FILE *f = fopen(out_path, "w");
	struct chunk *c;
	size_t i;

	(void)id;
	(void)data;
	if (!f) {
		char msg[512];

		snprintf(msg, sizeof(msg), "tbcount: cannot write %s: %s\n", out_path, strerror(errno));
		qemu_plugin_outs(msg);
		return;
	}
	if (marks)
		fprintf(f, "# windows %llu\n", (unsigned long long)windows);
	fprintf(f, "# vaddr insns count\n");
	for (c = chunks; c; c = c->next)
		for (i = 0; i < c->used; i++) {
			uint64_t n = marks ? c->blocks[i].in_windows : c->blocks[i].count;

			if (n)
				fprintf(f, "%llx %u %llu\n", (unsigned long long)c->blocks[i].vaddr,
					c->blocks[i].insns, (unsigned long long)n);
		}
	if (fclose(f))
		qemu_plugin_outs("tbcount: writing the profile failed\n");
}

KNOTIF_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					     int argc, char **argv)
{
	int i;

	if (!info->system_emulation || info->system.smp_vcpus != 1) {
		qemu_plugin_outs("tbcount: system emulation with one vCPU only\n");
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
		else if (!strcmp(argv[i], "marks=on"))
			marks = 1;
	}
	if (!out_path) {
		qemu_plugin_outs("tbcount: give out=FILE\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, write_profile, NULL);
	return 0;
}
