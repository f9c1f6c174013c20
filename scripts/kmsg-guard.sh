# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests that make the kernel work (bench, stress, run):
# a marker goes into the kernel log when the test starts, and when it ends a
# WARNING, BUG, Oops or KASAN report logged after the marker fails it (as
# liburing's runner does). Without root (no /dev/kmsg to write) it says so
# once and checks nothing. Tests running at the same time share the log: a
# report fails whichever of them ends next, and names itself.
#   kmsg_guard_exit RC   the test's EXIT trap calls it last
kmsg_marker="knotif-test-marker $$.$RANDOM ${0##*/}"
kmsg_armed=0
if [ -w /dev/kmsg ] && echo "$kmsg_marker" >/dev/kmsg 2>/dev/null; then
	kmsg_armed=1
else
	echo "note: no /dev/kmsg to write: kernel warnings are not checked"
fi

# stdin: a kernel log; prints the reports after the line holding $1
kmsg_reports_after() {
	awk -v m="$1" 'found && /(WARNING: (CPU|at)|BUG:|Oops|KASAN|UBSAN|general protection fault|Kernel panic)/ { print }
		index($0, m) { found = 1 }'
}

kmsg_guard_exit() {
	local rc=$1 reports
	if [ "$kmsg_armed" = 1 ] && command -v dmesg >/dev/null; then
		reports=$(dmesg 2>/dev/null | kmsg_reports_after "$kmsg_marker")
		if [ -n "$reports" ]; then
			echo "not ok: the kernel logged during ${0##*/} (after '$kmsg_marker'):"
			printf '%s\n' "$reports" | head -20
			exit 1
		fi
	fi
	exit "$rc"
}
