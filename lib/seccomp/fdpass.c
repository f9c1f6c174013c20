// SPDX-License-Identifier: GPL-2.0
#include "fdpass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

/* What both ends exchange: one byte of data and room for one descriptor. */
struct fd_msg {
	char byte;
	struct iovec iov;
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct msghdr msg;
};

static void fd_msg_init(struct fd_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->byte = 'F';
	m->iov = (struct iovec){ .iov_base = &m->byte, .iov_len = 1 };
	m->msg = (struct msghdr){
		.msg_iov = &m->iov, .msg_iovlen = 1,
		.msg_control = m->ctl.buf, .msg_controllen = sizeof(m->ctl.buf),
	};
}

int fd_send(int sock, int fd)
{
	struct fd_msg m;
	struct cmsghdr *cmsg;

	fd_msg_init(&m);
	cmsg = CMSG_FIRSTHDR(&m.msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	if (sendmsg(sock, &m.msg, MSG_NOSIGNAL) != 1)
		return -errno;
	return 0;
}

int fd_recv(int sock)
{
	struct fd_msg m;
	struct cmsghdr *cmsg;
	ssize_t n;
	int fd;

	fd_msg_init(&m);
	n = recvmsg(sock, &m.msg, MSG_CMSG_CLOEXEC);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -EPIPE;	/* the sender went away without a descriptor */
	cmsg = CMSG_FIRSTHDR(&m.msg);
	if (!cmsg || cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS ||
	    cmsg->cmsg_len != CMSG_LEN(sizeof(int)))
		return -EBADMSG;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	return fd;
}
