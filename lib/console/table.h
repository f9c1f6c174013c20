/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_TABLE_H
#define KNOTIF_TABLE_H

#include <stdio.h>

/*
 * A console table: columns sized to their widest cell, text left-aligned,
 * numbers right-aligned, so a person reads it at a glance. Cells and notes
 * are escaped (escape.h): a newline, a terminal escape sequence or a bidi
 * control in a name cannot forge a row, drive the terminal or reorder the
 * line. They are elided in the middle (escape_elided()) beyond
 * TABLE_CELL_MAX columns, so one 10,000-character name cannot widen every
 * row; the last column, which is not padded and so widens no other row,
 * and the notes are where prose goes (an error's reason) and may take
 * TABLE_TEXT_MAX. The caller's JSON keeps the whole string.
 */
#define TABLE_CELL_MAX 90	/* a machine class or benchmark name of today fits */
#define TABLE_TEXT_MAX 240	/* a knotif-bench "unsupported: …" reason fits */

struct table;

struct table *table_new(int ncols, const char *const *headers, const char *align /* "lrr…" */);
/* ncols cells; copied */
void table_add(struct table *t, const char *const *cells);
/* A full-width line between rows (e.g. "unsupported: …"), not aligned into columns. */
void table_add_note(struct table *t, const char *note);
void table_print(const struct table *t, FILE *out);
void table_free(struct table *t);

#endif
