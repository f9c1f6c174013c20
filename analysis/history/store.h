/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_HISTORY_STORE_H
#define KNOTIF_HISTORY_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "store_backend.h"	/* struct store, store_rows, store_cell(), store_rows_free() */

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

/* s->ops->query, with out optional */
int store_query(struct store *s, const char *sql, int nparams, const char *const *params,
		struct store_rows *out, char *why, size_t len);
/* sql without parameters or rows */
int store_exec(struct store *s, const char *sql, char *why, size_t len);

#endif
