// SPDX-License-Identifier: GPL-2.0
#include "db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "why.h"

static const char schema_sql[] =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE runs("
	"  id INTEGER PRIMARY KEY,"
	"  recorded_at TEXT NOT NULL,"		/* UTC, when it was recorded */
	"  name TEXT UNIQUE,"			/* a named baseline; NULL when unnamed */
	"  date TEXT, git_sha TEXT, kernel_release TEXT, kernel_version TEXT,"
	"  host TEXT, cpu_model TEXT, num_cpus INTEGER, syscall TEXT,"
	"  samples_per_repetition INTEGER, repetitions INTEGER,"
	"  placements TEXT,"			/* JSON: context.knotif.placements */
	"  command_line TEXT,"			/* JSON array */
	"  config TEXT,"			/* JSON: all of context.knotif */
	"  source TEXT,"			/* the file it was recorded from */
	"  document TEXT NOT NULL);"		/* the whole result file */
	"CREATE TABLE results("
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  benchmark TEXT NOT NULL, repetition INTEGER,"
	"  real_time REAL, cpu_time REAL, p50 REAL, p99 REAL, floor_ratio REAL,"
	"  error_message TEXT);"
	"CREATE INDEX results_by_benchmark ON results(benchmark, run_id);";

int history_default_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && *xdg)
		n = snprintf(buf, len, "%s/knotif/history.sqlite", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.local/share/knotif/history.sqlite", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int exec(sqlite3 *db, const char *sql, char *why, size_t len)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		why_fail(-EIO, why, len, "%s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -EIO;
	}
	return 0;
}

/* -1 when the meta table is missing */
static int schema_version(sqlite3 *db, char *why, size_t len)
{
	sqlite3_stmt *st;
	int v = -1, rc;

	rc = sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'schema_version'", -1, &st, NULL);
	if (rc != SQLITE_OK) {
		/* a file that is not SQLite fails here, not at open */
		if (strstr(sqlite3_errmsg(db), "no such table"))
			return -1;
		return why_fail(-EINVAL, why, len, "%s", sqlite3_errmsg(db));
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v < 0 ? -1 : v;
}

static int create_schema(sqlite3 *db, char *why, size_t len)
{
	char sql[2048];
	int err;

	snprintf(sql, sizeof(sql),
		 "BEGIN; %s INSERT INTO meta VALUES('schema_version', '%d'); COMMIT;",
		 schema_sql, HISTORY_SCHEMA_VERSION);
	err = exec(db, sql, why, len);
	if (err)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

int history_open(sqlite3 **db, const char *path, bool create, char *why, size_t len)
{
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0), v;
	struct stat sb;

	*db = NULL;
	if (!create && stat(path, &sb))
		return why_fail(-ENOENT, why, len, "no history at %s (record a run first)", path);
	if (sqlite3_open_v2(path, db, flags, NULL) != SQLITE_OK) {
		why_fail(-EIO, why, len, "cannot open history %s: %s", path,
		     *db ? sqlite3_errmsg(*db) : "out of memory");
		sqlite3_close(*db);
		*db = NULL;
		return -EIO;
	}
	sqlite3_busy_timeout(*db, 5000);	/* CI jobs may record concurrently */
	v = schema_version(*db, why, len);
	if (v == -EINVAL)
		goto bad;
	if (v == -1) {
		if (create_schema(*db, why, len))
			goto bad;
		v = HISTORY_SCHEMA_VERSION;
	}
	if (v != HISTORY_SCHEMA_VERSION) {
		why_fail(-EINVAL, why, len, "history %s has schema version %d; this knotif-history reads %d",
		     path, v, HISTORY_SCHEMA_VERSION);
		goto bad_msg;
	}
	exec(*db, "PRAGMA foreign_keys = ON", why, len);
	return 0;
bad: {
	char msg[256];

	snprintf(msg, sizeof(msg), "%s", why);
	why_fail(-EINVAL, why, len, "cannot use history %s: %s", path, msg);
}
bad_msg:
	sqlite3_close(*db);
	*db = NULL;
	return -EINVAL;
}

static char *dump(json_t *v)
{
	return v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s && *s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_int(sqlite3_stmt *st, int i, json_t *v)
{
	if (json_is_integer(v))
		sqlite3_bind_int64(st, i, json_integer_value(v));
	else
		sqlite3_bind_null(st, i);
}

static int insert_run(sqlite3 *db, const struct gb_file *run, const char *source, const char *name,
		      long long *id)
{
	static const char sql[] =
		"INSERT INTO runs(recorded_at, name, date, git_sha, kernel_release, kernel_version,"
		" host, cpu_model, num_cpus, syscall, samples_per_repetition, repetitions,"
		" placements, command_line, config, source, document)"
		" VALUES(strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
	json_t *k = json_object_get(run->context, "knotif");
	char *placements = dump(json_object_get(k, "placements"));
	char *cmd = dump(json_object_get(k, "command_line")), *config = dump(k);
	char *doc = json_dumps(run->root, JSON_COMPACT | JSON_REAL_PRECISION(17));
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK) {
		bind_text(st, 1, name);
		bind_text(st, 2, gb_context_str(run, "date"));
		bind_text(st, 3, gb_knotif_str(run, "git_sha"));
		bind_text(st, 4, gb_knotif_str(run, "kernel_release"));
		bind_text(st, 5, gb_knotif_str(run, "kernel_version"));
		bind_text(st, 6, gb_context_str(run, "host_name"));
		bind_text(st, 7, gb_knotif_str(run, "cpu_model"));
		bind_int(st, 8, json_object_get(run->context, "num_cpus"));
		bind_text(st, 9, gb_knotif_str(run, "syscall"));
		bind_int(st, 10, json_object_get(k, "samples_per_repetition"));
		bind_int(st, 11, json_object_get(k, "repetitions"));
		bind_text(st, 12, placements);
		bind_text(st, 13, cmd);
		bind_text(st, 14, config);
		bind_text(st, 15, source);
		bind_text(st, 16, doc);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	free(placements);
	free(cmd);
	free(config);
	free(doc);
	*id = sqlite3_last_insert_rowid(db);
	return rc;
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (v == v)
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static int insert_results(sqlite3 *db, const struct gb_file *run, long long id)
{
	static const char sql[] =
		"INSERT INTO results(run_id, benchmark, repetition, real_time, cpu_time, p50, p99,"
		" floor_ratio, error_message) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)";
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	for (size_t i = 0; rc == SQLITE_OK && i < run->count; i++) {
		const struct gb_series *s = &run->series[i];
		size_t rows = s->error ? 1 : s->reps;

		for (size_t r = 0; r < rows && rc == SQLITE_OK; r++) {
			sqlite3_reset(st);
			sqlite3_clear_bindings(st);
			sqlite3_bind_int64(st, 1, id);
			bind_text(st, 2, s->name);
			if (s->error) {
				bind_text(st, 9, s->error);
			} else {
				sqlite3_bind_int64(st, 3, (sqlite3_int64)r);
				for (int k = 0; k < GB_FIGURE_COUNT; k++)
					bind_real(st, 4 + k, s->fig[k][r]);
			}
			rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

int history_record(sqlite3 *db, const struct gb_file *run, const char *source, const char *name,
		   long long *id, char *why, size_t len)
{
	int rc;

	if (name) {
		long long *ids = NULL, taken;
		size_t n = 0;

		if (!strcmp(name, "last") || !strncmp(name, "last:", 5) || !strncmp(name, "id:", 3) || !*name)
			return why_fail(-EINVAL, why, len,
				    "'%s' cannot name a run: it reads as a selector (last, last:N, id:N)", name);
		if (!history_select(db, name, &ids, &n, why, len)) {
			taken = ids[0];
			free(ids);
			return why_fail(-EEXIST, why, len, "the name '%s' is already run #%lld's", name, taken);
		}
	}
	if (exec(db, "BEGIN IMMEDIATE", why, len))
		return -EIO;
	rc = insert_run(db, run, source, name, id);
	if (rc == SQLITE_DONE)
		rc = insert_results(db, run, *id);
	else
		rc = SQLITE_ERROR;
	if (rc != SQLITE_OK) {
		why_fail(-EIO, why, len, "recording: %s", sqlite3_errmsg(db));
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return -EIO;
	}
	return exec(db, "COMMIT", why, len);
}

static int collect_ids(sqlite3_stmt *st, long long **ids, size_t *n)
{
	size_t cap = 0;

	*ids = NULL;
	*n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (*n == cap) {
			long long *p = realloc(*ids, (cap = cap ? 2 * cap : 8) * sizeof(*p));

			if (!p)
				return -ENOMEM;
			*ids = p;
		}
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	return 0;
}

static long long parse_count(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	return errno || end == s || *end || v < 1 ? -1 : v;
}

int history_select(sqlite3 *db, const char *selector, long long **ids, size_t *n,
		   char *why, size_t len)
{
	sqlite3_stmt *st;
	long long count = 0;
	int err;

	*ids = NULL;
	*n = 0;
	if (!strcmp(selector, "last") || !strncmp(selector, "last:", 5)) {
		count = selector[4] ? parse_count(selector + 5) : 1;
		if (count < 1)
			return why_fail(-EINVAL, why, len, "invalid baseline '%s' (expected last:N, N ≥ 1)", selector);
		sqlite3_prepare_v2(db, "SELECT id FROM (SELECT id FROM runs ORDER BY id DESC LIMIT ?)"
				   " ORDER BY id", -1, &st, NULL);
		sqlite3_bind_int64(st, 1, count);
	} else if (!strncmp(selector, "id:", 3)) {
		long long id = parse_count(selector + 3);

		if (id < 1)
			return why_fail(-EINVAL, why, len, "invalid run '%s' (expected id:N, N ≥ 1)", selector);
		sqlite3_prepare_v2(db, "SELECT id FROM runs WHERE id = ?", -1, &st, NULL);
		sqlite3_bind_int64(st, 1, id);
	} else {
		sqlite3_prepare_v2(db, "SELECT id FROM runs WHERE name = ?", -1, &st, NULL);
		sqlite3_bind_text(st, 1, selector, -1, SQLITE_TRANSIENT);
	}
	err = collect_ids(st, ids, n);
	sqlite3_finalize(st);
	if (err)
		return why_fail(err, why, len, "out of memory");
	if (count && (long long)*n < count)
		err = why_fail(-ENOENT, why, len, "'%s' needs %lld run%s; the history holds %zu",
			   selector, count, count == 1 ? "" : "s", *n);
	else if (!*n)
		err = why_fail(-ENOENT, why, len, "no run %s in the history", selector);
	if (err) {
		free(*ids);
		*ids = NULL;
		*n = 0;
	}
	return err;
}

int history_document(sqlite3 *db, long long id, const char *label, struct gb_file *out,
		     char *why, size_t len)
{
	sqlite3_stmt *st;
	json_error_t jerr;
	json_t *root = NULL;

	sqlite3_prepare_v2(db, "SELECT document FROM runs WHERE id = ?", -1, &st, NULL);
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		root = json_loads((const char *)sqlite3_column_text(st, 0), 0, &jerr);
	sqlite3_finalize(st);
	if (!root)
		return why_fail(-ENOENT, why, len, "run #%lld: no readable document", id);
	return gb_file_from_json(out, root, label, why, len);
}
