#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Edit the series as git commits, and write it back byte for byte as
# kernel/patches holds it.
#
#   kernel/scripts/series-git.sh import DIR   a git tree in DIR: the stock files the
#                                             series touches, then one commit per patch
#                                             (git am), each patch's notes (below its
#                                             cut line) as a git note
#   kernel/scripts/series-git.sh export DIR   DIR's commits after the base back to
#                                             kernel/patches/000N-*.patch and series
#
# Edit with git rebase -i in DIR (notes follow rewritten commits). The stock
# tree comes from `make -f Makefile.kernel source` (KNOTIF_CACHE).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
patches=$here/patches
stock=${KNOTIF_CACHE:-/var/cache/knotif}/kernel/linux-source-6.12/stock/src

usage() { echo "usage: $0 import|export DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
cmd=$1 dir=$2

# what format-patch needs to reproduce the files: 9-digit ids, C function
# names in hunk headers, no signature, notes below the cut line
git_setup() {
	git -C "$dir" config core.abbrev 9
	git -C "$dir" config user.name "knotif project"
	git -C "$dir" config user.email knotif@users.noreply.github.com
	git -C "$dir" config notes.rewriteRef refs/notes/commits
	printf '*.c diff=cpp\n*.h diff=cpp\n' >"$dir/.git/info/attributes"
}

case $cmd in
import)
	[ -d "$stock" ] || { echo "no stock tree at $stock: make -f Makefile.kernel source" >&2; exit 1; }
	[ ! -e "$dir" ] || { echo "$dir exists" >&2; exit 2; }
	mkdir -p "$dir"
	git -C "$dir" init -q
	git_setup
	grep -v '^#' "$patches/series" | while read -r p; do
		grep '^diff --git a/' "$patches/$p" | awk '{ sub("^a/", "", $3); print $3 }'
	done | sort -u | while read -r f; do
		[ -e "$stock/$f" ] || continue
		mkdir -p "$dir/$(dirname "$f")"
		cp "$stock/$f" "$dir/$f"
	done
	git -C "$dir" add -A
	git -C "$dir" commit -qm "base: $(cat "$stock/../kernelversion" 2>/dev/null || echo stock) (files the series touches)"
	git -C "$dir" tag -f base >/dev/null
	grep -v '^#' "$patches/series" | while read -r p; do
		git -C "$dir" am -q --committer-date-is-author-date "$patches/$p"
		# the notes block between "---" + "Notes:" and the diffstat
		notes=$(awk '/^---$/ { cut = 1; next } cut && /^Notes:$/ { n = 1; next }
			     n && /^$/ && seen { exit } n { sub(/^    /, ""); print; seen = 1 }' "$patches/$p")
		[ -z "$notes" ] || git -C "$dir" notes add -f -m "$notes" HEAD
	done
	echo "$dir: $(git -C "$dir" rev-list --count base..HEAD) commits on base"
	;;
export)
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
	git -C "$dir" format-patch -q --zero-commit --no-signature --notes -o "$out" base..HEAD
	rm -f "$patches"/000[1-9]-*.patch "$patches"/00[1-9][0-9]-*.patch
	cp "$out"/*.patch "$patches/"
	{
		echo "# SPDX-License-Identifier: GPL-2.0"
		echo "# knotif series for Linux 6.12 LTS, applied in order with patch -p1 by Makefile.kernel"
		(cd "$out" && ls ./*.patch | sed 's|^\./||')
	} >"$patches/series"
	echo "kernel/patches: $(ls "$out" | wc -l) patches (the cover letter is edited by hand)"
	;;
*)
	usage
	;;
esac
