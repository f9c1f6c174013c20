/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_TABLE_H
#define KNOTIF_TABLE_H

#include <stdio.h>

/*
 * A console table: columns sized to their widest cell, text left-aligned,
 * numbers right-aligned, so a person reads it at a glance. Cells and notes
 * are escaped (escape.h): a newline or a terminal escape sequence in a name
 * cannot forge a row or drive the terminal.
 */
struct table;

struct table *table_new(int ncols, const char *const *headers, const char *align /* "lrr…" */);
/* ncols cells; copied */
void table_add(struct table *t, const char *const *cells);
/* A full-width line between rows (e.g. "unsupported: …"), not aligned into columns. */
void table_add_note(struct table *t, const char *note);
void table_print(const struct table *t, FILE *out);
void table_free(struct table *t);

#endif
