// SPDX-License-Identifier: GPL-2.0
/*
 * The gate's reader of result files as a stream (stream.h). yajl reports
 * the document as events; values are built as jansson values (what
 * gbread.c reads a row from), except the two containers that grow with the
 * file: the top-level object and its "benchmarks" array. Their members are
 * handed over one at a time as each completes: the context is kept, a row
 * goes to gb_file_add_row() and is freed, anything else is dropped.
 *
 * What jansson refuses and yajl lets through is refused here, as "not valid
 * JSON" like the whole-document load: duplicate keys (JSON_REJECT_DUPLICATES),
 * \u0000, integers beyond int64, reals beyond double, a scalar top level,
 * nesting deeper than jansson's 2048, strings that are not Unicode.
 */
#include "stream.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "why.h"

#define MAX_DEPTH 2048	/* jansson's JSON_PARSER_MAX_DEPTH */

struct frame {
	json_t *value;	/* the object or array being built */
	char *key;	/* an object's member being read */
};

struct reader {
	struct gb_file *f;
	enum { ROOT_NONE, ROOT_OBJECT, ROOT_OTHER } root;
	size_t depth;		/* containers open */
	char *root_key;		/* the top-level member being read */
	json_t *root_keys;	/* the top level's keys so far (no values): duplicates are refused */
	bool in_rows;		/* inside the top-level "benchmarks" array */
	bool have_rows;
	size_t row;		/* the next row's index */
	struct frame *stack;	/* values being built, outermost first */
	size_t n, cap;
	int err;		/* a row gbread refused (-EINVAL) or -ENOMEM; why holds its line */
	char syntax[128];	/* what jansson would have refused; "" while the text is valid */
	char *why;
	size_t len;
};

/* callbacks return 1 to go on, 0 to stop the parse */
__attribute__((format(printf, 2, 3)))
static int invalid(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->syntax, sizeof(r->syntax), fmt, ap);
	va_end(ap);
	return 0;
}

static int oom(struct reader *r)
{
	r->err = why_fail(-ENOMEM, r->why, r->len, "%s: out of memory", r->f->path);
	return 0;
}

/* jansson refused a string: its bytes (not Unicode), or memory */
static int refused(struct reader *r, const char *s, size_t len, const char *what)
{
	json_t *raw = json_stringn_nocheck(s, len);

	json_decref(raw);
	return raw ? invalid(r, "invalid Unicode in %s", what) : oom(r);
}

/* a complete member of the top level or of "benchmarks" */
static int deliver(struct reader *r, json_t *v)
{
	if (r->root == ROOT_OBJECT && r->depth == 1 && !strcmp(r->root_key, "context")) {
		gb_file_set_context(r->f, v);
		return 1;
	}
	if (r->in_rows) {
		if (!r->err)
			r->err = gb_file_add_row(r->f, v, r->row, r->why, r->len);
		r->row++;
	}
	json_decref(v);
	return r->err == -ENOMEM ? 0 : 1;
}

/* a complete value: into the value being built, or delivered */
static int add(struct reader *r, json_t *v)
{
	struct frame *top;
	int err;

	if (!v)
		return oom(r);
	if (!r->n) {
		if (!r->depth) {
			json_decref(v);
			return invalid(r, "'[' or '{' expected");
		}
		return deliver(r, v);
	}
	top = &r->stack[r->n - 1];
	if (json_is_object(top->value)) {
		err = json_object_set_new_nocheck(top->value, top->key, v);	/* checked in on_key */
		free(top->key);
		top->key = NULL;
	} else {
		err = json_array_append_new(top->value, v);
	}
	return err ? oom(r) : 1;
}

static int open_container(struct reader *r, json_t *v)
{
	if (!v)
		return oom(r);
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		struct frame *s = realloc(r->stack, cap * sizeof(*s));

		if (!s) {
			json_decref(v);
			return oom(r);
		}
		r->stack = s;
		r->cap = cap;
	}
	r->stack[r->n++] = (struct frame){ .value = v };
	return 1;
}

static int on_start_map(void *ctx)
{
	struct reader *r = ctx;

	if (++r->depth > MAX_DEPTH)
		return invalid(r, "maximum parsing depth reached");
	if (r->depth == 1) {
		r->root = ROOT_OBJECT;
		return 1;
	}
	return open_container(r, json_object());
}

static int on_start_array(void *ctx)
{
	struct reader *r = ctx;

	if (++r->depth > MAX_DEPTH)
		return invalid(r, "maximum parsing depth reached");
	if (r->depth == 1) {
		r->root = ROOT_OTHER;
		return 1;
	}
	if (r->depth == 2 && r->root == ROOT_OBJECT && !strcmp(r->root_key, "benchmarks")) {
		r->in_rows = r->have_rows = true;
		return 1;
	}
	return open_container(r, json_array());
}

static int on_end(void *ctx)
{
	struct reader *r = ctx;
	struct frame *top;

	r->depth--;
	if (!r->n) {
		r->in_rows = false;	/* the end of "benchmarks" or of the top level */
		return 1;
	}
	top = &r->stack[--r->n];
	free(top->key);
	return add(r, top->value);
}

/*
 * A key is claimed at once (with a null placeholder) so that a duplicate or
 * a key jansson cannot hold is refused where it stands.
 */
static int on_key(void *ctx, const unsigned char *key, size_t len)
{
	struct reader *r = ctx;
	json_t *obj = r->n ? r->stack[r->n - 1].value : r->root_keys;
	char **slot = r->n ? &r->stack[r->n - 1].key : &r->root_key;
	char *k;

	if (memchr(key, 0, len))
		return invalid(r, "NUL byte in object key not supported");
	k = strndup((const char *)key, len);
	if (!k)
		return oom(r);
	if (json_object_get(obj, k)) {
		free(k);
		return invalid(r, "duplicate object key");
	}
	if (json_object_set_new(obj, k, json_null())) {
		int ret = refused(r, k, len, "an object key");

		free(k);
		return ret;
	}
	free(*slot);
	*slot = k;
	return 1;
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	struct reader *r = ctx;
	json_t *v;

	if (memchr(s, 0, len))
		return invalid(r, "\\u0000 is not allowed without JSON_ALLOW_NUL");
	v = json_stringn((const char *)s, len);
	if (!v)
		return refused(r, (const char *)s, len, "a string");
	return add(r, v);
}

/* the number's text, read as jansson reads it: an integer unless it has a fraction or exponent */
static int on_number(void *ctx, const char *s, size_t len)
{
	struct reader *r = ctx;
	char *text = strndup(s, len);
	bool real, overflow;
	json_t *v;

	if (!text)
		return oom(r);
	real = strpbrk(text, ".eE");
	errno = 0;
	if (real) {
		double d = strtod(text, NULL);

		overflow = errno == ERANGE && isinf(d);	/* an underflow reads as 0, as in jansson */
		v = overflow ? NULL : json_real(d);
	} else {
		long long i = strtoll(text, NULL, 10);

		overflow = errno == ERANGE;
		v = overflow ? NULL : json_integer(i);
	}
	if (overflow) {
		bool negative = text[0] == '-';

		free(text);
		return real ? invalid(r, "real number overflow") :
			      invalid(r, "too big %sinteger", negative ? "negative " : "");
	}
	free(text);
	return add(r, v);
}

static int on_null(void *ctx)
{
	return add(ctx, json_null());
}

static int on_boolean(void *ctx, int b)
{
	return add(ctx, json_boolean(b));
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_null,
	.yajl_boolean = on_boolean,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_key,
	.yajl_end_map = on_end,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_end,
};

/*
 * The bytes yajl accepted, walked again: the line and column (bytes) to
 * name in a message, and the one check on escapes that yajl lacks. yajl
 * turns a \uD800-\uDBFF escape with no low surrogate after it into "?" or
 * into an unrelated character; jansson refuses it. The walk follows string
 * and escape boundaries only, which the accepted text makes unambiguous.
 */
struct scan {
	size_t line, column;
	enum { OUTSIDE, IN_STRING, ESCAPE, HEX } state;
	int digits;		/* of a \uXXXX seen so far */
	unsigned int code;
	bool want_low;		/* after a high surrogate: the next thing must be \uDC00-\uDFFF */
	bool lone;		/* a high surrogate without its low half: invalid */
};

static int hex(unsigned char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c - 'A' + 10;
}

static void after_escape(struct scan *p, bool low)
{
	p->lone |= p->want_low && !low;
	p->want_low = false;
}

/* walks n bytes; false at a lone surrogate (p then at its end) */
static bool advance(struct scan *p, const unsigned char *buf, size_t n)
{
	for (size_t i = 0; i < n && !p->lone; i++) {
		unsigned char c = buf[i];

		if (c == '\n') {
			p->line++;
			p->column = 0;
		} else {
			p->column++;
		}
		switch (p->state) {
		case OUTSIDE:
			p->state = c == '"' ? IN_STRING : OUTSIDE;
			break;
		case IN_STRING:
			if (c != '\\')
				after_escape(p, false);
			p->state = c == '\\' ? ESCAPE : c == '"' ? OUTSIDE : IN_STRING;
			break;
		case ESCAPE:
			if (c != 'u')
				after_escape(p, false);
			p->state = c == 'u' ? HEX : IN_STRING;
			p->digits = 0;
			p->code = 0;
			break;
		case HEX:
			p->code = p->code << 4 | (unsigned int)hex(c);
			if (++p->digits < 4)
				break;
			if (p->want_low)
				after_escape(p, p->code >= 0xDC00 && p->code <= 0xDFFF);
			else
				p->want_low = p->code >= 0xD800 && p->code <= 0xDBFF;
			p->state = IN_STRING;
			break;
		}
	}
	return !p->lone;
}

/* yajl's one-line message ("parse error: premature EOF") without its newline */
static void parse_error(struct reader *r, yajl_handle h, const struct scan *p)
{
	unsigned char *msg = r->syntax[0] ? NULL : yajl_get_error(h, 0, NULL, 0);
	const char *text = msg ? (const char *)msg : r->syntax[0] ? r->syntax : "parse error";
	size_t n = strcspn(text, "\n");

	r->err = why_fail(-EINVAL, r->why, r->len, "%s: not valid JSON: %.*s (line %zu, column %zu)", r->f->path,
			  (int)n, text, p->line, p->column);
	if (msg)
		yajl_free_error(h, msg);
}

/* feeds the file to yajl; 0, or r->err set with its line */
static int parse(struct reader *r, yajl_handle h, FILE *in)
{
	static unsigned char buf[1 << 16];
	struct scan p = { .line = 1 };
	yajl_status st;
	size_t got;

	do {
		got = fread(buf, 1, sizeof(buf), in);
		if (!got && ferror(in))
			return r->err = why_fail(-EIO, r->why, r->len, "cannot read %s: %s", r->f->path,
						 strerror(errno));
		st = got ? yajl_parse(h, buf, got) : yajl_complete_parse(h);
		if (st != yajl_status_ok) {
			if (r->err == -ENOMEM)
				return r->err;
			if (got && advance(&p, buf, yajl_get_bytes_consumed(h)))
				parse_error(r, h, &p);
			else if (!got)
				parse_error(r, h, &p);
			else
				break;	/* the lone surrogate came first */
			return r->err;
		}
	} while (advance(&p, buf, got) && got);
	if (p.lone) {
		invalid(r, "invalid Unicode: a \\uD800-\\uDBFF escape without its low surrogate");
		parse_error(r, h, &p);
		return r->err;
	}
	return 0;
}

/* what gb_file_from_json checks once the JSON is known to be valid, in its order */
static int check_shape(struct reader *r)
{
	if (r->root != ROOT_OBJECT)
		return why_fail(-EINVAL, r->why, r->len,
				"%s: not a benchmark result: the top level is not a JSON object", r->f->path);
	if (!r->f->context)
		gb_file_set_context(r->f, NULL);
	if (!r->have_rows)
		return why_fail(-EINVAL, r->why, r->len, "%s: not a benchmark result: no \"benchmarks\" array",
				r->f->path);
	return r->err;	/* a row gbread refused, its line in why */
}

int gb_file_stream(struct gb_file *f, const char *path, char *why, size_t len)
{
	struct reader r = { .f = f, .why = why, .len = len };
	yajl_handle h = NULL;
	FILE *in;
	int err;

	memset(f, 0, sizeof(*f));
	err = gb_file_open(path, &in, why, len);
	if (err)
		return err;
	err = gb_file_init(f, path, why, len);
	r.root_keys = json_object();
	h = yajl_alloc(&callbacks, NULL, &r);
	if (!err && (!r.root_keys || !h))
		err = why_fail(-ENOMEM, why, len, "%s: out of memory", path);
	if (!err)
		err = parse(&r, h, in);
	if (!err)
		err = check_shape(&r);
	if (h)
		yajl_free(h);
	if (in != stdin)
		fclose(in);
	while (r.n--) {
		json_decref(r.stack[r.n].value);
		free(r.stack[r.n].key);
	}
	free(r.stack);
	free(r.root_key);
	json_decref(r.root_keys);
	if (err)
		gb_file_free(f);
	return err;
}
