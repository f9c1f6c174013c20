# SPDX-License-Identifier: GPL-2.0
# cmake -D BENCH=knotif-bench -D SCRIPT=method_runs.sh -D OUT=file -P method_tests.cmake
# One ctest per benchmark the built knotif-bench lists at placements same and cross, so
# a method added to the registry is tested without touching any test list.
execute_process(COMMAND ${BENCH} --benchmark_list_tests --placement=same,cross
	OUTPUT_VARIABLE names RESULT_VARIABLE rc TIMEOUT 60)
if(NOT rc EQUAL 0)
	message(FATAL_ERROR "${BENCH} --benchmark_list_tests exited ${rc}")
endif()
string(REPLACE "\n" ";" names "${names}")
set(text "")
foreach(name ${names})
	if(name STREQUAL "")
		continue()
	endif()
	string(APPEND text "add_test([=[bench.method.${name}]=] [=[${SCRIPT}]=] [=[${name}]=])\n"
		"set_tests_properties([=[bench.method.${name}]=] PROPERTIES TIMEOUT 60 "
		"SKIP_RETURN_CODE 77 ENVIRONMENT \"\${method_test_env}\")\n")
endforeach()
file(WRITE ${OUT}.tmp "${text}")
file(RENAME ${OUT}.tmp ${OUT})
