// SPDX-License-Identifier: GPL-2.0
#include "db.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "class.h"
#include "pool.h"
#include "why.h"

/* one layout for both stores: runs(id, then these), id is the store's own integer key */
static const char runs_columns[] =
	"  recorded_at TEXT NOT NULL,"		/* UTC, when it was recorded */
	"  name TEXT UNIQUE,"			/* a named baseline; NULL when unnamed */
	"  date TEXT, git_sha TEXT, kernel_release TEXT, kernel_version TEXT,"
	"  host TEXT, cpu_model TEXT, num_cpus INTEGER, syscall TEXT,"
	"  samples_per_repetition INTEGER, repetitions INTEGER,"
	"  placements TEXT,"			/* JSON: context.knotif.placements */
	"  command_line TEXT,"			/* JSON array */
	"  config TEXT,"			/* JSON: all of context.knotif */
	"  source TEXT,"			/* the file it was recorded from */
	"  document TEXT NOT NULL,"		/* the whole result file */
	"  machine_class TEXT,"			/* class.h */
	"  gate TEXT,"				/* the gate's verdict on it: pass, fail, NULL */
	"  content_sha256 TEXT";		/* content_hash(): one run is recorded once */

static const char *const tables_after_runs[] = {
	"CREATE TABLE IF NOT EXISTS results("
	"  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  benchmark TEXT NOT NULL, repetition INTEGER,"
	"  real_time DOUBLE PRECISION, cpu_time DOUBLE PRECISION, p50 DOUBLE PRECISION,"
	"  p99 DOUBLE PRECISION, floor_ratio DOUBLE PRECISION, error_message TEXT)",
	"CREATE INDEX IF NOT EXISTS results_by_benchmark ON results(benchmark, run_id)",
	"CREATE INDEX IF NOT EXISTS results_by_run ON results(run_id)",
	"CREATE INDEX IF NOT EXISTS runs_by_class ON runs(machine_class, id)",
	/* the store refuses a run twice, however many writers race (a NULL hash is no run's) */
	"CREATE UNIQUE INDEX IF NOT EXISTS runs_by_content ON runs(content_sha256)",
};

#define MAX_ATTEMPTS 12

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

/* one row, one column, as text (NULL when there is no row or it is NULL) */
static int query_value(struct store *s, const char *sql, int n, const char *const *params,
		       char **value, char *why, size_t len)
{
	struct store_rows r;
	int err = store_query(s, sql, n, params, &r, why, len);

	*value = NULL;
	if (err)
		return err;
	if (r.nrows && r.ncols && store_cell(&r, 0, 0))
		*value = strdup(store_cell(&r, 0, 0));
	store_rows_free(&r);
	return 0;
}

/* 0 when the store has no history yet */
static int schema_version(struct store *s, char *why, size_t len)
{
	char *v;
	int err = s->ops->has_table(s, "meta", why, len);

	if (err <= 0)
		return err;
	err = query_value(s, "SELECT value FROM meta WHERE key = 'schema_version'", 0, NULL, &v, why, len);
	if (err)
		return err;
	err = v ? atoi(v) : 0;
	free(v);
	return err;
}

/*
 * Runs body inside one write transaction; when it loses a race with
 * another writer (-EAGAIN) it is rolled back and run again, after a
 * random pause that grows with each attempt.
 */
static int in_transaction(struct store *s, const char *begin,
			  int (*body)(struct store *, void *, char *, size_t), void *arg, char *why, size_t len)
{
	static bool seeded;
	int err = 0;

	/* writers that collided once must not pause in step and collide again */
	if (!seeded) {
		srand((unsigned)getpid() ^ (unsigned)time(NULL));
		seeded = true;
	}
	for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
		if (attempt)
			usleep((useconds_t)(1000 * (1 + rand() % (10 << (attempt < 6 ? attempt : 6)))));
		err = store_exec(s, begin, why, len);
		if (!err && begin == s->ops->begin_schema && s->ops->lock_schema)
			err = store_exec(s, s->ops->lock_schema, why, len);
		if (!err)
			err = body(s, arg, why, len);
		if (!err) {
			err = store_exec(s, "COMMIT", why, len);
			if (err == -EPIPE) {
				char msg[512];

				snprintf(msg, sizeof(msg), "%s", why);
				return why_fail(-EPIPE, why, len,
						"%s (during COMMIT: check with 'knotif-history list' whether it was stored)",
						msg);
			}
			if (!err)
				return 0;
		}
		if (err == -EPIPE)
			return err;
		{
			char ignored[64];

			store_exec(s, "ROLLBACK", ignored, sizeof(ignored));
		}
		if (err != -EAGAIN)
			return err;
	}
	return err;
}

static int set_class(struct store *s, const char *id, char *why, size_t len)
{
	char label[64], cls[512];
	struct gb_file run;
	const char *params[2] = { cls, id };
	int err;

	snprintf(label, sizeof(label), "run #%s", id);
	err = history_document(s, atoll(id), label, &run, why, len);
	if (err)
		return err;
	history_machine_class(&run, cls, sizeof(cls));
	gb_file_free(&run);
	return store_query(s, "UPDATE runs SET machine_class = $1 WHERE id = CAST($2 AS BIGINT)", 2, params,
			   NULL, why, len);
}

/* schema 1 (SQLite only: PostgreSQL came with 2) to 2: the class of every stored run */
static int migrate_1_to_2(struct store *s, char *why, size_t len)
{
	struct store_rows ids;
	int err = store_exec(s, "ALTER TABLE runs ADD COLUMN machine_class TEXT", why, len);

	if (!err)
		err = store_exec(s, "ALTER TABLE runs ADD COLUMN gate TEXT", why, len);
	if (!err)
		err = store_exec(s, "CREATE INDEX IF NOT EXISTS runs_by_class ON runs(machine_class, id)", why, len);
	if (!err)
		err = store_exec(s, "CREATE INDEX IF NOT EXISTS results_by_run ON results(run_id)", why, len);
	if (err || (err = store_query(s, "SELECT id FROM runs", 0, NULL, &ids, why, len)))
		return err;
	for (size_t i = 0; !err && i < ids.nrows; i++)
		err = set_class(s, store_cell(&ids, i, 0), why, len);
	store_rows_free(&ids);
	return err;
}

/* a copy of v with every number a real: 951 and 951.0 are one value (jq writes the first) */
static json_t *numbers_as_reals(json_t *v)
{
	const char *key;
	json_t *out, *item;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_INTEGER:
		return json_real((double)json_integer_value(v));
	case JSON_OBJECT:
		out = json_object();
		json_object_foreach(v, key, item)
			json_object_set_new(out, key, numbers_as_reals(item));
		return out;
	case JSON_ARRAY:
		out = json_array();
		json_array_foreach(v, i, item)
			json_array_append_new(out, numbers_as_reals(item));
		return out;
	default:
		return json_incref(v);
	}
}

/*
 * What tells one run from another: SHA-256 of its document normalised
 * (numbers as reals to 17 digits, keys sorted, compact), in hex. The same
 * file reformatted (jq -S .) is the same run, and a stored document gives
 * back the hash of the file it was recorded from (migrate_2_to_3 relies on
 * it).
 */
static int content_hash(json_t *root, char hex[2 * 32 + 1], char *why, size_t len)
{
	json_t *normal = numbers_as_reals(root);
	char *doc = normal ? json_dumps(normal, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17)) : NULL;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	int ok = doc && EVP_Digest(doc, strlen(doc), md, &n, EVP_sha256(), NULL) && n == 32;

	json_decref(normal);
	free(doc);
	if (!ok)
		return why_fail(-ENOMEM, why, len, "cannot hash the run: out of memory");
	for (unsigned int i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	return 0;
}

/*
 * A stored run's content hash; a document that cannot be read keeps none,
 * and so does a copy of a run stored before (recorded twice before there
 * were hashes: the first keeps it, the unique index allows no second).
 */
static int set_content_hash(struct store *s, const char *id, char *why, size_t len)
{
	char label[64], hex[2 * 32 + 1];
	const char *params[2] = { hex, id };
	struct gb_file run;
	int err;

	snprintf(label, sizeof(label), "run #%s", id);
	err = history_document(s, atoll(id), label, &run, why, len);
	if (err == -ENOENT || err == -EINVAL)
		return 0;
	if (err)
		return err;
	err = content_hash(run.root, hex, why, len);
	gb_file_free(&run);
	return err ? err : store_query(s, "UPDATE runs SET content_sha256 = $1 WHERE id = CAST($2 AS BIGINT)"
				       " AND NOT EXISTS (SELECT 1 FROM runs WHERE content_sha256 = $1)",
				       2, params, NULL, why, len);
}

/* schema 2 to 3: the content hash of every stored run, so that none is recorded again */
static int migrate_2_to_3(struct store *s, char *why, size_t len)
{
	struct store_rows ids;
	int err = store_exec(s, "ALTER TABLE runs ADD COLUMN content_sha256 TEXT", why, len);

	/* the index first: set_content_hash()'s NOT EXISTS then looks a hash up, not every run */
	if (!err)
		err = store_exec(s, "CREATE UNIQUE INDEX IF NOT EXISTS runs_by_content ON runs(content_sha256)",
				 why, len);
	if (err || (err = store_query(s, "SELECT id FROM runs ORDER BY id", 0, NULL, &ids, why, len)))
		return err;
	for (size_t i = 0; !err && i < ids.nrows; i++)
		err = set_content_hash(s, store_cell(&ids, i, 0), why, len);
	store_rows_free(&ids);
	return err;
}

static int create_schema(struct store *s, char *why, size_t len)
{
	char sql[2048], version[16];
	const char *params[1] = { version };
	int err = 0;

	err = store_exec(s, "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
			 why, len);
	snprintf(sql, sizeof(sql), "CREATE TABLE IF NOT EXISTS runs(%s, %s)", s->ops->id_column, runs_columns);
	if (!err)
		err = store_exec(s, sql, why, len);
	for (size_t i = 0; !err && i < sizeof(tables_after_runs) / sizeof(tables_after_runs[0]); i++)
		err = store_exec(s, tables_after_runs[i], why, len);
	snprintf(version, sizeof(version), "%d", HISTORY_SCHEMA_VERSION);
	return err ? err : store_query(s, "INSERT INTO meta VALUES('schema_version', $1)", 1, params,
				       NULL, why, len);
}

/* inside the schema transaction: look again, another client may have just done it */
static int bring_schema(struct store *s, void *arg, char *why, size_t len)
{
	int v = schema_version(s, why, len), err;
	char version[16];
	const char *params[1] = { version };

	(void)arg;
	if (v < 0)
		return v;
	if (v == 0)
		return create_schema(s, why, len);
	if (v > HISTORY_SCHEMA_VERSION)
		return why_fail(-EPROTO, why, len, "it has schema version %d; this knotif-history reads %d",
				v, HISTORY_SCHEMA_VERSION);
	if (v == 1 && (err = migrate_1_to_2(s, why, len)))
		return err;
	if (v <= 2 && (err = migrate_2_to_3(s, why, len)))
		return err;
	snprintf(version, sizeof(version), "%d", HISTORY_SCHEMA_VERSION);
	return store_query(s, "UPDATE meta SET value = $1 WHERE key = 'schema_version'", 1, params, NULL,
			   why, len);
}

int history_open(struct store **out, const char *uri, bool create, char *why, size_t len)
{
	struct store *s;
	int v, err;

	err = store_open(&s, uri, create, why, len);
	if (err)
		return err;
	v = schema_version(s, why, len);
	if (v == HISTORY_SCHEMA_VERSION) {
		*out = s;
		return 0;
	}
	if (v == 0 && !create) {
		err = why_fail(-ENOENT, why, len, "no history in %s (record a run first)", s->where);
		goto fail;
	}
	err = v < 0 ? v : v > HISTORY_SCHEMA_VERSION ? -EPROTO : in_transaction(s, s->ops->begin_schema, bring_schema, NULL, why, len);
	if (v > HISTORY_SCHEMA_VERSION)
		why_fail(err, why, len, "it has schema version %d; this knotif-history reads %d", v,
			 HISTORY_SCHEMA_VERSION);
	if (err) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", why);
		why_fail(err, why, len, "cannot use history %s: %s", s->where, msg);
		goto fail;
	}
	*out = s;
	return 0;
fail:
	store_close(s);
	*out = NULL;
	return err;
}

/* numbers as the text both stores parse; NULL for what the file lacks */
static char *int_text(json_t *v)
{
	char buf[32];

	if (!json_is_integer(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
	return strdup(buf);
}

static char *real_text(double v, char *buf, size_t len)
{
	if (v != v)
		return NULL;
	snprintf(buf, len, "%.17g", v);
	return buf;
}

static const char *text_or_null(const char *s)
{
	return s && *s ? s : NULL;
}

struct record {
	const struct gb_file *run;
	const char *source, *name, *gate;
	char hash[2 * 32 + 1];		/* content_hash() */
	long long id;
};

static int name_taken(struct store *s, const char *name, char *why, size_t len)
{
	char *taken;
	int err = query_value(s, "SELECT id FROM runs WHERE name = $1", 1, &name, &taken, why, len);

	if (err || !taken)
		return err;
	why_fail(-EEXIST, why, len, "the name '%s' is already run #%s's", name, taken);
	free(taken);
	return -EEXIST;
}

/* -EALREADY when the history holds this run: it would weigh twice in every baseline that pools it */
static int already_recorded(struct store *s, const struct record *rec, char *why, size_t len)
{
	const char *hash = rec->hash;
	char *taken;
	int err = query_value(s, "SELECT min(id) FROM runs WHERE content_sha256 = $1", 1, &hash, &taken, why, len);

	if (err || !taken)
		return err;
	why_fail(-EALREADY, why, len, "%s is already recorded, as run #%s (the same run twice would count twice in a baseline)",
		 rec->source, taken);
	free(taken);
	return -EALREADY;
}

static int insert_run(struct store *s, struct record *rec, char *why, size_t len)
{
	static const char sql[] =
		"INSERT INTO runs(recorded_at, name, date, git_sha, kernel_release, kernel_version,"
		" host, cpu_model, num_cpus, syscall, samples_per_repetition, repetitions,"
		" placements, command_line, config, source, document, machine_class, gate, content_sha256)"
		" VALUES($1, $2, $3, $4, $5, $6, $7, $8, CAST($9 AS INTEGER), $10,"
		" CAST($11 AS INTEGER), CAST($12 AS INTEGER), $13, $14, $15, $16, $17, $18, $19, $20)"
		" RETURNING id";
	const struct gb_file *run = rec->run;
	json_t *k = json_object_get(run->context, "knotif");
	char *placements = json_dumps(json_object_get(k, "placements"), JSON_COMPACT | JSON_ENCODE_ANY);
	char *cmd = json_dumps(json_object_get(k, "command_line"), JSON_COMPACT | JSON_ENCODE_ANY);
	char *config = json_dumps(k, JSON_COMPACT | JSON_ENCODE_ANY);
	char *doc = json_dumps(run->root, JSON_COMPACT | JSON_REAL_PRECISION(17));
	char *ncpu = int_text(json_object_get(run->context, "num_cpus"));
	char *samples = int_text(json_object_get(k, "samples_per_repetition"));
	char *reps = int_text(json_object_get(k, "repetitions"));
	char now[32], cls[512], *id = NULL;
	time_t t = time(NULL);
	struct tm tm;
	int err;

	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	history_machine_class(run, cls, sizeof(cls));
	{
		const char *p[] = {
			now, rec->name, text_or_null(gb_context_str(run, "date")),
			text_or_null(gb_knotif_str(run, "git_sha")),
			text_or_null(gb_knotif_str(run, "kernel_release")),
			text_or_null(gb_knotif_str(run, "kernel_version")),
			text_or_null(gb_context_str(run, "host_name")),
			text_or_null(gb_knotif_str(run, "cpu_model")), ncpu,
			text_or_null(gb_knotif_str(run, "syscall")), samples, reps, placements, cmd,
			config, rec->source, doc, cls, rec->gate, rec->hash,
		};

		err = doc ? query_value(s, sql, 20, p, &id, why, len) : why_fail(-ENOMEM, why, len, "out of memory");
	}
	if (!err && !id)
		err = why_fail(-EIO, why, len, "%s: the new run got no id", s->where);
	if (!err)
		rec->id = atoll(id);
	free(id);
	free(placements);
	free(cmd);
	free(config);
	free(doc);
	free(ncpu);
	free(samples);
	free(reps);
	return err;
}

static int insert_results(struct store *s, const struct record *rec, char *why, size_t len)
{
	static const char sql[] =
		"INSERT INTO results(run_id, benchmark, repetition, real_time, cpu_time, p50, p99,"
		" floor_ratio, error_message) VALUES(CAST($1 AS BIGINT), $2, CAST($3 AS INTEGER),"
		" CAST($4 AS DOUBLE PRECISION), CAST($5 AS DOUBLE PRECISION), CAST($6 AS DOUBLE PRECISION),"
		" CAST($7 AS DOUBLE PRECISION), CAST($8 AS DOUBLE PRECISION), $9)";
	const struct gb_file *run = rec->run;
	char id[32], rep[32], fig[GB_FIGURE_COUNT][32];
	int err = 0;

	snprintf(id, sizeof(id), "%lld", rec->id);
	for (size_t i = 0; !err && i < run->count; i++) {
		const struct gb_series *s_ = &run->series[i];
		size_t rows = s_->error ? 1 : s_->reps;

		for (size_t r = 0; !err && r < rows; r++) {
			const char *p[9] = { id, s_->name };

			if (s_->error) {
				p[8] = s_->error;
			} else {
				snprintf(rep, sizeof(rep), "%zu", r);
				p[2] = rep;
				for (int k = 0; k < GB_FIGURE_COUNT; k++)
					p[3 + k] = real_text(s_->fig[k][r], fig[k], sizeof(fig[k]));
			}
			err = store_query(s, sql, 9, p, NULL, why, len);
		}
	}
	return err;
}

static int record_body(struct store *s, void *arg, char *why, size_t len)
{
	struct record *rec = arg;
	int err = rec->name ? name_taken(s, rec->name, why, len) : 0;

	if (!err)
		err = insert_run(s, rec, why, len);
	if (!err)
		err = insert_results(s, rec, why, len);
	return err;
}

int history_record(struct store *s, const struct gb_file *run, const char *source, const char *name,
		   const char *gate, long long *id, char *why, size_t len)
{
	struct record rec = { run, source, name, gate, "", 0 };
	int err;

	if (name && (!*name || !strcmp(name, "last") || !strncmp(name, "last:", 5) || !strcmp(name, "first") ||
		     !strncmp(name, "first:", 6) || !strncmp(name, "id:", 3)))
		return why_fail(-EINVAL, why, len,
				"'%s' cannot name a run: it reads as a selector (last, last:N, first, first:N, id:N)",
				name);
	if (!run->root)
		return why_fail(-EINVAL, why, len, "%s: the run was read without its document", source);
	/*
	 * Looked for before the transaction, not inside it: a read there
	 * would make concurrent writers' serializable transactions conflict.
	 * Two writers of one run that race past it are told apart by the
	 * store's unique index (runs_by_content) at the insert.
	 */
	err = content_hash(run->root, rec.hash, why, len);
	if (!err)
		err = already_recorded(s, &rec, why, len);
	if (!err)
		err = in_transaction(s, s->ops->begin_write, record_body, &rec, why, len);
	/* a unique key taken by a writer that won the race — this very run, or the name: say which */
	if (err == -EEXIST && !strstr(why, "is already run #")) {
		int again = already_recorded(s, &rec, why, len);

		if (again)
			err = again;
		else if (name)
			name_taken(s, name, why, len);
	}
	if (!err)
		*id = rec.id;
	return err;
}

static long long parse_count(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	return errno || end == s || *end || v < 1 ? -1 : v;
}

int history_select(struct store *s, const char *selector, const char *machine_class,
		   long long **ids, size_t *n, char *why, size_t len)
{
	/* $2: the class, or NULL for any */
	static const char last_sql[] =
		"SELECT id FROM (SELECT id FROM runs WHERE (gate IS NULL OR gate <> 'fail')"
		" AND (CAST($2 AS TEXT) IS NULL OR machine_class = $2) ORDER BY id DESC LIMIT CAST($1 AS BIGINT)) AS newest"
		" ORDER BY id";
	/* a class's first runs: the anchor a rolling last:N cannot drift from */
	static const char first_sql[] =
		"SELECT id FROM runs WHERE (gate IS NULL OR gate <> 'fail')"
		" AND (CAST($2 AS TEXT) IS NULL OR machine_class = $2) ORDER BY id LIMIT CAST($1 AS BIGINT)";
	static const char id_sql[] =
		"SELECT id FROM runs WHERE id = CAST($1 AS BIGINT) AND (CAST($2 AS TEXT) IS NULL OR machine_class = $2)";
	static const char name_sql[] =
		"SELECT id FROM runs WHERE name = $1 AND (CAST($2 AS TEXT) IS NULL OR machine_class = $2)";
	const char *sql, *params[2] = { NULL, machine_class };
	char count_text[32];
	long long count = 0;
	struct store_rows r;
	int err;

	*ids = NULL;
	*n = 0;
	if (!strcmp(selector, "last") || !strncmp(selector, "last:", 5) || !strcmp(selector, "first") ||
	    !strncmp(selector, "first:", 6)) {
		bool first = selector[0] == 'f';
		const char *n_text = selector + (first ? 5 : 4);

		count = *n_text ? parse_count(n_text + 1) : 1;
		if (count < 1)
			return why_fail(-EINVAL, why, len, "invalid baseline '%s' (expected %s:N, N ≥ 1)", selector,
					first ? "first" : "last");
		snprintf(count_text, sizeof(count_text), "%lld", count);
		sql = first ? first_sql : last_sql;
		params[0] = count_text;
	} else if (!strncmp(selector, "id:", 3)) {
		if (parse_count(selector + 3) < 1)
			return why_fail(-EINVAL, why, len, "invalid run '%s' (expected id:N, N ≥ 1)", selector);
		sql = id_sql;
		params[0] = selector + 3;
	} else {
		sql = name_sql;
		params[0] = selector;
	}
	err = store_query(s, sql, 2, params, &r, why, len);
	if (err)
		return err;
	*ids = calloc(r.nrows ? r.nrows : 1, sizeof(**ids));
	if (!*ids) {
		store_rows_free(&r);
		return why_fail(-ENOMEM, why, len, "out of memory");
	}
	for (size_t i = 0; i < r.nrows; i++)
		(*ids)[i] = atoll(store_cell(&r, i, 0));
	*n = r.nrows;
	store_rows_free(&r);
	if (count && (long long)*n < count)
		err = why_fail(-ENOENT, why, len, "'%s' needs %lld run%s; the history holds %zu%s%s%s",
			       selector, count, count == 1 ? "" : "s", *n,
			       machine_class ? " of class '" : "", machine_class ? machine_class : "",
			       machine_class ? "'" : "");
	else if (!*n)
		err = why_fail(-ENOENT, why, len, "no run %s in the history%s%s%s", selector,
			       machine_class ? " of class '" : "", machine_class ? machine_class : "",
			       machine_class ? "'" : "");
	if (err) {
		free(*ids);
		*ids = NULL;
		*n = 0;
	}
	return err;
}

int history_document(struct store *s, long long id, const char *label, struct gb_file *out,
		     char *why, size_t len)
{
	char idt[32], *doc;
	const char *params[1] = { idt };
	json_error_t jerr;
	json_t *root = NULL;
	int err;

	snprintf(idt, sizeof(idt), "%lld", id);
	err = query_value(s, "SELECT document FROM runs WHERE id = CAST($1 AS BIGINT)", 1, params, &doc,
			  why, len);
	if (err)
		return err;
	if (doc)
		root = json_loads(doc, 0, &jerr);
	free(doc);
	if (!root)
		return why_fail(-ENOENT, why, len, "run #%lld: no readable document", id);
	return gb_file_from_json(out, root, label, why, len);
}

json_t *history_baseline(struct store *s, const char *selector, const char *machine_class,
			 size_t *nruns, char *why, size_t len)
{
	struct gb_file *runs = NULL;
	char (*labels)[32] = NULL;
	long long *ids;
	json_t *doc = NULL;
	size_t n, loaded = 0;

	if (history_select(s, selector, machine_class, &ids, &n, why, len))
		return NULL;
	runs = calloc(n, sizeof(*runs));
	labels = calloc(n, sizeof(*labels));
	if (!runs || !labels) {
		why_fail(-ENOMEM, why, len, "out of memory");
		goto out;
	}
	for (; loaded < n; loaded++) {
		snprintf(labels[loaded], sizeof(labels[loaded]), "run #%lld", ids[loaded]);
		if (history_document(s, ids[loaded], labels[loaded], &runs[loaded], why, len))
			goto out;
		if (loaded && strcmp(gb_knotif_str(&runs[loaded], "syscall"), gb_knotif_str(&runs[0], "syscall")))
			fprintf(stderr, "%s: warning: pooling runs that trap different syscalls (#%lld: %s, #%lld: %s)\n",
				knotif_prog, ids[0], gb_knotif_str(&runs[0], "syscall"), ids[loaded],
				gb_knotif_str(&runs[loaded], "syscall"));
	}
	doc = history_pool(runs, ids, n, selector);
	*nruns = n;
out:
	for (size_t i = 0; i < loaded; i++)
		gb_file_free(&runs[i]);
	free(runs);
	free(labels);
	free(ids);
	return doc;
}
