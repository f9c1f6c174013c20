// SPDX-License-Identifier: GPL-2.0
#include "record.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "escape.h"
#include "target_mem.h"

/* room left in the arena, always leaving one byte for a terminator */
static char *arena_reserve(struct record *r, size_t *room)
{
	*room = sizeof(r->arena) - r->used;
	return *room ? r->arena + r->used : NULL;
}

static int take_string(struct record *r, struct target_mem *m, uint64_t addr,
		       const char **out, int *truncated)
{
	size_t room;
	char *buf = arena_reserve(r, &room);
	ssize_t n;

	*out = NULL;
	if (!addr || !buf || room < 2)
		return 0;
	if (room > PATH_MAX)
		room = PATH_MAX;
	n = target_mem_string(m, addr, buf, room, truncated);
	if (n == -ENOENT)
		return n;
	if (n < 0)
		return 0;	/* unreadable: the record keeps the address */
	*out = buf;
	r->used += (size_t)n + 1;
	return 0;
}

static int take_argv(struct record *r, struct target_mem *m, int i)
{
	uint64_t ptrs[RECORD_ARGV_MAX + 1];
	ssize_t n;
	int count, ret;

	if (!r->raw[i])
		return 0;
	n = target_mem_read(m, r->raw[i], ptrs, sizeof(ptrs));
	if (n < 0)
		return n == -ENOENT ? n : 0;
	count = (int)(n / (ssize_t)sizeof(ptrs[0]));
	for (int k = 0; k < count && k < RECORD_ARGV_MAX; k++) {
		int truncated;
		const char *s;

		if (!ptrs[k])
			return 0;
		ret = take_string(r, m, ptrs[k], &s, &truncated);
		if (ret)
			return ret;
		if (!s)
			break;
		r->arg[i].argv[r->arg[i].argc++] = s;
		r->arg[i].truncated |= truncated;
	}
	if (r->arg[i].argc == RECORD_ARGV_MAX && count == RECORD_ARGV_MAX + 1 &&
	    !ptrs[RECORD_ARGV_MAX])
		return 0;
	r->arg[i].truncated = 1;	/* more entries than we read */
	return 0;
}

static int take_sockaddr(struct record *r, struct target_mem *m, int i)
{
	struct sockaddr_storage ss;
	uint64_t len = i + 1 < SYSCALL_MAX_ARGS ? r->raw[i + 1] : 0;
	ssize_t n;

	if (!r->raw[i] || !len)
		return 0;
	if (len > sizeof(ss))
		len = sizeof(ss);
	memset(&ss, 0, sizeof(ss));
	n = target_mem_read(m, r->raw[i], &ss, (size_t)len);
	if (n < 0)
		return n == -ENOENT ? n : 0;
	if ((size_t)n >= sizeof(sa_family_t)) {
		r->sa = ss;
		r->sa_len = (size_t)n;
	}
	return 0;
}

static int needs_memory(const struct syscall_args *sc)
{
	for (int i = 0; i < SYSCALL_MAX_ARGS; i++)
		if (sc->args[i].kind >= ARG_PATH)
			return 1;
	return 0;
}

static void record_start(struct record *r, const struct seccomp_notif *req,
			 const struct syscall_args *sc, int64_t t_ns)
{
	r->t_ns = t_ns;
	r->pid = (pid_t)req->pid;
	r->sc = sc;
	r->used = 0;
	r->sa_len = 0;
	r->verdict = NULL;
	r->error = 0;
	r->why = NULL;
	memset(r->arg, 0, sizeof(r->arg));
	memcpy(r->raw, req->data.args, sizeof(r->raw));
}

void record_from_strings(struct record *r, const struct seccomp_notif *req, const struct syscall_args *sc,
			 const char *const *strs, int n, int64_t t_ns)
{
	int k = 0;

	record_start(r, req, sc, t_ns);
	for (int i = 0; i < SYSCALL_MAX_ARGS && k < n; i++) {
		size_t len, room = sizeof(r->arena) - r->used;
		const char *s;

		if (sc->args[i].kind != ARG_PATH)
			continue;
		s = strs[k++];
		if (!s || !room)
			continue;	/* not read: the bare address */
		len = strlen(s) + 1;
		if (len > room) {
			len = room;
			r->arg[i].truncated = 1;
		}
		memcpy(r->arena + r->used, s, len);
		r->arena[r->used + len - 1] = '\0';
		r->arg[i].str = r->arena + r->used;
		r->used += len;
	}
}

int record_take(struct record *r, int listener, const struct seccomp_notif *req,
		const struct syscall_args *sc, int64_t t_ns)
{
	struct target_mem m = { .fd = -1 };
	int ret = 0;

	record_start(r, req, sc, t_ns);
	if (!needs_memory(sc))
		return 0;
	ret = target_mem_open(&m, listener, req->id, r->pid);
	if (ret == -ENOENT)
		return ret;
	if (ret)
		return 0;	/* no access to its memory (e.g. another user's): addresses only */
	for (int i = 0; i < SYSCALL_MAX_ARGS && !ret; i++) {
		switch (sc->args[i].kind) {
		case ARG_PATH:
			ret = take_string(r, &m, r->raw[i], &r->arg[i].str, &r->arg[i].truncated);
			break;
		case ARG_ARGV:
			ret = take_argv(r, &m, i);
			break;
		case ARG_SOCKADDR:
			ret = take_sockaddr(r, &m, i);
			break;
		default:
			break;
		}
	}
	target_mem_close(&m);
	return ret;
}

/* ---- text: one strace-like line ---- */

struct line {
	char buf[2 * RECORD_ARENA];
	size_t len;
};

__attribute__((format(printf, 2, 3)))
static void line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->len >= sizeof(l->buf) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < sizeof(l->buf) - l->len ? (size_t)n : sizeof(l->buf) - l->len - 1;
}

/* C-style quoting of n bytes (an abstract socket name may even hold NULs) */
static void line_quote_n(struct line *l, const char *s, size_t n, int truncated)
{
	line_add(l, "\"");
	for (const unsigned char *p = (const unsigned char *)s; p < (const unsigned char *)s + n; p++) {
		if (*p == '"' || *p == '\\')
			line_add(l, "\\%c", *p);
		else if (*p == '\n')
			line_add(l, "\\n");
		else if (*p == '\t')
			line_add(l, "\\t");
		else if (*p < 0x20 || *p >= 0x7f)
			line_add(l, "\\x%02x", *p);
		else
			line_add(l, "%c", *p);
	}
	line_add(l, truncated ? "\"..." : "\"");
}

/* a path may hold any byte but NUL */
static void line_quote(struct line *l, const char *s, int truncated)
{
	line_quote_n(l, s, strlen(s), truncated);
}

/* The SOCKADDR argument decoded once; each writer only renders it. */
struct address {
	enum { ADDR_INET, ADDR_INET6, ADDR_UNIX, ADDR_UNIX_ABSTRACT, ADDR_UNIX_UNNAMED, ADDR_OTHER } kind;
	char ip[INET6_ADDRSTRLEN];
	unsigned int port;
	const char *name;	/* AF_UNIX: the path's bytes, or the abstract name's after its leading NUL */
	size_t n;
	unsigned int family;	/* ADDR_OTHER (and an inet address too short to be one) */
};

static void decode_sockaddr(const struct record *r, struct address *a)
{
	const struct sockaddr_in *in = (const void *)&r->sa;
	const struct sockaddr_in6 *in6 = (const void *)&r->sa;
	const struct sockaddr_un *un = (const void *)&r->sa;
	size_t plen = r->sa_len > offsetof(struct sockaddr_un, sun_path) ?
		      r->sa_len - offsetof(struct sockaddr_un, sun_path) : 0;

	memset(a, 0, sizeof(*a));
	a->kind = ADDR_OTHER;
	a->family = r->sa.ss_family;
	switch (r->sa.ss_family) {
	case AF_INET:
		if (r->sa_len < sizeof(*in))
			return;
		a->kind = ADDR_INET;
		inet_ntop(AF_INET, &in->sin_addr, a->ip, sizeof(a->ip));
		a->port = ntohs(in->sin_port);
		return;
	case AF_INET6:
		if (r->sa_len < sizeof(*in6))
			return;
		a->kind = ADDR_INET6;
		inet_ntop(AF_INET6, &in6->sin6_addr, a->ip, sizeof(a->ip));
		a->port = ntohs(in6->sin6_port);
		return;
	case AF_UNIX:
		if (plen && un->sun_path[0] == '\0') {
			a->kind = ADDR_UNIX_ABSTRACT;
			a->name = un->sun_path + 1;
			a->n = plen - 1;
		} else {
			a->name = un->sun_path;
			a->n = strnlen(un->sun_path, plen);
			a->kind = a->n ? ADDR_UNIX : ADDR_UNIX_UNNAMED;
		}
		return;
	}
}

static void text_sockaddr(struct line *l, const struct record *r)
{
	struct address a;

	decode_sockaddr(r, &a);
	switch (a.kind) {
	case ADDR_INET:
		line_add(l, "{inet %s:%u}", a.ip, a.port);
		return;
	case ADDR_INET6:
		line_add(l, "{inet6 [%s]:%u}", a.ip, a.port);
		return;
	case ADDR_UNIX_UNNAMED:
		line_add(l, "{unix (unnamed)}");
		return;
	case ADDR_UNIX:
	case ADDR_UNIX_ABSTRACT:
		line_add(l, a.kind == ADDR_UNIX_ABSTRACT ? "{unix @" : "{unix ");
		line_quote_n(l, a.name, a.n, 0);
		line_add(l, "}");
		return;
	case ADDR_OTHER:
		line_add(l, "{family %u}", a.family);
		return;
	}
}

static void text_arg(struct line *l, const struct record *r, int i)
{
	const struct syscall_arg *a = &r->sc->args[i];
	uint64_t v = r->raw[i];

	switch (a->kind) {
	case ARG_DIRFD:
		if ((int)v == AT_FDCWD) {
			line_add(l, "AT_FDCWD");
			break;
		}
		/* fallthrough */
	case ARG_FD:
	case ARG_INT:
		line_add(l, "%d", (int)v);
		break;
	case ARG_FLAGS:
		line_add(l, "%#llx", (unsigned long long)v);
		break;
	case ARG_MODE:	/* a umode_t: the kernel reads the low 16 bits */
		line_add(l, "%#o", (unsigned int)(uint16_t)v);
		break;
	case ARG_LEN:
		line_add(l, "%llu", (unsigned long long)v);
		break;
	case ARG_PATH:
		if (r->arg[i].str)
			line_quote(l, r->arg[i].str, r->arg[i].truncated);
		else
			line_add(l, v ? "%#llx" : "NULL", (unsigned long long)v);
		break;
	case ARG_SOCKADDR:
		if (r->sa_len)
			text_sockaddr(l, r);
		else
			line_add(l, v ? "%#llx" : "NULL", (unsigned long long)v);
		break;
	case ARG_ARGV:
		if (!r->arg[i].argc && !r->arg[i].truncated) {
			line_add(l, v ? "%#llx" : "NULL", (unsigned long long)v);
			break;
		}
		line_add(l, "[");
		for (int k = 0; k < r->arg[i].argc; k++) {
			line_add(l, k ? ", " : "");
			line_quote(l, r->arg[i].argv[k], 0);
		}
		line_add(l, r->arg[i].truncated ? ", ...]" : "]");
		break;
	case ARG_DEV:
		line_add(l, "%u:%u", dev_major((uint32_t)v), dev_minor((uint32_t)v));
		break;
	case ARG_PTR:
	case ARG_NONE:
		line_add(l, v ? "%#llx" : "NULL", (unsigned long long)v);
		break;
	}
}

/* an emulated call's result: " = 0 <created>", " = -1 EPERM <refused: why>" */
static void text_outcome(struct line *l, const struct record *r)
{
	if (!r->verdict)
		return;
	if (r->error)
		line_add(l, " = -1 %s", strerrorname_np(r->error) ?: "E?");
	else
		line_add(l, " = 0");
	if (r->why && *r->why) {
		/* why may quote the target's own strings (a filesystem type, an option) */
		char *why = escape_text(r->why);

		line_add(l, " <%s: %s>", r->verdict, why);
		free(why);
	} else {
		line_add(l, " <%s>", r->verdict);
	}
}

static int write_text(const struct record *r, FILE *out)
{
	static struct line l;	/* large; one writer at a time */

	l.len = 0;
	line_add(&l, "[pid %d] %s(", (int)r->pid, r->sc->name);
	for (int i = 0; i < SYSCALL_MAX_ARGS && r->sc->args[i].kind != ARG_NONE; i++) {
		line_add(&l, i ? ", " : "");
		text_arg(&l, r, i);
	}
	line_add(&l, ")");
	text_outcome(&l, r);
	/* a line cut at the buffer's end still ends: one call, one line */
	if (l.len > sizeof(l.buf) - 2)
		l.len = sizeof(l.buf) - 2;
	l.buf[l.len++] = '\n';
	errno = 0;
	/* a line-buffered stream can count a line as written whose write() failed: ask ferror() too */
	if (fwrite(l.buf, 1, l.len, out) != l.len || fflush(out) || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

/* ---- JSON lines ---- */

/* valid UTF-8 as a JSON string (embedded NULs as \u0000); anything else as {"hex": "..."} */
static json_t *json_bytes(const char *s, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	json_t *j = json_stringn(s, n);
	char *hex;

	if (j)
		return j;
	hex = malloc(2 * n + 1);
	if (!hex)
		return json_null();
	for (size_t i = 0; i < n; i++) {
		hex[2 * i] = digits[(unsigned char)s[i] >> 4];
		hex[2 * i + 1] = digits[(unsigned char)s[i] & 15];
	}
	hex[2 * n] = '\0';
	j = json_pack("{s:s}", "hex", hex);
	free(hex);
	return j;
}

static json_t *json_path(const char *s)
{
	return json_bytes(s, strlen(s));
}

static json_t *json_sockaddr(const struct record *r)
{
	struct address a;

	decode_sockaddr(r, &a);
	switch (a.kind) {
	case ADDR_INET:
	case ADDR_INET6:
		return json_pack("{s:s,s:s,s:i}", "family", a.kind == ADDR_INET ? "inet" : "inet6", "addr", a.ip,
				 "port", (int)a.port);
	case ADDR_UNIX_UNNAMED:
		return json_pack("{s:s}", "family", "unix");
	case ADDR_UNIX:
	case ADDR_UNIX_ABSTRACT:
		return json_pack("{s:s,s:o}", "family", "unix", a.kind == ADDR_UNIX_ABSTRACT ? "abstract" : "path",
				 json_bytes(a.name, a.n));
	case ADDR_OTHER:
		break;
	}
	return json_pack("{s:i}", "family", (int)a.family);
}

static json_t *json_arg(const struct record *r, int i, json_t *truncated)
{
	const struct syscall_arg *a = &r->sc->args[i];
	uint64_t v = r->raw[i];

	if (r->arg[i].truncated)
		json_array_append_new(truncated, json_string(a->name));
	switch (a->kind) {
	case ARG_DIRFD:
	case ARG_FD:
	case ARG_INT:
		return json_integer((int)v);
	case ARG_PATH:
		if (r->arg[i].str)
			return json_path(r->arg[i].str);
		return v ? json_integer((json_int_t)v) : json_null();
	case ARG_SOCKADDR:
		if (r->sa_len)
			return json_sockaddr(r);
		return v ? json_integer((json_int_t)v) : json_null();
	case ARG_MODE:
		return json_integer((uint16_t)v);
	case ARG_DEV:
		return json_pack("{s:i,s:i}", "major", (int)dev_major((uint32_t)v), "minor",
				 (int)dev_minor((uint32_t)v));
	case ARG_ARGV: {
		json_t *arr;

		if (!r->arg[i].argc && !r->arg[i].truncated)
			return v ? json_integer((json_int_t)v) : json_null();
		arr = json_array();
		for (int k = 0; k < r->arg[i].argc; k++)
			json_array_append_new(arr, json_path(r->arg[i].argv[k]));
		return arr;
	}
	default:
		return json_integer((json_int_t)v);
	}
}

static int write_json(const struct record *r, FILE *out)
{
	json_t *obj = json_object(), *args = json_object(), *truncated = json_array();
	int ret;

	json_object_set_new(obj, "t_ns", json_integer(r->t_ns));
	json_object_set_new(obj, "pid", json_integer(r->pid));
	json_object_set_new(obj, "syscall", json_string(r->sc->name));
	json_object_set_new(obj, "nr", json_integer(r->sc->nr));
	for (int i = 0; i < SYSCALL_MAX_ARGS && r->sc->args[i].kind != ARG_NONE; i++)
		json_object_set_new(args, r->sc->args[i].name, json_arg(r, i, truncated));
	json_object_set_new(obj, "args", args);
	if (r->verdict) {
		json_object_set_new(obj, "emulated", json_string(r->verdict));
		json_object_set_new(obj, "result", json_integer(r->error ? -1 : 0));
		if (r->error)
			json_object_set_new(obj, "errno", json_string(strerrorname_np(r->error) ?: "E?"));
		if (r->why && *r->why)
			json_object_set_new(obj, "why", json_bytes(r->why, strlen(r->why)));
	}
	if (json_array_size(truncated))
		json_object_set_new(obj, "truncated", truncated);
	else
		json_decref(truncated);
	errno = 0;
	ret = json_dumpf(obj, out, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(obj);
	if (ret || fputc('\n', out) == EOF || fflush(out) || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

int record_write(const struct record *r, enum log_format format, FILE *out)
{
	return format == LOG_JSON ? write_json(r, out) : write_text(r, out);
}
