# SPDX-License-Identifier: GPL-2.0
# The kernel-log scan of every test that makes the kernel work (registered
# with knotif_test(... KERNEL), cmake/knotif-test.cmake): scripts/tests/kmsg-run
# writes a marker into the kernel log, runs the test, and fails it when a
# WARNING, BUG, Oops or KASAN report was logged after the marker (liburing's
# runner does the same). Without root (no /dev/kmsg to write) it says so and
# checks nothing. Tests running at the same time share the log: a report
# fails whichever of them ends next, and names itself.
#   kmsg_arm NAME      write the marker
#   kmsg_check RC      RC, or 1 (with the reports) when the kernel logged one

kmsg_armed=0
kmsg_arm() {
	kmsg_marker="knotif-test-marker $$.$RANDOM $1"
	if [ -w /dev/kmsg ] && echo "$kmsg_marker" >/dev/kmsg 2>/dev/null; then
		kmsg_armed=1
	else
		echo "note: no /dev/kmsg to write: kernel warnings are not checked"
	fi
}

# stdin: a kernel log; prints the reports after the line holding $1
kmsg_reports_after() {
	awk -v m="$1" 'found && /(WARNING: (CPU|at)|BUG:|Oops|KASAN|UBSAN|general protection fault|Kernel panic)/ { print }
		index($0, m) { found = 1 }'
}

kmsg_check() {
	local rc=$1 reports
	if [ "$kmsg_armed" = 1 ] && command -v dmesg >/dev/null; then
		reports=$(dmesg 2>/dev/null | kmsg_reports_after "$kmsg_marker")
		if [ -n "$reports" ]; then
			echo "not ok: the kernel logged during the test (after '$kmsg_marker'):"
			printf '%s\n' "$reports" | head -20
			return 1
		fi
	fi
	return "$rc"
}
