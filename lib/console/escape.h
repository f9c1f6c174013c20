/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_ESCAPE_H
#define KNOTIF_ESCAPE_H

#include <stddef.h>

/*
 * A string from outside (a traced process, a result file, a database) made
 * safe for one line of a terminal: control characters (C0, DEL, C1) become
 * \n, \t, \r or \xNN, bytes that are not UTF-8 become \xNN, the bidi
 * controls (U+061C, U+200E/F, U+202A-E, U+2066-9) and the line and
 * paragraph separators (U+2028/9) become \uNNNN, and a backslash becomes
 * \\, so the escaped text reads back unambiguously and cannot reorder or
 * break the line it is printed in. Other printable UTF-8 ("µs", "×") is
 * kept. Returns a malloc'd string (aborts when out of memory, as table.c
 * does).
 */
char *escape_text(const char *s);

/* the columns s takes on a terminal: its code points (escape_text()'s output is all one column each) */
size_t escape_width(const char *s);

/* the narrowest max escape_elided() takes: "…#xxxxxxxx…" and a column each side */
#define ESCAPE_ELIDED_MIN 13

/*
 * escape_text(s) in at most max columns (code points, as table.c counts
 * them; max >= ESCAPE_ELIDED_MIN): when it is wider, its first and last
 * columns (about 5:3) with "…#xxxxxxxx…" between, xxxxxxxx a hash of all
 * of s, so two long names that share their ends still read differently.
 * An escape (\x1b) is kept whole or left out, never cut.
 */
char *escape_elided(const char *s, size_t max);

#endif
