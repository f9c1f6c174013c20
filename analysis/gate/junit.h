/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KNOTIF_GATE_JUNIT_H
#define KNOTIF_GATE_JUNIT_H

#include <stdio.h>

#include "verdict.h"

/*
 * The comparison as JUnit XML, the test report CI systems show (GitLab's
 * and Jenkins's test tabs, most others): one testsuite, one testcase per
 * benchmark compared (classname: its method family, "unotif"), a failure
 * with the verdict's text for each regression, skipped for a benchmark not
 * judged (an error or unsupported row, one file only, report-only, too
 * few repetitions), and the figures in system-out. Written with libxml2's
 * writer; every string from the files is escaped first (escape.h), so a
 * control character cannot make the document invalid. 0 or -EIO.
 */
int gate_print_junit(FILE *out, const struct gb_file *base, const struct gb_file *new,
		     const struct gate_options *o, const struct gate_result *r);

#endif
