# SPDX-License-Identifier: GPL-2.0
# Every test of the suite is registered here, one way (as liburing's runner
# does it): one name scheme, a timeout, skip code 77, labels, and the kernel
# log checked around every test that makes the kernel work.
#
#   knotif_test(NAME part.name COMMAND program args...
#               [TIMEOUT seconds]  a hang guard; 120 unless given
#               [KERNEL]           the test makes the kernel intercept (filters,
#                                  ptrace, BPF): run under scripts/tests/kmsg-run,
#                                  which fails it on a WARNING/BUG/Oops/KASAN
#                                  report logged meanwhile; label "kernel"
#               [VM]               boots a kernel under QEMU; label "vm"
#               [SLOW]             takes more than ~5 s here: not labelled "quick"
#               [NO_C]             runs none of knotif's C programs: not labelled
#                                  "asan" (the asan build has nothing to check)
#               [SERIAL]           it measures: nothing else runs beside it
#               [ENV VAR=value...])
#
# Names are <part>.<name> (bench, stress, run, trace, gate, history, report,
# workloads, kernel_bench, repo), lower case. Labels select a subset:
#   ctest -L quick     the tests that take seconds each
#   ctest -L kernel    the tests that make the kernel intercept
#   ctest -L vm        the tests that boot a kernel under QEMU
#   ctest -L asan      the tests worth running in the asan build
set(KNOTIF_KMSG_RUN ${CMAKE_CURRENT_LIST_DIR}/../scripts/tests/kmsg-run)
# where the Python tests import testlib from (scripts/tests/testlib.py)
set(KNOTIF_TESTLIB_DIR ${CMAKE_CURRENT_LIST_DIR}/../scripts/tests)

# The test's labels and command for the options given (shared with listed-tests.cmake).
macro(knotif_test_labels)
	set(labels)
	if(T_KERNEL)
		list(APPEND labels kernel)
	endif()
	if(T_VM)
		list(APPEND labels vm)
	endif()
	if(NOT T_SLOW AND NOT T_VM)
		list(APPEND labels quick)
	endif()
	if(NOT T_NO_C)
		list(APPEND labels asan)
	endif()
endmacro()

function(knotif_test)
	cmake_parse_arguments(PARSE_ARGV 0 T "KERNEL;VM;SLOW;NO_C;SERIAL" "NAME;TIMEOUT" "COMMAND;ENV")
	if(NOT T_NAME MATCHES "^(bench|stress|run|trace|gate|history|report|workloads|kernel_bench|repo|install)\\.[a-z0-9_./:-]+$")
		message(FATAL_ERROR "knotif_test: '${T_NAME}' is not <part>.<name> (cmake/knotif-test.cmake)")
	endif()
	if(NOT T_COMMAND)
		message(FATAL_ERROR "knotif_test(${T_NAME}): no COMMAND")
	endif()
	if(NOT T_TIMEOUT)
		set(T_TIMEOUT 120)
	endif()
	knotif_test_labels()
	set(command ${T_COMMAND})
	if(T_KERNEL)
		set(command ${KNOTIF_KMSG_RUN} ${T_NAME} ${T_COMMAND})
	endif()
	add_test(NAME ${T_NAME} COMMAND ${command})
	set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT} SKIP_RETURN_CODE 77
		LABELS "${labels}")
	set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "PYTHONPATH=${KNOTIF_TESTLIB_DIR};${T_ENV}")
	if(T_SERIAL)
		set_tests_properties(${T_NAME} PROPERTIES RUN_SERIAL TRUE)
	endif()
endfunction()
