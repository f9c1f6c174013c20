// SPDX-License-Identifier: GPL-2.0
#include "trace_phases.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "gbjson.h"
#include "pdeath.h"
#include "table.h"

static const char *const phases[] = { "queue_wait", "think", "wake_to_resume", "round_trip" };
#define NPHASES (sizeof(phases) / sizeof(phases[0]))

struct trace_phases {
	char tool[PATH_MAX];
	int summary_fd;			/* a memfd the tracer writes its summary into */
	char summary[64];		/* its name for the tracer: /proc/self/fd/N */
	pid_t pid;			/* knotif-trace while running, else 0 */
	json_t *by_benchmark;		/* name -> the kind's summary {transitions, phases} */
	json_t *context;		/* source, unsupported sources: from the last summary */
	json_t *not_understood;		/* names of the selected benchmarks it cannot follow */
};

struct trace_phases *trace_phases_new(void)
{
	struct trace_phases *t = calloc(1, sizeof(*t));
	ssize_t len;
	char *slash;

	if (!t)
		die("out of memory");
	len = readlink("/proc/self/exe", t->tool, sizeof(t->tool) - 32);
	if (len < 0)
		die("--trace: /proc/self/exe: %s", strerror(errno));
	t->tool[len] = '\0';
	slash = strrchr(t->tool, '/');
	strcpy(slash ? slash + 1 : t->tool, "knotif-trace");
	if (access(t->tool, X_OK)) {
		if (errno == ENOENT)
			die("--trace needs %s (built beside knotif-bench when clang, bpftool, libbpf and "
			    "kernel BTF are there): %s", t->tool, strerror(errno));
		/* there, but not for us (e.g. a 0700 directory above it) */
		die("--trace cannot run %s: %s", t->tool, strerror(errno));
	}
	/*
	 * In memory, not a file in /tmp: a knotif-bench killed outright
	 * (no atexit) left a directory behind for every such run, and its
	 * tracer, ended by the death signal, wrote a summary into it.
	 */
	t->summary_fd = memfd_create("knotif-bench-trace-summary", MFD_CLOEXEC);
	if (t->summary_fd < 0)
		die("--trace: memfd_create: %s", strerror(errno));
	snprintf(t->summary, sizeof(t->summary), "/proc/self/fd/%d", t->summary_fd);
	t->by_benchmark = json_object();
	t->not_understood = json_array();
	return t;
}

void trace_phases_not_understood(struct trace_phases *t, const char *benchmark)
{
	json_array_append_new(t->not_understood, json_string(benchmark));
}

void trace_phases_begin(struct trace_phases *t)
{
	char pid[16], ready_fd[16], c;
	int ready[2], status;
	pid_t child, me = getpid();

	if (pipe2(ready, O_CLOEXEC))
		die("--trace: pipe: %s", strerror(errno));
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(ready_fd, sizeof(ready_fd), "%d", ready[1]);
	child = fork();
	if (child < 0)
		die("--trace: fork: %s", strerror(errno));
	if (child == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		/* a knotif-bench killed outright must not leave its tracer running: TERM ends it cleanly */
		if (pdeath_follow(me, SIGTERM))
			_exit(127);
		/* its summary goes to the file; knotif-bench's stdout stays its own */
		if (devnull < 0 || dup2(devnull, STDOUT_FILENO) < 0)
			_exit(127);
		/* the two descriptors knotif-trace inherits */
		fcntl(ready[1], F_SETFD, 0);
		fcntl(t->summary_fd, F_SETFD, 0);
		execl(t->tool, t->tool, "-q", "-p", pid, "-j", t->summary, "--ready-fd", ready_fd,
		      (char *)NULL);
		_exit(127);
	}
	close(ready[1]);
	/* "ready" once attached; EOF when it gave up (it said why on stderr) */
	if (read(ready[0], &c, 1) != 1) {
		waitpid(child, &status, 0);
		die("--trace: %s did not attach (exit status %d; its message is above)", t->tool,
		    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	}
	close(ready[0]);
	t->pid = child;
}

void trace_phases_end(struct trace_phases *t, const char *benchmark, const char *trace_kind)
{
	json_t *s, *kinds;
	json_error_t jerr;
	int status;

	if (!t->pid)
		return;
	kill(t->pid, SIGINT);
	while (waitpid(t->pid, &status, 0) < 0 && errno == EINTR)
		;
	t->pid = 0;
	if (!benchmark)
		return;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die("--trace: %s failed while tracing %s", t->tool, benchmark);
	if (lseek(t->summary_fd, 0, SEEK_SET) < 0)
		die("--trace: the summary: %s", strerror(errno));
	s = json_loadfd(t->summary_fd, 0, &jerr);
	if (!s)
		die("--trace: reading %s's summary: %s", t->tool, jerr.text);
	kinds = json_object_get(s, "kinds");
	json_object_set(t->by_benchmark, benchmark, json_object_get(kinds, trace_kind));
	json_decref(t->context);
	t->context = json_pack("{s:O,s:O,s:s}", "source", json_object_get(s, "source"),
			       "unsupported_sources", json_object_get(s, "unsupported_sources"),
			       "tool", t->tool);
	json_decref(s);
}

static double phase_p50(json_t *kind, const char *phase)
{
	json_t *p = json_object_get(json_object_get(kind, "phases"), phase);

	return json_integer_value(json_object_get(p, "count")) > 0 ?
	       json_number_value(json_object_get(p, "p50")) : NAN;
}

void trace_phases_annotate(const struct trace_phases *t, json_t *rows, json_t *context)
{
	size_t i;
	json_t *row;

	if (t->context)
		json_object_set(json_object_get(context, "knotif"), "trace", t->context);
	if (json_array_size(t->not_understood)) {
		json_t *trace = json_object_get(json_object_get(context, "knotif"), "trace");

		if (!trace) {
			trace = json_object();
			json_object_set_new(json_object_get(context, "knotif"), "trace", trace);
		}
		json_object_set(trace, "not_understood", t->not_understood);
	}
	json_array_foreach(rows, i, row) {
		json_t *kind = json_object_get(t->by_benchmark,
					       json_string_value(json_object_get(row, "run_name")));
		const char *agg = json_string_value(json_object_get(row, "aggregate_name"));
		char key[64];

		/* one breakdown per benchmark: it has no spread over repetitions */
		if (!kind || (agg && strcmp(agg, "mean") && strcmp(agg, "median")))
			continue;
		gb_counter(row, "trace_notifications",
			   (double)json_integer_value(json_object_get(json_object_get(
				   json_object_get(kind, "phases"), "round_trip"), "count")));
		for (size_t p = 0; p < NPHASES; p++) {
			double v = phase_p50(kind, phases[p]);

			snprintf(key, sizeof(key), "trace_%s_p50", phases[p]);
			if (!isnan(v))
				gb_counter(row, key, v);
		}
	}
}

void trace_phases_print(const struct trace_phases *t, FILE *out)
{
	static const char *const headers[] = {
		"Benchmark", "notifications", "queue wait µs", "think µs", "wake→resume µs",
		"round trip µs", "interrupted", "no queue stamp",
	};
	struct table *tab;
	const char *name;
	json_t *kind;

	if (json_array_size(t->not_understood)) {
		size_t i;
		json_t *v;

		fprintf(out, "# not traced: knotif-trace does not understand");
		json_array_foreach(t->not_understood, i, v)
			fprintf(out, "%s %s", i ? "," : "", json_string_value(v));
		fprintf(out, " (it follows seccomp user notifications and seccomp ptrace stops only)\n");
	}
	if (!json_object_size(t->by_benchmark))
		return;
	fprintf(out, "# phases seen by knotif-trace (source %s), p50 over every call incl. warm-up:\n",
		json_string_value(json_object_get(t->context, "source")));
	tab = table_new(8, headers, "lrrrrrrr");
	json_object_foreach(t->by_benchmark, name, kind) {
		json_t *tr = json_object_get(kind, "transitions");
		char cells[8][160];
		const char *row[8];

		snprintf(cells[0], sizeof(cells[0]), "%s", name);
		snprintf(cells[1], sizeof(cells[1]), "%lld",
			 (long long)json_integer_value(json_object_get(tr, "resumed")));
		for (size_t p = 0; p < NPHASES; p++) {
			double v = phase_p50(kind, phases[p]);

			if (isnan(v))
				snprintf(cells[2 + p], sizeof(cells[0]), "-");
			else
				snprintf(cells[2 + p], sizeof(cells[0]), "%.3f", v / 1000.0);
		}
		snprintf(cells[6], sizeof(cells[6]), "%lld",
			 (long long)json_integer_value(json_object_get(tr, "interrupted")));
		snprintf(cells[7], sizeof(cells[7]), "%lld",
			 (long long)json_integer_value(json_object_get(tr, "no_queue_stamp")));
		for (int c = 0; c < 8; c++)
			row[c] = cells[c];
		table_add(tab, row);
	}
	table_print(tab, out);
	table_free(tab);
}

void trace_phases_free(struct trace_phases *t)
{
	if (!t)
		return;
	if (t->pid) {
		kill(t->pid, SIGKILL);
		waitpid(t->pid, NULL, 0);
	}
	json_decref(t->by_benchmark);
	json_decref(t->not_understood);
	json_decref(t->context);
	close(t->summary_fd);
	free(t);
}
