// SPDX-License-Identifier: GPL-2.0
/*
 * unotif-roundtrip: the smallest harness for vm-bench's A/B runs, beside
 * knotif-bench (which runs the v3 variants, unotif/rw and
 * unotif/ptrace-listener, with the mainline ones):
 *
 *   unotif/ioctl/emulate          mainline: NEW_LISTENER + NOTIF_RECV/SEND
 *   syscall/getppid/native        the same syscall without a filter
 *
 * The target times each trapped getppid() with CLOCK_MONOTONIC on its own
 * side; supervisor and target are pinned to the same CPU (placement:same),
 * or with --placement=cross the target to CPU 1 and the supervisor to CPU 0
 * (placement:cross: vm-bench and vm-gb-check with PLACEMENT=cross).
 * Output: Google Benchmark JSON (lib/gbjson), one iteration row per
 * repetition with the latency counters every knotif tool writes (gbjson.h: min, p50 ...
 * p999, max, stddev), then mean/median/stddev/cv.
 * A kernel without a variant gives an error row "unsupported: <reason>".
 *
 * Usage: unotif-roundtrip [--samples=N] [--benchmark_repetitions=N]
 *                         [--benchmark_out=FILE] [--benchmark_filter=SUBSTR]
 *                         [--supervisor-work=N] [--placement=same|cross]
 *
 * --supervisor-work=N models a supervisor's decision: N turns of an empty
 * loop before each reply, a fixed number of instructions under -icount. The
 * deterministic gate's check (make -f Makefile.kernel vm-gb-check) makes a
 * supervisor slower by a known share with it; row names do not change.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "check.h"
#include "clock.h"
#include "cpu.h"
#include "flags.h"
#include "gbjson.h"
#include "stats.h"

#define REPLY_VAL 42
#define WARMUP 2000
#define MAX_REPS KBENCH_MAX_REPS

enum variant { V_NATIVE, V_IOCTL };

static const char *const names[] = {
	[V_NATIVE] = "syscall/getppid/native",
	[V_IOCTL] = "unotif/ioctl/emulate",
};
static bool opt_cross;	/* --placement=cross: the target on CPU 1 */

struct shared {
	int64_t cpu_ns[MAX_REPS];
	int failed;		/* the target saw a wrong return value */
	int64_t samples[];	/* reps * samples, ns */
};

static int trap_getppid(unsigned int flags)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

static int send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	char c = 'F';
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -errno;
}

static int recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	char c;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -EPROTO;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (!cmsg || cmsg->cmsg_type != SCM_RIGHTS)
		return -EPROTO;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	return fd;
}

/* The target: set up, wait for 'G', then time every getppid(). */
static void target(enum variant v, int sock, struct shared *sh, int reps,
		   int samples)
{
	long expect = v == V_NATIVE ? (long)getppid() : REPLY_VAL;
	int i, r, listener;
	char c;

	if (v == V_IOCTL) {
		listener = trap_getppid(SECCOMP_FILTER_FLAG_NEW_LISTENER);
		if (listener < 0 || send_fd(sock, listener))
			_exit(2);
		close(listener);
	}
	if (opt_cross && pin_to(1))
		_exit(4);
	if (write(sock, "R", 1) != 1 || read(sock, &c, 1) != 1 || c != 'G')
		_exit(3);

	for (i = 0; i < WARMUP; i++)
		if (syscall(__NR_getppid) != expect)
			sh->failed = 1;
	for (r = 0; r < reps; r++) {
		int64_t *s = sh->samples + (size_t)r * samples;
		int64_t c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);

		for (i = 0; i < samples; i++) {
			int64_t t0 = clock_ns(CLOCK_MONOTONIC);
			long ret = syscall(__NR_getppid);

			s[i] = clock_ns(CLOCK_MONOTONIC) - t0;
			if (ret != expect)
				sh->failed = 1;
		}
		sh->cpu_ns[r] = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
	}
	_exit(sh->failed ? 4 : 0);
}

static long opt_supervisor_work;	/* --supervisor-work */

static int serve_ioctl(int listener, long n)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	long k;

	while (n-- > 0) {
		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req))
			return -errno;
		for (k = 0; k < opt_supervisor_work; k++)
			__asm__ volatile("" ::: "memory");	/* kept, one turn at a time */
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.val = REPLY_VAL;
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp))
			return -errno;
	}
	return 0;
}

/*
 * Run one variant. Returns 0 with the samples in @sh, 1 when unsupported
 * (@why says why), -1 on failure (@why says why).
 */
static int run(enum variant v, struct shared *sh, int reps, int samples,
	       char *why, size_t len)
{
	long total = WARMUP + (long)reps * samples;
	int sock[2], listener = -1, status, ret = 0;
	pid_t pid;
	char c;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sock)) {
		snprintf(why, len, "socketpair: %s", strerror(errno));
		return -1;
	}
	sh->failed = 0;
	pid = fork();
	if (pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		close(sock[0]);
		target(v, sock[1], sh, reps, samples);
	}
	close(sock[1]);

	if (v == V_IOCTL) {
		listener = recv_fd(sock[0]);
		if (listener < 0) {
			snprintf(why, len, "no listener from the target");
			ret = -1;
			goto out_kill;
		}
	}
	if (read(sock[0], &c, 1) != 1 || c != 'R') {
		snprintf(why, len, "target setup failed");
		ret = -1;
		goto out_kill;
	}
	if (write(sock[0], "G", 1) != 1) {
		snprintf(why, len, "cannot start the target");
		ret = -1;
		goto out_kill;
	}

	if (v == V_IOCTL)
		ret = serve_ioctl(listener, total);
	if (ret) {
		snprintf(why, len, "supervisor: %s", strerror(-ret));
		ret = -1;
		goto out_kill;
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		snprintf(why, len, "target failed (status 0x%x)", status);
		ret = -1;
	}
	goto out;

out_kill:
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
out:
	if (listener >= 0)
		close(listener);
	close(sock[0]);
	return ret;
}

static void add_rows(json_t *rows, int family, const char *name,
		     struct shared *sh, int reps, int samples)
{
	double real[MAX_REPS], cpu[MAX_REPS];
	struct summary s;
	int r;

	for (r = 0; r < reps; r++) {
		int64_t *v = sh->samples + (size_t)r * samples;
		json_t *row;

		summarize(v, samples, &s);
		real[r] = s.mean;
		cpu[r] = (double)sh->cpu_ns[r] / samples;
		row = gb_iteration(name, family, r, reps, samples, real[r], cpu[r]);
		gb_latency_counters(row, &s);
		json_array_append_new(rows, row);
	}
	json_array_append_new(rows, gb_aggregate(name, family, "mean", reps, samples,
						 mean_of(real, reps), mean_of(cpu, reps)));
	json_array_append_new(rows, gb_aggregate(name, family, "median", reps, samples,
						 median_of(real, reps), median_of(cpu, reps)));
	json_array_append_new(rows, gb_aggregate(name, family, "stddev", reps, samples,
						 stddev_of(real, reps), stddev_of(cpu, reps)));
	json_array_append_new(rows, gb_aggregate(name, family, "cv", reps, samples,
						 mean_of(real, reps) ? stddev_of(real, reps) / mean_of(real, reps) : 0,
						 mean_of(cpu, reps) ? stddev_of(cpu, reps) / mean_of(cpu, reps) : 0));
}

static const char usage_text[] =
	"Usage: unotif-roundtrip [--samples=N] [--benchmark_repetitions=N] [--benchmark_out=FILE]\n"
	"                        [--benchmark_filter=SUBSTR] [--supervisor-work=N]\n"
	"                        [--placement=same|cross]\n"
	"The mainline notification round trip against getppid() without a filter, same CPU\n"
	"(defaults: 2000 samples, 5 repetitions), or cross: the target on CPU 1, the\n"
	"supervisor on CPU 0. --supervisor-work=N: the supervisor turns an empty loop N\n"
	"times before each reply (a decision's cost; default 0).\n";

static const char *opt_filter;	/* --benchmark_filter */

static bool own_option(int c, const char *arg)
{
	switch (c) {
	case 'f':
		opt_filter = arg;
		return true;
	case 'w':
		opt_supervisor_work = cli_int("--supervisor-work", arg, 0, 100000000);
		return true;
	case 'p':
		if (strcmp(arg, "same") && strcmp(arg, "cross"))
			usage_error("invalid value for --placement: '%s' (expected same or cross)", arg);
		opt_cross = !strcmp(arg, "cross");
		return true;
	default:
		return false;
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		KBENCH_LONGOPTS,
		{ "benchmark_filter", required_argument, NULL, 'f' },
		{ "supervisor-work", required_argument, NULL, 'w' },
		{ "placement", required_argument, NULL, 'p' },
		{ 0 }
	};
	struct kbench_flags f = { .samples = 2000, .reps = 5, .out = GB_OUTPUT_DEFAULT };
	const char *filter;
	int samples, reps, v, err = 0;
	json_t *ctx, *rows;
	struct shared *sh;
	size_t size;

	knotif_prog = "unotif-roundtrip";
	kbench_setup(&f, argc, argv, opts, usage_text, own_option);
	samples = f.samples;
	reps = f.reps;
	filter = opt_filter;

	size = sizeof(*sh) + sizeof(int64_t) * (size_t)reps * samples;
	sh = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("unotif-roundtrip: mmap");
		return 1;
	}
	ctx = gb_context(argc, argv);
	rows = json_array();

	printf("%-48s %12s %12s %12s %8s\n", "# benchmark", "mean ns", "p50 ns", "p99 ns", "cv");
	for (v = V_NATIVE; v <= V_IOCTL; v++) {
		char why[256] = "", name[96];
		int ret;

		snprintf(name, sizeof(name), "%s/placement:%s", names[v], opt_cross ? "cross" : "same");
		if (filter && !strstr(name, filter))
			continue;
		if (opt_cross && sysconf(_SC_NPROCESSORS_ONLN) < 2) {
			snprintf(why, sizeof(why), "unsupported: --placement=cross needs two CPUs");
			fprintf(stderr, "%s: %s\n", name, why);
			json_array_append_new(rows, gb_error(name, v, why));
			continue;
		}
		ret = run(v, sh, reps, samples, why, sizeof(why));
		if (ret) {
			fprintf(stderr, "%s: %s\n", name, why);
			json_array_append_new(rows, gb_error(name, v, why));
			if (ret < 0)
				err = 1;
			continue;
		}
		add_rows(rows, v, name, sh, reps, samples);
		{
			struct summary all;
			double m[MAX_REPS];
			int r;

			for (r = 0; r < reps; r++) {
				summarize(sh->samples + (size_t)r * samples, samples, &all);
				m[r] = all.mean;
			}
			summarize(sh->samples, (size_t)reps * samples, &all);
			printf("%-48s %12.1f %12.1f %12.1f %7.4f%%\n", name,
			       mean_of(m, reps), all.p50, all.p99,
			       100 * stddev_of(m, reps) / mean_of(m, reps));
		}
	}

	gb_output_write(&f.out, ctx, rows, NULL, NULL);	/* the table is out already */
	json_decref(ctx);
	json_decref(rows);
	return err;
}
