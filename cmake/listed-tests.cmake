# SPDX-License-Identifier: GPL-2.0
# Tests named by a program's own list, so that adding to a registry adds its tests.
#
#   include(knotif-test.cmake)
#   listed_tests(NAME bench-methods PROGRAM knotif-bench ARGS --benchmark_list_tests
#                PREFIX bench.method. SCRIPT method_runs.sh TIMEOUT 60 [KERNEL] [SLOW]
#                ENV VAR=value ...)
#
# After each build of PROGRAM, "PROGRAM ARGS" is run and every line NAME it prints
# becomes the test PREFIX<NAME>, running "SCRIPT NAME" with ENV, with what
# knotif_test() gives a shell test (timeout, skip code, labels, the kernel-log
# scan; not PYTHONPATH or SERIAL, which no listed script needs); ctest reads them through TEST_INCLUDE_FILES (a list not written yet is
# a failing test). The same file, run with -P, writes the list.
if(CMAKE_SCRIPT_MODE_FILE)
	separate_arguments(cmd UNIX_COMMAND "${LIST}")
	execute_process(COMMAND ${cmd} OUTPUT_VARIABLE names RESULT_VARIABLE rc TIMEOUT 60)
	if(NOT rc EQUAL 0)
		message(FATAL_ERROR "${LIST} exited ${rc}")
	endif()
	string(REPLACE "\n" ";" names "${names}")
	string(REPLACE "," ";" labels "${LABELS}")
	set(text "")
	foreach(name ${names})
		if(NOT name STREQUAL "")
			set(test "[=[${PREFIX}${name}]=]")
			if(WRAP)
				set(run "[=[${WRAP}]=] ${test} [=[${SCRIPT}]=] [=[${name}]=]")
			else()
				set(run "[=[${SCRIPT}]=] [=[${name}]=]")
			endif()
			string(APPEND text "add_test(${test} ${run})\n"
				"set_tests_properties(${test} PROPERTIES TIMEOUT ${TIMEOUT} "
				"SKIP_RETURN_CODE 77 LABELS \"${labels}\" ENVIRONMENT \"\${listed_env}\")\n")
		endif()
	endforeach()
	file(WRITE ${OUT}.tmp "${text}")
	file(RENAME ${OUT}.tmp ${OUT})
	return()
endif()

include(${CMAKE_CURRENT_LIST_DIR}/knotif-test.cmake)

function(listed_tests)
	cmake_parse_arguments(PARSE_ARGV 0 T "KERNEL;VM;SLOW;NO_C" "NAME;PROGRAM;PREFIX;SCRIPT;TIMEOUT"
		"ARGS;ENV")
	set(list ${CMAKE_CURRENT_BINARY_DIR}/${T_NAME}.cmake)
	string(REPLACE ";" " " args "${T_ARGS}")
	knotif_test_labels()
	string(REPLACE ";" "," labels "${labels}")
	set(wrap "")
	if(T_KERNEL)
		set(wrap ${KNOTIF_KMSG_RUN})
	endif()
	add_custom_command(OUTPUT ${list}
		COMMAND ${CMAKE_COMMAND} "-DLIST=$<TARGET_FILE:${T_PROGRAM}> ${args}" -DPREFIX=${T_PREFIX}
			-DSCRIPT=${T_SCRIPT} -DTIMEOUT=${T_TIMEOUT} -DOUT=${list} -DLABELS=${labels}
			-DWRAP=${wrap} -P ${CMAKE_CURRENT_FUNCTION_LIST_FILE}
		DEPENDS ${T_PROGRAM} ${T_SCRIPT} VERBATIM)
	add_custom_target(${T_NAME} ALL DEPENDS ${list})
	file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${T_NAME}-include.cmake CONTENT
		"set(listed_env \"${T_ENV}\")\nif(EXISTS ${list})\n\tinclude(${list})\nelse()\n\tadd_test(${T_PREFIX}not_listed false)\nendif()\n")
	set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${CMAKE_CURRENT_BINARY_DIR}/${T_NAME}-include.cmake)
endfunction()
