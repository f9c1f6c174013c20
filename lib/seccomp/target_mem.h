/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_TARGET_MEM_H
#define KNOTIF_TARGET_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Reading a notifying target's memory safely: the way knotif does (only
 * knotif-bench's agent/read-* rows read by hand, to price each call). The
 * pid in a notification may have been reused by the time /proc/PID/mem is
 * open, and the target may be gone (killed, or interrupted by a signal) at
 * any point: every step is followed by SECCOMP_IOCTL_NOTIF_ID_VALID, so what
 * we read is known to belong to the process that is still waiting on this
 * notification. Every function returns -ENOENT once the notification is no
 * longer valid.
 */
struct target_mem {
	int fd;			/* /proc/PID/mem, or -1 */
	int dir;		/* /proc/PID, kept by target_mem_open_rw() (its maps), or -1 */
	pid_t pid;
	int listener;
	uint64_t id;		/* the notification being served */
	int64_t syscalls;	/* system calls made so far (knotif-stress counts them) */
};

int target_mem_open(struct target_mem *m, int listener, uint64_t id, pid_t pid);
void target_mem_close(struct target_mem *m);

/*
 * For writing an emulated call's answer into the target: as
 * target_mem_open(), with /proc/PID/mem open for writing and /proc/PID kept,
 * both opened before the ID_VALID check. A /proc/PID/mem descriptor holds
 * the memory it was opened on, so a write through it can only reach the
 * process still waiting on id, never one that reused its pid afterwards
 * (process_vm_writev() takes a pid, and could).
 */
int target_mem_open_rw(struct target_mem *m, int listener, uint64_t id, pid_t pid);
/*
 * len bytes of buf to addr, as the kernel's copy_to_user() in the target
 * would write them: 0, or -EFAULT with nothing written when the range is
 * not all in mappings the target may write (its /proc/PID/maps: a write to
 * /proc/PID/mem goes through read-only pages, FOLL_FORCE). m from
 * target_mem_open_rw().
 */
int target_mem_write(struct target_mem *m, uint64_t addr, const void *buf, size_t len);

/*
 * len bytes at addr; a short count when the range runs into memory the
 * target itself could not read, -EFAULT when it starts there. Read with
 * process_vm_readv, which honours the target's protections: /proc/PID/mem
 * reads PROT_NONE pages (FOLL_FORCE), so a path the kernel refuses with
 * EFAULT would be logged as the zeros it found there.
 */
ssize_t target_mem_read(struct target_mem *m, uint64_t addr, void *buf, size_t len);

/*
 * The NUL-terminated string at addr into buf (always terminated). Returns
 * its length, or size - 1 with *truncated set when it did not fit.
 */
ssize_t target_mem_string(struct target_mem *m, uint64_t addr, char *buf, size_t size,
			  int *truncated);

#endif
