// SPDX-License-Identifier: GPL-2.0
/*
 * A FUSE filesystem whose path lookups a test can hold: while one is held,
 * the act that walked into it (knotif-run's helper doing a mknodat, or a
 * mount onto one of its directories) sits blocked inside the kernel for as
 * long as the test wants, and the test does what it likes to the
 * supervisor, the helper or the target meanwhile.
 *
 *   stall_fs CONTROL_DIR MOUNTPOINT [fuse options...]
 *
 * Runs in the foreground, multithreaded (several held requests at once),
 * mounted allow_other,default_permissions,dev,suid,fsname=stall_fs: as root.
 * Exits 0 when SIGTERM, SIGINT or an unmount ends it, 1 when libfuse could
 * not set up or mount, 2 on bad usage.
 *
 * The tree lives in memory: directories, and nodes of any type mknod(2)
 * makes, with their mode, rdev and owner and nothing behind them. The root
 * is a directory 0777 owned by root. The kernel caches nothing (entry,
 * attribute and negative timeouts of 0): every walk through a name asks
 * again, and every lookup reaches getattr here.
 *
 * CONTROL_DIR, on some other filesystem, holds:
 *   hold        made and removed by the test. While it exists, getattr of
 *               any path whose last component begins with "stall" waits,
 *               polling every 10 ms, until it is gone, then answers from the
 *               tree. A hang guard: after 120 s, or as soon as the server is
 *               exiting, it answers EIO instead.
 *   blocked     written here: how many requests wait now ("N\n")
 *   held_total  written here: how many ever waited
 * The counts are replaced by rename(2), never rewritten in place, so a
 * reader sees a whole number; both are 0 before the mount is made.
 */
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define MAX_NODES	256
#define POLL_NS		(10 * 1000 * 1000L)
#define HOLD_LIMIT_S	120
#define STALL_PREFIX	"stall"
#define BLOCK_SIZE	4096
/* fuse_main's "the loop ended with an error": how libfuse 3.10 on reports a signal */
#define FUSE_MAIN_LOOP_ENDED	8

struct node {
	char path[PATH_MAX];	/* "" marks a free slot */
	mode_t mode;
	dev_t rdev;
	uid_t uid;
	gid_t gid;
};

/* slot 0 is the root, always there */
static struct node nodes[MAX_NODES] = {
	[0] = { .path = "/", .mode = S_IFDIR | 0777 },
};
static pthread_mutex_t nodes_lock = PTHREAD_MUTEX_INITIALIZER;

/* requests waiting now and ever; the lock also keeps the count files' writers apart */
static unsigned long blocked_now, held_total;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static char control_dir[PATH_MAX];

/* CONTROL_DIR/NAME into buf, PATH_MAX long */
static int control_path(char *buf, const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", control_dir, name);

	return n < PATH_MAX ? 0 : -ENAMETOOLONG;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * CONTROL_DIR/NAME becomes VALUE and a newline: written whole to NAME.tmp,
 * then renamed over NAME, so a test polling it never reads half a number.
 * Under count_lock (or before any thread): two writers never share NAME.tmp.
 */
static int publish(const char *name, unsigned long value)
{
	char path[PATH_MAX], tmp[PATH_MAX], text[24];
	int fd, len, err;

	err = control_path(path, name);
	if (err)
		goto out;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		err = -ENAMETOOLONG;
		goto out;
	}
	len = snprintf(text, sizeof(text), "%lu\n", value);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	err = write_all(fd, text, (size_t)len);
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
out:
	if (err)
		fprintf(stderr, "stall_fs: cannot write %s/%s: %s\n", control_dir, name,
			strerrorname_np(-err) ?: "E?");
	return err;
}

/*
 * A request starts or stops waiting. A count that cannot be written is
 * said on stderr and otherwise let be: the hold itself still works, and
 * the test waiting on the count times out with that line to explain it.
 */
static void count_blocked(bool entering)
{
	pthread_mutex_lock(&count_lock);
	if (entering) {
		/* the total first: a test that saw "blocked" rise finds this one counted */
		held_total++;
		publish("held_total", held_total);
		blocked_now++;
	} else {
		blocked_now--;
	}
	publish("blocked", blocked_now);
	pthread_mutex_unlock(&count_lock);
}

/* 1 while CONTROL_DIR/hold exists, 0 once it does not, or -errno */
static int hold_present(void)
{
	char path[PATH_MAX];
	struct stat st;
	int err = control_path(path, "hold");

	if (err)
		return err;
	if (!lstat(path, &st))
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

/* the paths a hold applies to: the last component begins with "stall" */
static bool is_stall_path(const char *path)
{
	const char *name = strrchr(path, '/');

	name = name ? name + 1 : path;
	return !strncmp(name, STALL_PREFIX, strlen(STALL_PREFIX));
}

/*
 * SIGTERM, SIGINT or an unmount ends the session, and libfuse then joins
 * every worker before it unmounts: one still waiting here would hold the
 * exit up, so it lets go.
 */
static bool server_exiting(void)
{
	struct fuse_context *ctx = fuse_get_context();

	return ctx && ctx->fuse && fuse_session_exited(fuse_get_session(ctx->fuse));
}

static bool reached(const struct timespec *now, const struct timespec *end)
{
	return now->tv_sec > end->tv_sec ||
	       (now->tv_sec == end->tv_sec && now->tv_nsec >= end->tv_nsec);
}

/*
 * Polls until the hold is gone (0). Gives up with -EIO after HOLD_LIMIT_S,
 * so a broken test never leaves processes stuck in this filesystem (once
 * the request is ours, not even SIGKILL frees its caller), or at once when
 * the server is exiting.
 */
static int wait_for_release(const char *path)
{
	const struct timespec tick = { .tv_nsec = POLL_NS };
	struct timespec now, end;
	int held;

	if (clock_gettime(CLOCK_MONOTONIC, &end))
		return -errno;
	end.tv_sec += HOLD_LIMIT_S;
	for (;;) {
		if (nanosleep(&tick, NULL) && errno != EINTR)
			return -errno;
		held = hold_present();
		if (held <= 0)
			return held;
		if (server_exiting())
			return -EIO;
		if (clock_gettime(CLOCK_MONOTONIC, &now))
			return -errno;
		if (reached(&now, &end)) {
			fprintf(stderr, "stall_fs: %s held %d s: answering EIO\n", path,
				HOLD_LIMIT_S);
			return -EIO;
		}
	}
}

/* a getattr the test asked to hold waits here, counted, before it is answered */
static int hold_if_asked(const char *path)
{
	int err;

	if (!is_stall_path(path))
		return 0;
	err = hold_present();
	if (err <= 0)
		return err;
	count_blocked(true);
	err = wait_for_release(path);
	count_blocked(false);
	return err;
}

/* the tree's helpers, all under nodes_lock */

static struct node *find_node(const char *path)
{
	for (int i = 0; i < MAX_NODES; i++) {
		if (nodes[i].path[0] && !strcmp(nodes[i].path, path))
			return &nodes[i];
	}
	return NULL;
}

static struct node *free_slot(void)
{
	for (int i = 0; i < MAX_NODES; i++) {
		if (!nodes[i].path[0])
			return &nodes[i];
	}
	return NULL;
}

/* PATH's name within directory DIR, or NULL when it is not a direct child */
static const char *child_name(const char *dir, const char *path)
{
	size_t len = strcmp(dir, "/") ? strlen(dir) : 0;

	if (strncmp(path, dir, len) || path[len] != '/' || !path[len + 1])
		return NULL;
	if (strchr(path + len + 1, '/'))
		return NULL;
	return path + len + 1;
}

static bool has_children(const char *dir)
{
	for (int i = 0; i < MAX_NODES; i++) {
		if (child_name(dir, nodes[i].path))
			return true;
	}
	return false;
}

/* 0 when PATH's parent is a directory of the tree; PATH is shorter than PATH_MAX */
static int check_parent(const char *path)
{
	char parent[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct node *n;
	size_t len;

	if (!slash)
		return -ENOENT;
	len = slash == path ? 1 : (size_t)(slash - path);
	memcpy(parent, path, len);
	parent[len] = '\0';
	n = find_node(parent);
	if (!n)
		return -ENOENT;
	return S_ISDIR(n->mode) ? 0 : -ENOTDIR;
}

/* mkdir's and mknod's common part: a new node, owned by whoever asked */
static int add_node(const char *path, mode_t mode, dev_t rdev)
{
	struct fuse_context *ctx = fuse_get_context();
	struct node *slot;
	int err;

	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	pthread_mutex_lock(&nodes_lock);
	if (find_node(path)) {
		err = -EEXIST;
		goto out;
	}
	err = check_parent(path);
	if (err)
		goto out;
	slot = free_slot();
	if (!slot) {
		err = -ENOSPC;
		goto out;
	}
	strcpy(slot->path, path);
	slot->mode = mode;
	slot->rdev = rdev;
	slot->uid = ctx->uid;
	slot->gid = ctx->gid;
out:
	pthread_mutex_unlock(&nodes_lock);
	return err;
}

/* unlink and rmdir: each refuses what the other removes, as the kernel's would */
static int remove_node(const char *path, bool dir)
{
	struct node *n;
	int err = 0;

	pthread_mutex_lock(&nodes_lock);
	n = find_node(path);
	if (!n)
		err = -ENOENT;
	else if (dir && !S_ISDIR(n->mode))
		err = -ENOTDIR;
	else if (!dir && S_ISDIR(n->mode))
		err = -EISDIR;
	else if (n == &nodes[0])
		err = -EBUSY;
	else if (has_children(path))
		err = -ENOTEMPTY;
	else
		n->path[0] = '\0';
	pthread_mutex_unlock(&nodes_lock);
	return err;
}

static void fill_stat(const struct node *n, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_mode = n->mode;
	st->st_nlink = S_ISDIR(n->mode) ? 2 : 1;
	st->st_uid = n->uid;
	st->st_gid = n->gid;
	st->st_rdev = n->rdev;
	st->st_blksize = BLOCK_SIZE;
}

/* the operations */

/*
 * Every lookup, every stat and every reply that carries attributes (after
 * mknod, mkdir, chmod, chown) comes through here: the hold sits in front.
 */
static int stall_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	struct node *n;
	int err = hold_if_asked(path);

	if (err)
		return err;
	pthread_mutex_lock(&nodes_lock);
	n = find_node(path);
	if (n)
		fill_stat(n, st);
	pthread_mutex_unlock(&nodes_lock);
	return n ? 0 : -ENOENT;
}

static int stall_mkdir(const char *path, mode_t mode)
{
	return add_node(path, S_IFDIR | (mode & 07777), 0);
}

/* any type, as asked: the tree records it, and no device stands behind it */
static int stall_mknod(const char *path, mode_t mode, dev_t rdev)
{
	if (!(mode & S_IFMT))
		mode |= S_IFREG;	/* what mknod(2) makes of a type of 0 */
	return add_node(path, mode, rdev);
}

static int stall_unlink(const char *path)
{
	return remove_node(path, false);
}

static int stall_rmdir(const char *path)
{
	return remove_node(path, true);
}

/* how a test hands a directory to another user; -1 leaves that half as it is */
static int stall_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi)
{
	struct node *n;

	pthread_mutex_lock(&nodes_lock);
	n = find_node(path);
	if (n) {
		if (uid != (uid_t)-1)
			n->uid = uid;
		if (gid != (gid_t)-1)
			n->gid = gid;
	}
	pthread_mutex_unlock(&nodes_lock);
	return n ? 0 : -ENOENT;
}

static int stall_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	struct node *n;

	pthread_mutex_lock(&nodes_lock);
	n = find_node(path);
	if (n)
		n->mode = (n->mode & S_IFMT) | (mode & 07777);
	pthread_mutex_unlock(&nodes_lock);
	return n ? 0 : -ENOENT;
}

/*
 * All of a directory in one call, from offset 0: the filler then fails
 * only when libfuse runs out of memory for the listing.
 */
static int stall_readdir(const char *path, void *buf, fuse_fill_dir_t filler, off_t off,
			 struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	struct stat st = { 0 };
	const char *name;
	struct node *dir;
	int err = 0;

	pthread_mutex_lock(&nodes_lock);
	dir = find_node(path);
	if (!dir)
		err = -ENOENT;
	else if (!S_ISDIR(dir->mode))
		err = -ENOTDIR;
	else if (filler(buf, ".", NULL, 0, 0) || filler(buf, "..", NULL, 0, 0))
		err = -ENOMEM;
	for (int i = 0; !err && i < MAX_NODES; i++) {
		name = child_name(path, nodes[i].path);
		if (!name)
			continue;
		st.st_mode = nodes[i].mode;	/* for the entry's d_type */
		if (filler(buf, name, &st, 0, 0))
			err = -ENOMEM;
	}
	pthread_mutex_unlock(&nodes_lock);
	return err;
}

/* numbers that make sense to df and to whatever checks name lengths */
static int stall_statfs(const char *path, struct statvfs *sv)
{
	fsfilcnt_t unused = 0;

	pthread_mutex_lock(&nodes_lock);
	for (int i = 0; i < MAX_NODES; i++)
		unused += !nodes[i].path[0];
	pthread_mutex_unlock(&nodes_lock);
	memset(sv, 0, sizeof(*sv));
	sv->f_bsize = BLOCK_SIZE;
	sv->f_frsize = BLOCK_SIZE;
	sv->f_blocks = 1024;
	sv->f_bfree = 1024;
	sv->f_bavail = 1024;
	sv->f_files = MAX_NODES;
	sv->f_ffree = unused;
	sv->f_favail = unused;
	sv->f_namemax = 255;
	return 0;
}

/* default_permissions has the kernel check access itself: this only answers existence */
static int stall_access(const char *path, int mask)
{
	bool found;

	pthread_mutex_lock(&nodes_lock);
	found = find_node(path);
	pthread_mutex_unlock(&nodes_lock);
	return found ? 0 : -ENOENT;
}

/*
 * Nothing cached in the kernel: each walk through a name asks again, so
 * each lookup of a held name reaches getattr, and each answer is the tree
 * as it is now.
 */
static void *stall_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	cfg->entry_timeout = 0;
	cfg->attr_timeout = 0;
	cfg->negative_timeout = 0;
	cfg->use_ino = 0;
	return NULL;
}

static const struct fuse_operations stall_ops = {
	.init		= stall_init,
	.getattr	= stall_getattr,
	.mkdir		= stall_mkdir,
	.mknod		= stall_mknod,
	.unlink		= stall_unlink,
	.rmdir		= stall_rmdir,
	.chown		= stall_chown,
	.chmod		= stall_chmod,
	.readdir	= stall_readdir,
	.statfs		= stall_statfs,
	.access		= stall_access,
};

/* resolved once, so neither the server's cwd nor a later rename of a parent matters */
static int set_control_dir(const char *arg)
{
	struct stat st;

	if (!realpath(arg, control_dir) || stat(control_dir, &st))
		return errno;
	return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
}

int main(int argc, char **argv)
{
	char f_flag[] = "-f", o_flag[] = "-o";
	char options[] = "allow_other,default_permissions,dev,suid,fsname=stall_fs";
	char **fargv;
	int fargc = 0, err, ret;

	if (argc < 3) {
		fprintf(stderr, "usage: stall_fs CONTROL_DIR MOUNTPOINT [fuse options...]\n");
		return 2;
	}
	err = set_control_dir(argv[1]);
	if (err) {
		fprintf(stderr, "stall_fs: control directory %s: %s\n", argv[1],
			strerrorname_np(err) ?: "E?");
		return 2;
	}
	/* both counts exist, at 0, before the mount does */
	if (publish("held_total", 0) || publish("blocked", 0))
		return 1;

	/* argv0 MOUNTPOINT -f -o OPTIONS [extras] NULL */
	fargv = calloc(argc + 3, sizeof(*fargv));
	if (!fargv) {
		fprintf(stderr, "stall_fs: out of memory\n");
		return 1;
	}
	fargv[fargc++] = argv[0];
	fargv[fargc++] = argv[2];
	fargv[fargc++] = f_flag;
	fargv[fargc++] = o_flag;
	fargv[fargc++] = options;
	for (int i = 3; i < argc; i++)
		fargv[fargc++] = argv[i];
	ret = fuse_main(fargc, fargv, &stall_ops, NULL);
	free(fargv);
	/* a signal's end comes back as the loop's error: the exit asked for, not a failure */
	return ret == 0 || ret == FUSE_MAIN_LOOP_ENDED ? 0 : 1;
}
