// SPDX-License-Identifier: GPL-2.0
#include "notif.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compat.h"

int notif_buf_alloc(struct notif_buf *b)
{
	struct seccomp_notif_sizes sizes;

	memset(b, 0, sizeof(*b));
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes))
		return -errno;
	/* the kernel may know a longer struct than our headers: never give it less */
	b->req_size = sizes.seccomp_notif > sizeof(*b->req) ? sizes.seccomp_notif : sizeof(*b->req);
	b->resp_size = sizes.seccomp_notif_resp > sizeof(*b->resp) ? sizes.seccomp_notif_resp
								   : sizeof(*b->resp);
	b->req = calloc(1, b->req_size);
	b->resp = calloc(1, b->resp_size);
	if (!b->req || !b->resp) {
		notif_buf_free(b);
		return -ENOMEM;
	}
	return 0;
}

void notif_buf_free(struct notif_buf *b)
{
	free(b->req);
	free(b->resp);
	b->req = NULL;
	b->resp = NULL;
}

int notif_recv(int listener, struct notif_buf *b)
{
	memset(b->req, 0, b->req_size);
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, b->req) ? -errno : 0;
}

int notif_send_emulate(int listener, struct notif_buf *b, uint64_t id, int64_t val, int error)
{
	memset(b->resp, 0, b->resp_size);
	b->resp->id = id;
	b->resp->val = val;
	b->resp->error = error ? -error : 0;
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, b->resp) ? -errno : 0;
}

int notif_send_continue(int listener, struct notif_buf *b, uint64_t id)
{
	memset(b->resp, 0, b->resp_size);
	b->resp->id = id;
	b->resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, b->resp) ? -errno : 0;
}

int notif_send_addfd(int listener, uint64_t id, int srcfd, unsigned int newfd_flags)
{
	struct seccomp_notif_addfd addfd = {
		.id = id,
		.flags = SECCOMP_ADDFD_FLAG_SEND,
		.srcfd = (uint32_t)srcfd,
		.newfd_flags = newfd_flags,
	};
	int fd = ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd);

	return fd < 0 ? -errno : fd;
}

int notif_reply(int listener, struct notif_buf *b, uint64_t id, enum reply_kind how, int64_t val,
		int srcfd)
{
	int fd;

	switch (how) {
	case REPLY_CONTINUE:
		return notif_send_continue(listener, b, id);
	case REPLY_ADDFD:
		fd = notif_send_addfd(listener, id, srcfd, O_CLOEXEC);
		return fd < 0 ? fd : 0;
	default:
		return notif_send_emulate(listener, b, id, val, 0);
	}
}

int notif_recv_rw(int listener, struct notif_buf *b)
{
	memset(b->req, 0, b->req_size);
	return read(listener, b->req, b->req_size) < 0 ? -errno : 0;
}

int notif_send_rw(int listener, uint64_t id, int64_t val)
{
	struct seccomp_notif_rw_resp resp = {
		.id = id, .size = SECCOMP_NOTIF_RW_RESP_SIZE_VER0, .val = val,
	};

	return write(listener, &resp, sizeof(resp)) < 0 ? -errno : 0;
}

int notif_id_valid(int listener, uint64_t id)
{
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) ? -errno : 0;
}

int notif_set_sync_wakeup(int listener)
{
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) ? -errno : 0;
}

int notif_ptrace_listener(pid_t pid, unsigned long nth)
{
	int status, err;
	long fd;

	if (ptrace(PTRACE_ATTACH, pid, 0, 0))
		return -errno;
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	fd = ptrace(PTRACE_SECCOMP_GET_LISTENER, pid, nth, 0);
	err = errno;
	ptrace(PTRACE_DETACH, pid, 0, 0);
	return fd < 0 ? -err : (int)fd;
}
