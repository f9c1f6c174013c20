/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_HISTORY_STORE_H
#define KNOTIF_HISTORY_STORE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Where the history lives: an embedded SQLite file (one machine) or a
 * PostgreSQL server (a fleet of runners sharing one history). The history
 * code speaks one SQL dialect through this interface: parameters are
 * written $1, $2, ... and passed as text (NULL for SQL NULL), and every
 * result cell comes back as text, so both backends run the same statements.
 *
 * Errors are -errno with one line in why:
 *   -EAGAIN  the transaction lost a race (serialization failure, deadlock,
 *            a lock that stayed busy): roll back and run it again;
 *   -EEXIST  a unique constraint (a taken run name);
 *   -EPIPE   the connection to the server is gone, or the server did not
 *            answer in time (store_pg_open: KNOTIF_DB_TIMEOUT);
 *   -ENOSPC  the storage failed under the store: a full disk, an I/O
 *            error (SQLite);
 *   -EIO     anything else the database refused.
 */
struct store;

struct store_rows {
	size_t nrows, ncols;
	char **cells;		/* cells[r * ncols + c]; NULL for SQL NULL */
};

struct store_ops {
	const char *name;		/* "sqlite", "postgresql" */
	const char *id_column;		/* DDL of runs.id: an integer key the store assigns */
	const char *begin_write;	/* starts a transaction that will write a run */
	const char *begin_schema;	/* starts the transaction that creates or migrates the schema */
	const char *lock_schema;	/* then serialises it between clients; NULL: begin_schema does */
	int (*query)(struct store *s, const char *sql, int nparams, const char *const *params,
		     struct store_rows *out, char *why, size_t len);
	int (*has_table)(struct store *s, const char *table, char *why, size_t len);
	void (*close)(struct store *s);
};

struct store {
	const struct store_ops *ops;
	const char *where;	/* the path or URI, for messages (a password masked) */
	void *handle;		/* sqlite3 * or PGconn * */
	char *uri;		/* as the store was given it (a postgresql scheme in lower case) */
	int timeout_ms;		/* (PostgreSQL) the longest wait for one answer of the server */
	bool created;		/* (SQLite) this process made the file */
	bool storage_failed;	/* (SQLite) a -ENOSPC error happened */
	char where_buf[4096];
};

/*
 * Opens the history store uri names:
 *   PATH or sqlite:PATH                   an SQLite file
 *   postgresql://... or postgres://...    a PostgreSQL server (libpq)
 * Schemes in any case (PostgreSQL://). Any other scheme (RFC 3986: a
 * letter, then letters, digits, + - ., then ':' — mysql:x.db, http:...) is
 * refused with -EINVAL, not taken for a file name: ./mysql:x.db or
 * sqlite:mysql:x.db names such a file. An SQLite file must exist unless
 * create is set; one this call creates is removed again by store_close
 * when the storage failed before anything was stored in it. A store that
 * cannot keep anything ("", ":memory:") is refused. Returns 0 or -errno.
 */
int store_open(struct store **s, const char *uri, bool create, char *why, size_t len);
void store_close(struct store *s);

int store_sqlite_open(struct store *s, const char *path, bool create, char *why, size_t len);
int store_pg_open(struct store *s, const char *uri, char *why, size_t len);

/*
 * text, a library's message about s's URI (libpq's quote parts of it or
 * all of it), made fit to print: the URI itself by its masked form
 * (s->where), then every occurrence of each of its passwords by ***. Cut
 * short when it would not fit in len.
 */
void store_mask_text(const struct store *s, char *text, size_t len);

/* s->ops->query, with out optional */
int store_query(struct store *s, const char *sql, int nparams, const char *const *params,
		struct store_rows *out, char *why, size_t len);
/* sql without parameters or rows */
int store_exec(struct store *s, const char *sql, char *why, size_t len);
void store_rows_free(struct store_rows *rows);
static inline const char *store_cell(const struct store_rows *r, size_t row, size_t col)
{
	return r->cells[row * r->ncols + col];
}

#endif
