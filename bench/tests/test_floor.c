// SPDX-License-Identifier: GPL-2.0
/*
 * The floor is the fastest ping-pong that really blocked: a futex hand-off
 * that caught its partner awake (under two context switches per round
 * trip) is faster than any context switch and must not become the floor,
 * or every ratio at that placement would be inflated by 10x. When no
 * ping-pong of a placement blocked (a short run under load), that placement
 * has no floor: its rows carry no floor_ratio, and context.knotif.floor
 * says so and why, for every placement whose ping-pongs ran.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "result.h"

static int failures;

static void check(const char *what, double got, double want)
{
	if (!(fabs(got - want) < 1e-9)) {
		printf("not ok: %s: got %g, want %g\n", what, got, want);
		failures++;
	}
}

static void fill(struct result *r, const char *name, const struct method *m, enum placement p, double p50,
		 double cs)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->m = m;
	r->placement = p;
	r->status = RESULT_OK;
	r->reps = 3;
	for (int rep = 0; rep < 3; rep++) {
		r->fig[rep][FIG_P50] = p50;
		r->fig[rep][FIG_CS] = cs;
	}
}

int main(void)
{
	static const struct method pipe_m = { .name = "pingpong/pipe", .kind = KIND_FLOOR };
	static const struct method futex_m = { .name = "pingpong/futex", .kind = KIND_FLOOR };
	static const struct method unotif_m = { .name = "unotif/sync/emulate", .kind = KIND_UNOTIF };
	struct result res[9];
	json_t *floors, *free_floor;
	const char *reason;

	/* cross: futex did not block (0.97 switches): the pipe is the floor */
	fill(&res[0], "unotif/sync/emulate/placement:cross", &unotif_m, PLACEMENT_CROSS, 21000, 2.0);
	fill(&res[1], "pingpong/pipe/placement:cross", &pipe_m, PLACEMENT_CROSS, 20000, 2.0);
	fill(&res[2], "pingpong/futex/placement:cross", &futex_m, PLACEMENT_CROSS, 1900, 0.97);
	/* same: both blocked; the faster one is the floor; no counters = trusted */
	fill(&res[3], "unotif/sync/emulate/placement:same", &unotif_m, PLACEMENT_SAME, 13000, 2.0);
	fill(&res[4], "pingpong/pipe/placement:same", &pipe_m, PLACEMENT_SAME, 15000, 2.0);
	fill(&res[5], "pingpong/futex/placement:same", &futex_m, PLACEMENT_SAME, 12500, NAN);
	/* free: neither blocked: no floor */
	fill(&res[6], "unotif/sync/emulate/placement:free", &unotif_m, PLACEMENT_FREE, 9000, 2.0);
	fill(&res[7], "pingpong/pipe/placement:free", &pipe_m, PLACEMENT_FREE, 2000, 1.5);
	fill(&res[8], "pingpong/futex/placement:free", &futex_m, PLACEMENT_FREE, 1900, 0.97);
	results_apply_floor(res, 9);
	check("unotif cross over the pipe floor", res[0].fig[0][FIG_FLOOR], 21000.0 / 20000);
	check("the futex row keeps a ratio to the real floor", res[2].fig[0][FIG_FLOOR], 1900.0 / 20000);
	check("unotif same over the futex floor", res[3].fig[0][FIG_FLOOR], 13000.0 / 12500);
	check("the same-CPU floor is 1", res[5].fig[2][FIG_FLOOR], 1.0);
	check("no floor at free: no floor_ratio", isnan(res[6].fig[0][FIG_FLOOR]), 1);

	floors = results_floor_context(res, 9);
	check("a floor entry per placement that ran", (double)json_object_size(floors), 3);
	check("the cross floor is the pipe",
	      !strcmp(json_string_value(json_object_get(json_object_get(floors, "cross"), "benchmark")),
		      "pingpong/pipe/placement:cross"), 1);
	free_floor = json_object_get(floors, "free");
	reason = json_string_value(json_object_get(free_floor, "reason"));
	check("free: benchmark is null", json_is_null(json_object_get(free_floor, "benchmark")), 1);
	check("free: p50 is null", json_is_null(json_object_get(free_floor, "p50")), 1);
	check("free: the reason names both ping-pongs", reason && strstr(reason, "pingpong/pipe/placement:free 1.50") &&
	      strstr(reason, "pingpong/futex/placement:free 0.97"), 1);
	if (reason)
		printf("# free: %s\n", reason);
	json_decref(floors);
	if (!failures)
		printf("ok: floors chosen among blocking ping-pongs; a placement without one says why\n");
	return failures ? 1 : 0;
}
