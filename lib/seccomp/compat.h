/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uapi constants newer than the build host's headers (Debian 12 ships 6.1).
 * Every one of them is also probed at run time (kernel_features.c): defining a
 * constant here says nothing about whether the running kernel knows it.
 */
#ifndef KNOTIF_COMPAT_H
#define KNOTIF_COMPAT_H

#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>

/* 5.19 */
#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif

/* 5.14 */
#ifndef SECCOMP_ADDFD_FLAG_SEND
#define SECCOMP_ADDFD_FLAG_SEND (1UL << 1)
#endif

/* 6.6: synchronous wake-up of the supervisor on the target's CPU */
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif

/* 5.11: Syscall User Dispatch */
#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#endif
#ifndef PR_SYS_DISPATCH_OFF
#define PR_SYS_DISPATCH_OFF 0
#endif
#ifndef PR_SYS_DISPATCH_ON
#define PR_SYS_DISPATCH_ON 1
#endif
#ifndef SYSCALL_DISPATCH_FILTER_ALLOW
#define SYSCALL_DISPATCH_FILTER_ALLOW 0
#endif
#ifndef SYSCALL_DISPATCH_FILTER_BLOCK
#define SYSCALL_DISPATCH_FILTER_BLOCK 1
#endif
/* si_code of the SIGSYS that Syscall User Dispatch raises */
#ifndef SYS_USER_DISPATCH
#define SYS_USER_DISPATCH 2
#endif

/*
 * Never merged: the 2018 series' interfaces as the RFC part of the knotif
 * kernel series (kernel/patches/rfc) carries them on 6.12. Stock kernels
 * answer EINVAL to a read on a listener and EIO to the ptrace request;
 * knotif reports both as unsupported.
 */
/*
 * rfc/0002: a tracer takes a listener for its stopped tracee's filter
 * number addr. 0x4213: 0x4212 is PTRACE_SET_SYSCALL_INFO since Linux 6.16.
 * The probe (FEAT_PTRACE_LISTENER) asks for a throwaway child's listener and
 * counts only an answer that is a listener.
 */
#ifndef PTRACE_SECCOMP_GET_LISTENER
#define PTRACE_SECCOMP_GET_LISTENER 0x4213
#endif
/*
 * rfc/0003, CONFIG_SECCOMP_USER_NOTIF_RW: read() struct seccomp_notif, write()
 * these records, one or (rfc/0005) many; each says its own size. v3's
 * return_fd is gone (write() never passes the writer's fds: ADDFD does).
 */
#ifndef SECCOMP_NOTIF_RW_RESP_SIZE_VER0
#define SECCOMP_NOTIF_RW_RESP_SIZE_VER0 24
struct seccomp_notif_rw_resp {
	__u64 id;
	__s32 error;
	__u32 size;		/* SECCOMP_NOTIF_RW_RESP_SIZE_VER0 */
	__s64 val;
};
#endif

#endif
