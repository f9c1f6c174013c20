# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest tests of trace/ (after testlib.sh): the patched
# kernel to boot, the QEMU accelerator, and the static programs for the
# initramfs. Each skips (77) when its part is missing.
#   vm_kernel        sets $kernel: BZIMAGE=, else the patched bzImage of this
#                    checkout's series (Makefile.kernel's tree, by content hash)
#   vm_static TARGET...  builds TARGET... static into $TRACE_STATIC_BUILD, sets $bdir
#   vm_boot MEM APPEND   boots it (below)
cache=${KNOTIF_CACHE:-/var/cache/knotif}
# TCG on one host thread, as kernel/scripts/vm-run.sh boots it: with one
# thread per vCPU (MTTCG) a jump label patched on one vCPU is sometimes run
# by the other as text_poke_bp()'s int3 ("Oops: int3" at boot, stock too).
accel=${ACCEL:-tcg}	# kvm: nested -cpu max aborts on this host; tcg takes ~15 s
[ "$accel" = tcg ] && accel=tcg,thread=single

vm_kernel() {
	local patched
	need qemu-system-x86_64
	# Makefile.kernel names the tree of this checkout's series (by its content hash)
	patched=$(make -s -f "${TRACE_SRC:?}/../Makefile.kernel" info | sed -n 's/^patched: *//p')
	kernel=${BZIMAGE:-$patched/obj/arch/x86/boot/bzImage}
	[ -f "$kernel" ] ||
		skip "no patched kernel of this series at $patched (make -f Makefile.kernel build-patched)"
}

vm_static() {
	bdir=${TRACE_STATIC_BUILD:?}	# inside this checkout's build tree
	cmake -S "${TRACE_SRC:?}/.." -B "$bdir" -DKNOTIF_STATIC=ON >"$bdir.log" 2>&1 &&
		cmake --build "$bdir" -j2 --target "$@" >>"$bdir.log" 2>&1 ||
		fail "static build failed, see $bdir.log"
}

# vm_boot MEM APPEND: boots $kernel on $TEST_TMP/initrd.cpio.gz with two vCPUs,
# the console in $TEST_TMP/console.log; fails unless the guest's init finished
vm_boot() {
	echo "booting $kernel ($accel)"
	timeout 600 qemu-system-x86_64 -accel $accel -m "$1" -nographic -no-reboot -cpu max -smp 2 \
		-kernel "$kernel" -initrd "$TEST_TMP/initrd.cpio.gz" -append "console=ttyS0 quiet panic=-1 $2" \
		-serial mon:stdio >"$TEST_TMP/console.log" 2>&1 </dev/null
	grep -q KNOTIF-TRACE-END "$TEST_TMP/console.log" ||
		{ cat "$TEST_TMP/console.log"; fail "the guest did not finish"; }
}
