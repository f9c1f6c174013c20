# SPDX-License-Identifier: GPL-2.0
# Tests named by a program's own list, so that adding to a registry adds its tests.
#
#   include(listed-tests.cmake)
#   listed_tests(NAME bench-methods PROGRAM knotif-bench ARGS --benchmark_list_tests
#                PREFIX bench.method. SCRIPT method_runs.sh TIMEOUT 60 ENV VAR=value ...)
#
# After each build of PROGRAM, "PROGRAM ARGS" is run and every line NAME it prints
# becomes the test PREFIX<NAME>, running "SCRIPT NAME" with ENV; ctest reads them
# through TEST_INCLUDE_FILES (a list not written yet is a failing test). The same
# file, run with -P, writes the list.
if(CMAKE_SCRIPT_MODE_FILE)
	separate_arguments(cmd UNIX_COMMAND "${LIST}")
	execute_process(COMMAND ${cmd} OUTPUT_VARIABLE names RESULT_VARIABLE rc TIMEOUT 60)
	if(NOT rc EQUAL 0)
		message(FATAL_ERROR "${LIST} exited ${rc}")
	endif()
	string(REPLACE "\n" ";" names "${names}")
	set(text "")
	foreach(name ${names})
		if(NOT name STREQUAL "")
			string(APPEND text "add_test([=[${PREFIX}${name}]=] [=[${SCRIPT}]=] [=[${name}]=])\n"
				"set_tests_properties([=[${PREFIX}${name}]=] PROPERTIES TIMEOUT ${TIMEOUT} "
				"SKIP_RETURN_CODE 77 ENVIRONMENT \"\${listed_env}\")\n")
		endif()
	endforeach()
	file(WRITE ${OUT}.tmp "${text}")
	file(RENAME ${OUT}.tmp ${OUT})
	return()
endif()

function(listed_tests)
	cmake_parse_arguments(PARSE_ARGV 0 A "" "NAME;PROGRAM;PREFIX;SCRIPT;TIMEOUT" "ARGS;ENV")
	set(list ${CMAKE_CURRENT_BINARY_DIR}/${A_NAME}.cmake)
	string(REPLACE ";" " " args "${A_ARGS}")
	add_custom_command(OUTPUT ${list}
		COMMAND ${CMAKE_COMMAND} "-DLIST=$<TARGET_FILE:${A_PROGRAM}> ${args}" -DPREFIX=${A_PREFIX}
			-DSCRIPT=${A_SCRIPT} -DTIMEOUT=${A_TIMEOUT} -DOUT=${list}
			-P ${CMAKE_CURRENT_FUNCTION_LIST_FILE}
		DEPENDS ${A_PROGRAM} ${A_SCRIPT} VERBATIM)
	add_custom_target(${A_NAME} ALL DEPENDS ${list})
	file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${A_NAME}-include.cmake CONTENT
		"set(listed_env \"${A_ENV}\")\nif(EXISTS ${list})\n\tinclude(${list})\nelse()\n\tadd_test(${A_PREFIX}not_listed false)\nendif()\n")
	set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${CMAKE_CURRENT_BINARY_DIR}/${A_NAME}-include.cmake)
endfunction()
