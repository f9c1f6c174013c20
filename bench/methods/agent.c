// SPDX-License-Identifier: GPL-2.0
/*
 * What a seccomp agent adds to the bare round trip before it can act on a
 * call: reading the path the call names out of the target, and checking
 * that the notification is still the one it read it for. The target traps
 * mknodat(AT_FDCWD, PATH, S_IFCHR, 1:3) (the seeds' scenario); the
 * supervisor reads PATH and replies BENCH_MAGIC only when it read exactly
 * the path the target passed (else EPROTO, which fails the run):
 *
 *   agent/read-mem           open /proc/PID/mem, pread, close: what many agents do
 *                            (it reads through PROT_NONE, see lib/seccomp/target_mem.h)
 *   agent/read-vm            process_vm_readv (lib/seccomp/target_mem.h's read)
 *   agent/read-vm/id-valid   the same, then SECCOMP_IOCTL_NOTIF_ID_VALID: the
 *                            read is known to be the waiting call's (TOCTOU)
 *   agent/mknod-fork         the same, then the node made as the target would
 *                            make it (lib/seccomp/mknod_as.c: a forked helper in its
 *                            namespaces with its credentials, knotif-run
 *                            --emulate=mknod's way) and removed again
 *   agent/mknod-exec         the same, the helper exec'ing knotif-bench itself per
 *                            call to do it, as Incus re-execs itself (forkmknod)
 *   agent/mknod-pool         the same, the node made by a helper kept for the
 *                            thread's context (lib/seccomp/mknod_pool.h: knotif-run
 *                            --emulate=mknod's way): the context still taken
 *                            from /proc each call, the helper forked once, and
 *                            the helper answers; the target removes the node
 *                            (as native-mknodat does: in the round trip too)
 *   agent/mknod-root         read-vm/id-valid, then the supervisor makes the
 *                            node itself, as root where it stands, and removes
 *                            it: the work no emulation can skip (its limit)
 *   agent/mknod-root/context mknod-root, after taking the thread's context from
 *                            /proc as the pool does every call (mknod_pool_context()):
 *                            the floor of any way that checks the context per call
 *                            and acts where the supervisor stands (a helper's hop,
 *                            and its act, come on top)
 *   agent/native-mknodat     no interception: the target (root) makes the node
 *                            and removes it, as the host does it
 *
 * And what an emulation that answers with data pays to write it: the target
 * traps sysinfo(2), the supervisor writes a struct sysinfo into its buffer
 * and replies BENCH_MAGIC (the target checks both):
 *
 *   agent/write-vm           SECCOMP_IOCTL_NOTIF_ID_VALID, then one
 *                            process_vm_writev (what many agents do; the pid
 *                            could be reused between the two)
 *   agent/write-mem          knotif-run's way (lib/seccomp/target_mem.h): /proc/PID and
 *                            its mem opened, ID_VALID, the buffer checked
 *                            against /proc/PID/maps, pwrite
 *
 * agent/mknod-fork and agent/mknod-pool also time their steps (lib/seccomp/as_target.h's
 * and lib/seccomp/mknod_pool.h's moments): each is a counter step:<name>_ns, the mean
 * per call, so the row says where its way's cost goes (the pool's helper
 * answers the target after its report).
 *
 * Beside unotif/async/emulate, each row's difference is that step's cost.
 * The reads are written here, not through lib/seccomp/target_mem.h: they are what is
 * priced, each system call alone. analysis/workloads/device-tree prices the
 * node on real work.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "as_target.h"
#include "common.h"
#include "fdpass.h"
#include "filter.h"
#include "mknod_as.h"
#include "mknod_pool.h"
#include "notif.h"
#include "target_mem.h"

#define AGENT_PATH_MAX 256

enum path_read { READ_PROC_MEM, READ_VM };
enum answer_write { WRITE_NONE, WRITE_VM, WRITE_MEM };

/* what the write rows put in the target's struct sysinfo: the target checks it */
#define AGENT_TOTALRAM 0x4b4e4f5452414dUL	/* "KNOTRAM" */

struct agent_variant {
	enum path_read read;
	bool id_valid;
	bool make_node;			/* the node made (by the variant's way), then removed */
	bool pool;			/* through lib/seccomp/mknod_pool.h's helpers */
	bool exec;			/* the per-call helper execs /proc/self/exe */
	bool by_root;			/* the supervisor makes it itself (no helper, no target context) */
	bool context;			/* by_root, after taking the thread's context as the pool does */
	bool native;			/* no interception: the target makes and removes it */
	enum answer_write write;	/* the target traps sysinfo: the answer written so */
};

struct agent_state {
	int sock[2];			/* target -> supervisor: the listener */
	char dir[AGENT_PATH_MAX - 8];	/* a private folder (mkdtemp in $TMPDIR or /tmp), removed at the end */
	char path[AGENT_PATH_MAX];	/* dir/null: made by the node rows, and removed */
	struct sysinfo answer;		/* the target's buffer in the write rows */
};

static long trapped_nr(const struct bench *b);

static const struct agent_variant *variant(const struct bench *b)
{
	return b->m->variant;
}

static int sup_prepare(struct bench *b)
{
	struct agent_state *s = b->state;
	const char *tmp = getenv("TMPDIR");
	int n;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, s->sock))
		return -errno;
	if (!tmp || !*tmp)
		tmp = "/tmp";
	n = snprintf(s->dir, sizeof(s->dir), "%s/knotif-agent.XXXXXX", tmp);
	if (n < 0 || (size_t)n >= sizeof(s->dir))
		return -ENAMETOOLONG;
	if (!mkdtemp(s->dir))
		return -errno;
	snprintf(s->path, sizeof(s->path), "%s/null", s->dir);
	return 0;
}

static int target_setup(struct bench *b)
{
	struct agent_state *s = b->state;
	int nr = (int)trapped_nr(b), listener, ret;

	if (variant(b)->native)
		return 0;
	close(s->sock[0]);
	listener = filter_install(&nr, 1, SECCOMP_RET_USER_NOTIF, SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (listener < 0)
		return listener;
	ret = fd_send(s->sock[1], listener);
	close(listener);
	close(s->sock[1]);
	return ret;
}

static long trapped_nr(const struct bench *b)
{
	return variant(b)->write ? SYS_sysinfo : SYS_mknodat;
}

static long call(struct bench *b)
{
	struct agent_state *s = b->state;
	long ret;

	if (variant(b)->write) {
		s->answer.totalram = 0;
		return syscall(SYS_sysinfo, &s->answer);
	}
	ret = syscall(SYS_mknodat, AT_FDCWD, s->path, S_IFCHR | 0600, makedev(1, 3));

	/*
	 * natively, the cleanup the supervisor does in the other rows: in the round
	 * trip too; and where the helper answers, the supervisor has not run yet
	 */
	if ((variant(b)->native && ret == 0) || (variant(b)->pool && ret == BENCH_MAGIC))
		if (unlink(s->path))
			return -errno;
	return ret;
}

static int check(struct bench *b, long ret)
{
	if (variant(b)->native) {
		if (ret == 0)
			return 0;
		return bench_fail(b, "mknodat and unlink of %s returned %ld (errno %d)",
				  ((struct agent_state *)b->state)->path, ret, errno);
	}
	if (variant(b)->write && ret == BENCH_MAGIC &&
	    ((struct agent_state *)b->state)->answer.totalram != AGENT_TOTALRAM)
		return bench_fail(b, "sysinfo returned the emulated value, and its buffer holds totalram %lu, "
				  "not the answer written", ((struct agent_state *)b->state)->answer.totalram);
	if (ret == BENCH_MAGIC)
		return 0;
	return bench_fail(b, "mknodat returned %ld, not %ld: the agent did not read the path the "
			  "target passed", ret, BENCH_MAGIC);
}

static void target_finish(struct bench *b)
{
	if (!variant(b)->native)
		syscall(trapped_nr(b), BENCH_STOP_COOKIE, NULL, 0, 0);
}

/* The target's path into buf (AGENT_PATH_MAX bytes, NUL-terminated): 0 or -errno. */
static int read_path(const struct agent_variant *v, const struct seccomp_notif *req, char *buf)
{
	ssize_t n;

	if (v->read == READ_PROC_MEM) {
		char file[64];
		int fd;

		snprintf(file, sizeof(file), "/proc/%u/mem", req->pid);
		fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		n = pread(fd, buf, AGENT_PATH_MAX - 1, (off_t)req->data.args[1]);
		close(fd);
	} else {
		struct iovec local = { buf, AGENT_PATH_MAX - 1 };
		struct iovec remote = { (void *)(uintptr_t)req->data.args[1], AGENT_PATH_MAX - 1 };

		n = process_vm_readv((pid_t)req->pid, &local, 1, &remote, 1, 0);
	}
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/*
 * The node, as the target would make it, then gone again: 0 or the errno;
 * -ENOENT: the target left. *answered: a pool's helper answered the call
 * (BENCH_MAGIC or the errno), and the target removes the node.
 */
static int make_node(struct bench *b, struct mknod_pool *pool, int listener,
		     const struct seccomp_notif *req, const char *path, bool *answered)
{
	const struct agent_variant *v = variant(b);
	int64_t at[AS_AT_COUNT] = { 0 };
	struct mknod_as as = { .tid = (pid_t)req->pid, .dirfd = AT_FDCWD, .path = path,
			       .mode = S_IFCHR | 0600, .major = 1, .minor = 3, .at = b->m->steps ? at : NULL };
	char why[160];
	int ret = 0;

	if (v->by_root) {
		struct mknod_context ctx;

		if (v->context)
			ret = mknod_pool_context(listener, req->id, &as, &ctx, why, sizeof(why));
		if (!ret && mknodat(AT_FDCWD, path, as.mode, makedev(as.major, as.minor))) {
			ret = errno;
			snprintf(why, sizeof(why), "mknodat: %s", strerror(ret));
		}
	} else if (v->exec)
		ret = mknod_as_exec(listener, req->id, &as, "/proc/self/exe", why, sizeof(why));
	else if (!v->pool)
		ret = mknod_as(listener, req->id, &as, why, sizeof(why));
	else {
		int64_t pool_at[POOL_AT_COUNT] = { 0 };
		struct mknod_pool_act act = { .answer = true, .val = BENCH_MAGIC, .at = b->m->steps ? pool_at : NULL };

		uint64_t made = pool->made;

		ret = mknod_pool_start(pool, listener, req->id, &as, &act, why, sizeof(why));
		if (!ret)
			ret = mknod_pool_finish(pool, &act, why, sizeof(why));
		*answered = act.answered;
		/*
		 * The steps of a helper's calls, not of its start (the first call,
		 * in the warm-up): the helper answers before these are added, so
		 * the target may already time the next repetition when they are
		 */
		if (!ret && b->m->steps && pool->made == made)
			bench_steps_add(b, pool_at, POOL_AT_COUNT - 1);
	}
	if (ret == 0 && !*answered && unlink(path)) {
		ret = errno;
		snprintf(why, sizeof(why), "unlink: %s", strerror(ret));
	}
	if (ret > 0)	/* the run's first failure, said once, where the harness says it */
		bench_fail(b, "%s: making the node: %s", b->m->name, why);
	else if (ret == 0 && b->m->steps && !v->pool)
		bench_steps_add(b, at, AS_AT_COUNT - 1);	/* the unlink is the supervisor's, not the act's */
	return ret;
}

/* The write rows' answer into the target's struct sysinfo: 0, or -errno (-ENOENT: it left). */
static int write_answer(const struct agent_variant *v, int listener, const struct seccomp_notif *req)
{
	struct sysinfo si = { .totalram = AGENT_TOTALRAM };
	struct target_mem m;
	int ret;

	if (v->write == WRITE_VM) {
		struct iovec local = { &si, sizeof(si) };
		struct iovec remote = { (void *)(uintptr_t)req->data.args[0], sizeof(si) };

		ret = notif_id_valid(listener, req->id);
		if (!ret && process_vm_writev((pid_t)req->pid, &local, 1, &remote, 1, 0) != (ssize_t)sizeof(si))
			ret = -errno;
		return ret;
	}
	ret = target_mem_open_rw(&m, listener, req->id, (pid_t)req->pid);
	if (ret)
		return ret;
	ret = target_mem_write(&m, req->data.args[0], &si, sizeof(si));
	target_mem_close(&m);
	return ret;
}

/* One call: read the path, check it is the waiting call's, make the node; reply. */
static int answer(struct bench *b, int listener, struct notif_buf *buf, bool stop, void *ctx)
{
	const struct agent_variant *v = variant(b);
	const struct seccomp_notif *req = buf->req;
	struct agent_state *s = b->state;
	char got[AGENT_PATH_MAX];
	bool answered = false;
	int ret, error = 0;

	if (!stop && v->write) {
		ret = write_answer(v, listener, req);
		if (ret == -ENOENT)
			return 0;	/* the target left the call: nothing to answer */
		error = -ret;
	} else if (!stop) {
		ret = read_path(v, req, got);
		if (!ret && v->id_valid)
			ret = notif_id_valid(listener, req->id);
		if (!ret && strcmp(got, s->path))
			ret = -EPROTO;
		if (!ret && v->make_node)
			ret = make_node(b, ctx, listener, req, got, &answered);
		if (ret == -ENOENT || answered)
			return 0;	/* the target left the call, or the helper answered it */
		error = ret < 0 ? -ret : ret;
	}
	return notif_send_emulate(listener, buf, req->id, BENCH_MAGIC, error);
}

static int supervise(struct bench *b)
{
	struct agent_state *s = b->state;
	struct mknod_pool *pool = calloc(1, sizeof(*pool));
	int listener, ret;

	if (variant(b)->native) {	/* nothing to serve: wait for the target, then clean up */
		close(s->sock[0]);
		close(s->sock[1]);
		while (waitpid(b->target_pid, &b->target_status, 0) < 0)
			if (errno != EINTR)
				return -errno;
		b->target_reaped = true;
		unlink(s->path);
		rmdir(s->dir);
		return 0;
	}

	close(s->sock[1]);
	listener = fd_recv(s->sock[0]);
	close(s->sock[0]);
	if (listener < 0 || !pool) {
		free(pool);
		return listener < 0 ? listener : -ENOMEM;
	}
	watch_target_exit();
	ret = serve_notifications(b, listener, false, answer, pool);
	close(listener);
	mknod_pool_end(pool);
	if (pool->made > 1)	/* one thread, one context: every call after the first is a helper's next */
		ret = ret ? ret : bench_fail(b, "%s: %llu helpers started for one thread", b->m->name,
					     (unsigned long long)pool->made);
	free(pool);
	unlink(s->path);	/* a call that escaped interception (the check failed it) */
	rmdir(s->dir);
	return ret;
}

/* lib/seccomp/as_target.h's moments, in order: step i runs from moment i to i + 1 */
static const char *const fork_steps[] = {
	"take", "pipe", "fork", "pdeath", "cgroups", "setns", "chroot", "creds", "caps", "act", "report", "reap",
	NULL,
};
_Static_assert(sizeof(fork_steps) / sizeof(fork_steps[0]) == AS_AT_COUNT, "one step between two moments");

/* lib/seccomp/mknod_pool.h's moments: the same */
static const char *const pool_steps[] = { "take", "hand", "act", "report", NULL };
_Static_assert(sizeof(pool_steps) / sizeof(pool_steps[0]) == POOL_AT_COUNT, "one step between two moments");

/*
 * The node rows make device nodes as root (milliseconds a call for the
 * helpers): run when a --benchmark_filter names them
 */
#define AGENT(method_name, feature2, ...) AGENT_KIND(method_name, KIND_UNOTIF, feature2, NULL, __VA_ARGS__)
#define AGENT_KIND(method_name, method_kind, feature2, step_names, ...)         \
	(&(const struct method){                                              \
		.name = method_name,                                          \
		.kind = method_kind,                                          \
		.trace_kind = method_kind == KIND_UNOTIF ? "unotif" : NULL,   \
		.steps = step_names,                                          \
		.needs = { FEAT_USER_NOTIF, feature2, FEAT_COUNT },           \
		.on_request = feature2 == FEAT_AS_TARGET,                      \
		.variant = &(const struct agent_variant){ __VA_ARGS__ },      \
		.state_size = sizeof(struct agent_state),                     \
		.sup_prepare = sup_prepare,                                   \
		.target_setup = target_setup,                                 \
		.call = call,                                                 \
		.check = check,                                               \
		.target_finish = target_finish,                               \
		.supervise = supervise,                                       \
	})

const struct method *const agent_methods[] = {
	AGENT("agent/read-mem", FEAT_COUNT, .read = READ_PROC_MEM),
	AGENT("agent/read-vm", FEAT_COUNT, .read = READ_VM),
	AGENT("agent/read-vm/id-valid", FEAT_COUNT, .read = READ_VM, .id_valid = true),
	AGENT_KIND("agent/mknod-fork", KIND_UNOTIF, FEAT_AS_TARGET, fork_steps, .read = READ_VM, .id_valid = true,
		   .make_node = true),
	AGENT("agent/mknod-exec", FEAT_AS_TARGET, .read = READ_VM, .id_valid = true, .make_node = true,
	      .exec = true),
	AGENT_KIND("agent/mknod-pool", KIND_UNOTIF, FEAT_AS_TARGET, pool_steps, .read = READ_VM, .id_valid = true,
		   .make_node = true, .pool = true),
	AGENT("agent/mknod-root", FEAT_AS_TARGET, .read = READ_VM, .id_valid = true, .make_node = true,
	      .by_root = true),
	AGENT("agent/mknod-root/context", FEAT_AS_TARGET, .read = READ_VM, .id_valid = true, .make_node = true,
	      .by_root = true, .context = true),
	AGENT_KIND("agent/native-mknodat", KIND_IN_KERNEL, FEAT_AS_TARGET, NULL, .native = true),
	AGENT("agent/write-vm", FEAT_COUNT, .write = WRITE_VM),
	AGENT("agent/write-mem", FEAT_COUNT, .write = WRITE_MEM),
	NULL,
};
