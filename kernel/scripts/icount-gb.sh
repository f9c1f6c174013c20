#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# icount-gb.sh [OPTION]... -- PROGRAM [ARG]...
#
# Runs a command that writes Google Benchmark JSON - knotif-bench, or a
# user's own supervisor benchmark - inside a chosen kernel under QEMU
# -icount (one vCPU, or two for --placement=cross|free; guest time counts
# instructions: a run repeats exactly),
# stores its JSON, and with --baseline gates it with knotif-compare
# --deterministic (1%). Instruction-count gates that run on the host cannot
# see a system call's kernel side; this one counts it.
#
#   --kernel=K       a name of kernel/debian-images.txt (debian-6.12, ...: that
#                    pinned image), a Debian package (linux-image-...-unsigned:
#                    the newest version the archive has), or a bzImage path
#   --out=FILE       where the guest's JSON goes (required)
#   --baseline=FILE  then gate FILE (base) against --out (new); the exit
#                    status is knotif-compare's
#   --initramfs=F    the project's guest initramfs (make -f Makefile.kernel initramfs)
#   --cache=DIR      where Debian images are kept, made if missing (default
#                    /var/cache/knotif/kernel/debian)
#   --run-dir=DIR    the guest's console log and files (default: a temporary directory)
#   --placement=P    same (the default): one vCPU; cross or free: two vCPUs,
#                    still under -icount (run the command at that placement
#                    itself, e.g. knotif-bench --placement=cross)
#   --compare=PATH   knotif-compare (default: build/knotif-compare, else PATH's)
#   --check          check the arguments only, boot nothing
#
# PROGRAM with a slash is a host file: it is copied into the guest with the
# shared libraries ldd names. A bare name is a program of the guest's own
# (/knotif/bin: knotif-bench, knotif-stress, unotif-roundtrip, ...; busybox).
# An ARG holding {out} gets the guest's JSON path there; without one,
# --benchmark_out={out} is appended (Google Benchmark's own flag; its file
# format is JSON by default). Exit status: 0 stored (and gated: no regression),
# 1 the guest or the command failed or a regression, 2 bad usage.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
usage() { echo "icount-gb: $* (--help)" >&2; exit 2; }
help() { sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0; }

tmpmsg=$(mktemp)
trap 'rm -f "$tmpmsg"' EXIT
kernel= out= baseline= initramfs= run_dir= compare= check=0 placement=same
cache=/var/cache/knotif/kernel/debian
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel=*) kernel=${1#*=} ;;
	--out=*) out=${1#*=} ;;
	--baseline=*) baseline=${1#*=} ;;
	--initramfs=*) initramfs=${1#*=} ;;
	--cache=*) cache=${1#*=} ;;
	--run-dir=*) run_dir=${1#*=} ;;
	--compare=*) compare=${1#*=} ;;
	--placement=*) placement=${1#*=} ;;
	--check) check=1 ;;
	-h|--help) help ;;
	--) shift; break ;;
	*) usage "unknown argument '$1'" ;;
	esac
	shift
done
[ $# -ge 1 ] || usage "no PROGRAM after --"
[ -n "$kernel" ] || usage "--kernel is required"
[ -n "$out" ] || usage "--out is required"
case "$placement" in same|cross|free) ;; *) usage "--placement=$placement: same, cross or free" ;; esac
[ -d "$(dirname "$out")" ] && [ -w "$(dirname "$out")" ] || usage "--out=$out: its directory is not writable"
[ ! -e "$out" ] || [ -f "$out" -a -w "$out" ] || usage "--out=$out is not a writable file"
[ -z "$baseline" ] || [ -f "$baseline" -a -r "$baseline" ] || usage "--baseline=$baseline cannot be read"
[ -z "$baseline" ] || [ ! "$out" -ef "$baseline" ] || usage "--out and --baseline are the same file"
# the run directory is emptied first (vm-run.sh): only a new or empty one
if [ -n "$run_dir" ]; then
	[ ! -e "$run_dir" ] || { [ -d "$run_dir" ] && [ -z "$(ls -A "$run_dir")" ]; } ||
		usage "--run-dir=$run_dir exists and is not empty"
	[ -d "$(dirname "$run_dir")" ] && [ -w "$(dirname "$run_dir")" ] || usage "--run-dir=$run_dir cannot be made"
fi

program=$1
shift
case "$program" in
*/*) [ -f "$program" ] && [ -x "$program" ] || usage "$program is not an executable file" ;;
*) ;;	# the guest's own; the guest says if it has none
esac
for a in "$program" "$@"; do
	case "$a" in *$'\n'*) usage "an argument holds a newline" ;; esac
done
if [ -n "$baseline" ]; then
	if [ -z "$compare" ]; then
		compare=$top/build/knotif-compare
		[ -x "$compare" ] || compare=$(command -v knotif-compare || true)
	fi
	[ -n "$compare" ] && [ -x "$compare" ] || usage "no knotif-compare (build the project, or --compare=PATH)"
fi

# the kernel: a pinned image, a package, or a file (kernel-image.sh); a wrong
# name is the user's real mistake, so it is named before the cache is judged
"$here/kernel-image.sh" "$kernel" "$cache" --check 2>"$tmpmsg" || usage "$(cat "$tmpmsg")"
# a downloaded image goes to the cache: an existing writable folder, or one
# whose nearest existing ancestor is a writable folder (made below, as on a new
# machine where no kernel target ever ran)
if [ ! -f "$kernel" ]; then
	anc=$cache
	while [ ! -e "$anc" ] && [ "$anc" != / ] && [ "$anc" != . ]; do anc=$(dirname "$anc"); done
	[ -d "$anc" ] && [ -w "$anc" ] && [ -x "$anc" ] ||
		usage "--cache=$cache is not writable ($anc is not a writable folder)"
fi
[ "$check" = 0 ] || exit 0
[ -r "$initramfs" ] || usage "--initramfs=$initramfs cannot be read (make -f Makefile.kernel initramfs)"
if [ ! -f "$kernel" ]; then
	mkdir -p "$cache" || { echo "icount-gb: cannot make --cache=$cache" >&2; exit 1; }
fi
image=$("$here/kernel-image.sh" "$kernel" "$cache") || exit 1
label=$kernel
[ "$placement" = same ] || label="$kernel, placement $placement"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tmpmsg"' EXIT
[ -n "$run_dir" ] || run_dir=$tmp/run

# the overlay: the program (a host file, with its libraries) and its arguments
root=$tmp/root
mkdir -p "$root/knotif/gb"
guest_out=/tmp/gb.json
if [[ "$program" == */* ]]; then
	cp "$program" "$root/knotif/gb/$(basename "$program")"
	# the loader and every library, at the paths the program asks for (a static
	# program has none: ldd fails on it, or names none)
	libs=$(ldd "$program" 2>/dev/null || true)
	case "$libs" in *"not found"*) usage "$program: a library is missing on this host: $(grep -m1 'not found' <<<"$libs")" ;; esac
	for lib in $(grep -oE '/[^ ]+' <<<"$libs" || true); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	program=/knotif/gb/$(basename "$program")
fi
{
	echo "$program"
	has_out=0
	for a in "$@"; do
		[[ "$a" == *"{out}"* ]] && has_out=1
		echo "${a//\{out\}/$guest_out}"
	done
	[ $has_out = 1 ] || echo "--benchmark_out=$guest_out"
} > "$root/knotif/gb/args"
"$here/mkinitramfs.sh" --overlay "$tmp/overlay.cpio.gz" "$root"
# the kernel unpacks concatenated archives in order: the overlay adds files
# (and leaves the initramfs's / as it is: mkinitramfs.sh says why)
cat "$initramfs" "$tmp/overlay.cpio.gz" > "$tmp/initramfs.cpio.gz"

rc=0
VM_PLACEMENT=$placement "$here/vm-run.sh" gb "$image" "$tmp/initramfs.cpio.gz" "$run_dir" "$label" /dev/null || rc=$?
if [ $rc = 3 ]; then
	echo "icount-gb: $label did not boot: $(sed -n 's/^boot_failed: //p' "$run_dir/meta.txt") (console: $run_dir/console.log)" >&2
	exit 1
fi
if [ ! -s "$run_dir/gb.json" ]; then
	echo "icount-gb: the command wrote no JSON in the guest; the end of its console:" >&2
	tail -20 "$run_dir/console.log" | sed 's/^/  /' >&2
	exit 1
fi
cp "$run_dir/gb.json" "$out.tmp.$$" && mv "$out.tmp.$$" "$out" ||
	{ rm -f "$out.tmp.$$"; echo "icount-gb: cannot store $out" >&2; exit 1; }
echo "  GB      $out ($label, -icount)"
[ $rc = 0 ] || { echo "icount-gb: the guest run failed (exit $rc); $out holds what it wrote" >&2; exit 1; }
[ -n "$baseline" ] || exit 0
"$compare" --deterministic "$baseline" "$out"
