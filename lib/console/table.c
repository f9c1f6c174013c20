// SPDX-License-Identifier: GPL-2.0
#include "table.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"

struct table_row {
	char **cells;	/* NULL for a note */
	char *note;
};

struct table {
	int ncols;
	char **headers;
	char *align;
	struct table_row *rows;
	size_t nrows, cap;
};

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		abort();
	return d;
}

struct table *table_new(int ncols, const char *const *headers, const char *align)
{
	struct table *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	t->ncols = ncols;
	t->headers = calloc((size_t)ncols, sizeof(char *));
	if (!t->headers)
		abort();
	for (int c = 0; c < ncols; c++)
		t->headers[c] = xstrdup(headers[c]);
	t->align = xstrdup(align);
	return t;
}

static struct table_row *next_row(struct table *t)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->rows = realloc(t->rows, t->cap * sizeof(*t->rows));
		if (!t->rows)
			abort();
	}
	memset(&t->rows[t->nrows], 0, sizeof(t->rows[0]));
	return &t->rows[t->nrows++];
}

void table_add(struct table *t, const char *const *cells)
{
	struct table_row *r = next_row(t);

	r->cells = calloc((size_t)t->ncols, sizeof(char *));
	if (!r->cells)
		abort();
	/* a cell is one line of a terminal, and a bounded part of it, whatever a name in it holds */
	for (int c = 0; c < t->ncols; c++)
		r->cells[c] = escape_elided(cells[c], c + 1 < t->ncols ? TABLE_CELL_MAX : TABLE_TEXT_MAX);
}

void table_add_note(struct table *t, const char *note)
{
	next_row(t)->note = escape_elided(note, TABLE_TEXT_MAX);
}

static void pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

static void print_cells(const struct table *t, char *const *cells, const size_t *width, FILE *out)
{
	for (int c = 0; c < t->ncols; c++) {
		size_t gap = width[c] - escape_width(cells[c]);	/* code points: "µs" is 2 columns */

		if (c)
			fputs("  ", out);
		if (t->align[c] == 'r')
			pad(out, gap);
		fputs(cells[c], out);
		if (t->align[c] != 'r' && c + 1 < t->ncols)
			pad(out, gap);
	}
	fputc('\n', out);
}

void table_print(const struct table *t, FILE *out)
{
	size_t *width = calloc((size_t)t->ncols, sizeof(*width));
	size_t total = 0;

	if (!width)
		abort();
	for (int c = 0; c < t->ncols; c++)
		width[c] = escape_width(t->headers[c]);
	for (size_t r = 0; r < t->nrows; r++)
		for (int c = 0; t->rows[r].cells && c < t->ncols; c++)
			if (escape_width(t->rows[r].cells[c]) > width[c])
				width[c] = escape_width(t->rows[r].cells[c]);
	for (int c = 0; c < t->ncols; c++)
		total += width[c] + (c ? 2 : 0);
	print_cells(t, t->headers, width, out);
	for (size_t i = 0; i < total; i++)
		fputc('-', out);
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		if (t->rows[r].note)
			fprintf(out, "%s\n", t->rows[r].note);
		else
			print_cells(t, t->rows[r].cells, width, out);
	}
	free(width);
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (size_t r = 0; r < t->nrows; r++) {
		for (int c = 0; t->rows[r].cells && c < t->ncols; c++)
			free(t->rows[r].cells[c]);
		free(t->rows[r].cells);
		free(t->rows[r].note);
	}
	for (int c = 0; c < t->ncols; c++)
		free(t->headers[c]);
	free(t->headers);
	free(t->align);
	free(t->rows);
	free(t);
}
