// SPDX-License-Identifier: GPL-2.0
/* The history on a PostgreSQL server (libpq): one history for a fleet of runners. */
#include <ctype.h>
#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_backend.h"
#include "why.h"

/* libpq's messages span lines ("server closed the connection unexpectedly\n\tThis ..."): one line */
static void one_line(char *dst, size_t len, const char *msg)
{
	size_t n = 0;
	bool space = false;

	for (; msg && *msg && n + 1 < len; msg++) {
		if (isspace((unsigned char)*msg) || iscntrl((unsigned char)*msg)) {
			space = n > 0;
			continue;
		}
		if (space && n + 2 < len)
			dst[n++] = ' ';
		space = false;
		dst[n++] = *msg;
	}
	dst[n] = 0;
}

/* libpq's message, one line, the URI and its password masked (a parse error quotes them) */
static void message(struct store *s, char *dst, size_t len, const char *msg)
{
	one_line(dst, len, msg);
	store_mask_text(s, dst, len);
}

static int fail(struct store *s, PGresult *res, char *why, size_t len)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	char msg[512];

	message(s, msg, sizeof(msg), res && *PQresultErrorMessage(res) ? PQresultErrorMessage(res)
								: PQerrorMessage(s->handle));
	if (PQstatus(s->handle) == CONNECTION_BAD)
		return why_fail(-EPIPE, why, len, "lost the connection to the PostgreSQL server %s: %s",
				s->where, msg);
	if (state && (!strcmp(state, "40001") || !strcmp(state, "40P01")))
		return why_fail(-EAGAIN, why, len, "%s: %s", s->where, msg);
	if (state && !strcmp(state, "23505"))
		return why_fail(-EEXIST, why, len, "%s: %s", s->where, msg);
	return why_fail(-EIO, why, len, "%s: %s", s->where, msg);
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/*
 * Until the answer to what was sent is in hand (PQgetResult will not
 * block), by the deadline: the connection is nonblocking (store_pg_open),
 * so a server that stopped reading cannot hold the sending either. A
 * server that does not answer in time is given up as lost (-EPIPE): the
 * statement may still be running there, so the connection is never used
 * again, and no cancel request is sent (it would wait on the same server).
 * The server rolls the transaction back when it finds the connection gone.
 */
static int wait_answer(struct store *s, long long deadline, char *why, size_t len)
{
	PGconn *conn = s->handle;

	for (;;) {
		struct pollfd p = { .fd = PQsocket(conn), .events = POLLIN };
		int pending = PQflush(conn);	/* 1: more to send */
		long long left;

		if (pending < 0 || !PQconsumeInput(conn))
			return fail(s, NULL, why, len);
		if (!pending && !PQisBusy(conn))
			return 0;
		left = deadline - now_ms();
		if (left <= 0)
			return why_fail(-EPIPE, why, len,
					"the PostgreSQL server %s did not answer within %d s (KNOTIF_DB_TIMEOUT)",
					s->where, s->timeout_ms / 1000);
		if (pending)
			p.events |= POLLOUT;
		if (poll(&p, 1, (int)left) < 0 && errno != EINTR)
			return why_fail(-EPIPE, why, len, "%s: poll: %s", s->where, strerror(errno));
	}
}

static int pg_query(struct store *s, const char *sql, int nparams, const char *const *params,
		    struct store_rows *out, char *why, size_t len)
{
	long long deadline = now_ms() + s->timeout_ms;
	PGresult *res = NULL, *next;
	ExecStatusType status;
	int err = 0;

	memset(out, 0, sizeof(*out));
	if (!PQsendQueryParams(s->handle, sql, nparams, NULL, params, NULL, NULL, 0))
		return fail(s, NULL, why, len);
	/* one statement: one result, then NULL */
	for (;;) {
		if ((err = wait_answer(s, deadline, why, len)))
			break;
		next = PQgetResult(s->handle);
		if (!next)
			break;
		if (res)
			PQclear(next);
		else
			res = next;
	}
	if (err) {
		PQclear(res);
		return err;
	}
	status = PQresultStatus(res);
	if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
		err = fail(s, res, why, len);
		PQclear(res);
		return err;
	}
	out->nrows = (size_t)PQntuples(res);
	out->ncols = (size_t)PQnfields(res);
	if (out->nrows && !(out->cells = calloc(out->nrows * out->ncols, sizeof(char *))))
		err = -ENOMEM;
	for (size_t r = 0; !err && r < out->nrows; r++)
		for (size_t c = 0; !err && c < out->ncols; c++)
			if (!PQgetisnull(res, (int)r, (int)c) &&
			    !(out->cells[r * out->ncols + c] = strdup(PQgetvalue(res, (int)r, (int)c))))
				err = -ENOMEM;
	PQclear(res);
	if (err) {
		store_rows_free(out);
		return why_fail(err, why, len, "out of memory");
	}
	return 0;
}

static int pg_has_table(struct store *s, const char *table, char *why, size_t len)
{
	struct store_rows r;
	/*
	 * the catalog read with this statement's snapshot: to_regclass() would
	 * consult this session's catalog cache, which a lock that is not on a
	 * table (the schema lock) does not refresh, and miss a table another
	 * client created meanwhile
	 */
	int err = pg_query(s, "SELECT 1 FROM pg_catalog.pg_tables"
			   " WHERE schemaname = current_schema() AND tablename = $1", 1, &table, &r, why, len);

	if (err)
		return err;
	err = r.nrows > 0;
	store_rows_free(&r);
	return err;
}

static void pg_close(struct store *s)
{
	PQfinish(s->handle);
}

/* CREATE TABLE IF NOT EXISTS says "already exists, skipping" as a notice: not for the user */
static void quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

static const struct store_ops pg_ops = {
	.name = "postgresql",
	.id_column = "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
	/* concurrent writers then either commit or get 40001 and run the transaction again */
	.begin_write = "BEGIN ISOLATION LEVEL SERIALIZABLE",
	/*
	 * read committed: each statement sees what the client that held the
	 * lock before committed (a serializable snapshot would be taken before
	 * the lock is granted and still see no schema)
	 */
	.begin_schema = "BEGIN",
	/* concurrent CREATE TABLE IF NOT EXISTS can still collide in the catalog: take turns */
	.lock_schema = "SELECT pg_advisory_xact_lock(7158345220150905)",
	.query = pg_query,
	.has_table = pg_has_table,
	.close = pg_close,
};

/* KNOTIF_DB_TIMEOUT, seconds: the longest wait for the server */
#define DEFAULT_TIMEOUT_S 30

int store_pg_open(struct store *s, const char *uri, char *why, size_t len)
{
	/*
	 * Every wait bounded by one timeout: connecting (connect_timeout),
	 * each statement's answer (the client's own deadline, pg_query: a
	 * stopped server or a Unix socket sends no TCP error), and on the
	 * server the statement itself (statement_timeout: a lock wait ends
	 * there too). Keepalives and tcp_user_timeout find a dead TCP peer
	 * while idle. The URI's own settings win: it is expanded after these.
	 */
	static const char *const keys[] = {
		"connect_timeout", "keepalives_idle", "keepalives_interval", "keepalives_count",
		"tcp_user_timeout", "options", "application_name", "dbname", NULL,
	};
	const char *env = getenv("KNOTIF_DB_TIMEOUT");
	char timeout[16], options[64], msg[512], *end;
	long t = DEFAULT_TIMEOUT_S;
	PGconn *conn;

	if (env && *env) {
		errno = 0;
		t = strtol(env, &end, 10);
		if (errno || *end || t < 1 || t > 86400)
			return why_fail(-EINVAL, why, len, "invalid KNOTIF_DB_TIMEOUT '%s' (expected seconds, 1 to 86400)",
					env);
	}
	s->timeout_ms = (int)t * 1000;
	snprintf(timeout, sizeof(timeout), "%ld", t);
	snprintf(options, sizeof(options), "-c statement_timeout=%d", s->timeout_ms);
	{
		const char *values[] = { timeout, "30", "10", "3", "60000", options, "knotif-history", uri, NULL };

		conn = PQconnectdbParams(keys, values, 1);
	}
	if (!conn)
		return why_fail(-ENOMEM, why, len, "out of memory");
	if (PQstatus(conn) != CONNECTION_OK) {
		message(s, msg, sizeof(msg), PQerrorMessage(conn));
		PQfinish(conn);
		return why_fail(-EIO, why, len, "cannot open history %s: %s", s->where, msg);
	}
	PQsetNoticeProcessor(conn, quiet, NULL);
	if (PQsetnonblocking(conn, 1)) {
		message(s, msg, sizeof(msg), PQerrorMessage(conn));
		PQfinish(conn);
		return why_fail(-EIO, why, len, "cannot use history %s: %s", s->where, msg);
	}
	s->ops = &pg_ops;
	s->handle = conn;
	return 0;
}
