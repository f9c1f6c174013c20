/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_ESCAPE_H
#define KNOTIF_ESCAPE_H

/*
 * A string from outside (a traced process, a result file, a database) made
 * safe for one line of a terminal: control characters (C0, DEL, C1) become
 * \n, \t, \r or \xNN, bytes that are not UTF-8 become \xNN, and a backslash
 * becomes \\, so the escaped text reads back unambiguously. Printable
 * UTF-8 ("µs", "×") is kept. Returns a malloc'd string (aborts when out of
 * memory, as table.c does).
 */
char *escape_text(const char *s);

#endif
