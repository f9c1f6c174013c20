/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_SMALL_FILE_H
#define KNOTIF_SMALL_FILE_H

#include <sys/types.h>

/*
 * A small file of /proc or /sys, whole, in one read (a seq_file gives
 * what fits in one go): name opened at dirfd (AT_FDCWD, or an open
 * directory such as /proc/TID), into buf, NUL-terminated. Its length, or
 * -errno; -E2BIG when it fills buf (it may go on: buf holds its beginning,
 * terminated, for a reader that wants only that).
 */
ssize_t small_file_read(int dirfd, const char *name, char *buf, size_t size);

#endif
