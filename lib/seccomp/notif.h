/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_NOTIF_H
#define KNOTIF_NOTIF_H

#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The supervisor's side of one seccomp listener: RECV, SEND, ID_VALID, with
 * the buffers sized by the running kernel (SECCOMP_GET_NOTIF_SIZES), not by
 * the build host's headers. Every call is exactly one system call, so a
 * caller can count them; every one returns 0 or -errno. ENOENT (the target
 * left the call) and EINTR are normal outcomes, not failures.
 */
struct notif_buf {
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	size_t req_size, resp_size;
};

/* Allocates both buffers; -errno. Call once per thread, outside any hot path. */
int notif_buf_alloc(struct notif_buf *b);
void notif_buf_free(struct notif_buf *b);

/* Zeroes b->req (RECV rejects a dirty buffer since 5.5) and receives into it. */
int notif_recv(int listener, struct notif_buf *b);

/* How a supervisor answers a trapped call: knotif-bench's methods, knotif-stress's --reply. */
enum reply_kind {
	REPLY_EMULATE,		/* skip the call; it returns the supervisor's value */
	REPLY_CONTINUE,		/* let the kernel run the call (5.5) */
	REPLY_ADDFD,		/* the call returns a descriptor the supervisor installs (5.14) */
};

/*
 * Reply to id as @how says: EMULATE returns val, CONTINUE runs the call,
 * ADDFD installs srcfd (close-on-exec) in the target as the call's result.
 * One system call; 0 or -errno.
 */
int notif_reply(int listener, struct notif_buf *b, uint64_t id, enum reply_kind how, int64_t val,
		int srcfd);

/* Reply to id: the call returns val (error 0) or fails with -error (error > 0). */
int notif_send_emulate(int listener, struct notif_buf *b, uint64_t id, int64_t val, int error);
/* Reply to id: let the kernel run the call (SECCOMP_USER_NOTIF_FLAG_CONTINUE, 5.5). */
int notif_send_continue(int listener, struct notif_buf *b, uint64_t id);

/*
 * Reply to id by installing srcfd in the target as the call's result
 * (SECCOMP_IOCTL_NOTIF_ADDFD with SECCOMP_ADDFD_FLAG_SEND, 5.14: one step,
 * no window between the install and the reply). The descriptor number the
 * target got, or -errno.
 */
int notif_send_addfd(int listener, uint64_t id, int srcfd, unsigned int newfd_flags);

/*
 * The knotif kernel series' v3 protocol (kernel/patches, "add the v3
 * read()/write() protocol", CONFIG_SECCOMP_USER_NOTIF_RW): read() a
 * notification into the zeroed b->req, write() the reply. A mainline
 * kernel refuses both with -EINVAL.
 */
int notif_recv_rw(int listener, struct notif_buf *b);
int notif_send_rw(int listener, uint64_t id, int64_t val);

/* 0 while the notification id is still waiting for this listener's reply. */
int notif_id_valid(int listener, uint64_t id);

/* SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (6.6): wake the supervisor on the target's CPU. */
int notif_set_sync_wakeup(int listener);

/*
 * The knotif kernel series' way to a listener (kernel/patches, "add a way
 * to get a listener fd from ptrace"): attach to pid (a child, or one
 * ptrace may attach to), wait for its stop, take the listener of its
 * filter number nth (0: the first installed) with
 * PTRACE_SECCOMP_GET_LISTENER, detach. Setup, not one system call like the
 * rest. The listener, or -errno: -EIO from a kernel without the request.
 */
int notif_ptrace_listener(pid_t pid, unsigned long nth);

#endif
