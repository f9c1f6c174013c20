/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_GATE_STREAM_H
#define KNOTIF_GATE_STREAM_H

#include <stddef.h>

#include "gbread.h"

/*
 * gb_file_load() without the whole document in memory: the file is parsed
 * as a stream (yajl) and each row of "benchmarks" is built, added to its
 * series and freed before the next, so memory follows what the gate keeps
 * (each series' numbers), not the file's size. Same checks (any JSON value
 * jansson's JSON_REJECT_DUPLICATES load would refuse is "not valid JSON"),
 * same messages, same return values; f->root stays NULL.
 */
int gb_file_stream(struct gb_file *f, const char *path, char *why, size_t len);

#endif
