// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper: the gate's Mann-Whitney U on arrays read from stdin, one case
 * a line, "x1 x2 ... | y1 y2 ...", printed as "u1 pvalue exact|asymptotic
 * min_pvalue", so a test can hold it against scipy on the same arrays.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mannwhitney.h"

static size_t parse(char *s, double *v, size_t cap)
{
	size_t n = 0;
	char *end;

	for (;;) {
		double d = strtod(s, &end);

		if (end == s)
			return n;
		if (n == cap)
			die("more than %zu values", cap);
		v[n++] = d;
		s = end;
	}
}

int main(void)
{
	static double x[4096], y[4096];
	char line[1 << 16];

	knotif_prog = "mwu-pvalue";
	while (fgets(line, sizeof(line), stdin)) {
		char *bar = strchr(line, '|');
		size_t n1, n2;
		struct mwu r;

		if (!bar)
			usage_error("expected 'x... | y...', got: %s", line);
		*bar = 0;
		n1 = parse(line, x, 4096);
		n2 = parse(bar + 1, y, 4096);
		check_ret(mann_whitney_u(x, n1, y, n2, &r), "mann_whitney_u");
		printf("%.17g %.17g %s %.17g\n", r.u1, r.pvalue, r.exact ? "exact" : "asymptotic",
		       mann_whitney_min_pvalue(n1, n2));
	}
	return 0;
}
