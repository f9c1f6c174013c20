#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Edit the series as git commits, and write it back byte for byte as
# kernel/patches holds it: two parts, each a series of its own,
# kernel/patches/mergeable (proposed for merging; applies alone) and
# kernel/patches/rfc (on top of it); kernel/patches/series lists both.
#
#   kernel/scripts/series-git.sh import DIR   a git tree in DIR: the stock files the
#                                             series touches, then one commit per patch
#                                             (git am), each patch's notes (below its
#                                             cut line) as a git note; tag "mergeable"
#                                             is the mergeable part's last commit
#   kernel/scripts/series-git.sh export DIR   DIR's commits base..mergeable back to
#                                             kernel/patches/mergeable, mergeable..HEAD
#                                             to kernel/patches/rfc (000N-*.patch and
#                                             series in each)
#
# Edit with git rebase -i in DIR (notes follow rewritten commits; move the tag
# "mergeable" if the part's last commit changes). The stock tree comes from
# `make -f Makefile.kernel source` (KNOTIF_CACHE).
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
		case $p in mergeable/*) git -C "$dir" tag -f mergeable >/dev/null ;; esac
	done
	echo "$dir: $(git -C "$dir" rev-list --count base..HEAD) commits on base"
	;;
export)
	git -C "$dir" rev-parse -q --verify mergeable >/dev/null ||
		{ echo "$dir: no tag mergeable (the mergeable part's last commit)" >&2; exit 1; }
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
	# part RANGE SUBJECT-PREFIX: one part's patches into kernel/patches/PART
	part() {
		mkdir -p "$out/$1" "$patches/$1"
		git -C "$dir" format-patch -q --zero-commit --no-signature --notes -n \
			--subject-prefix="$3" -o "$out/$1" "$2"
		rm -f "$patches/$1"/000[1-9]-*.patch "$patches/$1"/00[1-9][0-9]-*.patch
		cp "$out/$1"/*.patch "$patches/$1/"
		{
			echo "# SPDX-License-Identifier: GPL-2.0"
			echo "# knotif series, $1 part, for Linux 6.12 LTS: applied in order with patch -p1"
			(cd "$out/$1" && ls ./*.patch | sed 's|^\./||')
		} >"$patches/$1/series"
	}
	part mergeable base..mergeable PATCH
	part rfc mergeable..HEAD "RFC PATCH"
	{
		echo "# SPDX-License-Identifier: GPL-2.0"
		echo "# knotif series for Linux 6.12 LTS, both parts (mergeable, then rfc on top),"
		echo "# applied in order with patch -p1 by Makefile.kernel"
		for p in mergeable rfc; do grep -v '^#' "$patches/$p/series" | sed "s|^|$p/|"; done
	} >"$patches/series"
	echo "kernel/patches: $(ls "$out/mergeable" | wc -l) mergeable, $(ls "$out/rfc" | wc -l) RFC patches (the cover letters are edited by hand)"
	;;
*)
	usage
	;;
esac
