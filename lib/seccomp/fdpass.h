/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_FDPASS_H
#define KNOTIF_FDPASS_H

/*
 * Hand a file descriptor to another process over an AF_UNIX socket with
 * SCM_RIGHTS, as container runtimes hand a seccomp listener to their agent.
 * Both return -errno on failure; fd_recv returns the new descriptor.
 */
int fd_send(int sock, int fd);
int fd_recv(int sock);

#endif
