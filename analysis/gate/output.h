/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_GATE_OUTPUT_H
#define KNOTIF_GATE_OUTPUT_H

#include <stdio.h>

#include "verdict.h"

/* A person's view: an aligned table, notes under it, one verdict line. */
void gate_print_console(FILE *out, const struct gb_file *base, const struct gb_file *new,
			const struct gate_options *o, const struct gate_result *r);
/* A machine's view: the same facts as one JSON document. */
int gate_print_json(FILE *out, const struct gb_file *base, const struct gb_file *new,
		    const struct gate_options *o, const struct gate_result *r);

#endif
