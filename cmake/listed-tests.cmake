# SPDX-License-Identifier: GPL-2.0
# Tests named by a program's own list, so that adding to a registry adds its tests:
#   cmake -D LIST="prog --list-option ..." -D PREFIX=name. -D SCRIPT=test.sh -D TIMEOUT=s
#         -D ENV=var -D OUT=file -P listed-tests.cmake
# writes OUT: for every line NAME the program prints, a test PREFIX<NAME> running
# "SCRIPT NAME" with the environment in the ctest variable ${ENV} (set by the file
# that includes OUT). Run after each build of the program (POST_BUILD).
separate_arguments(cmd UNIX_COMMAND "${LIST}")
execute_process(COMMAND ${cmd} OUTPUT_VARIABLE names RESULT_VARIABLE rc TIMEOUT 60)
if(NOT rc EQUAL 0)
	message(FATAL_ERROR "${LIST} exited ${rc}")
endif()
string(REPLACE "\n" ";" names "${names}")
set(text "")
foreach(name ${names})
	if(name STREQUAL "")
		continue()
	endif()
	string(APPEND text "add_test([=[${PREFIX}${name}]=] [=[${SCRIPT}]=] [=[${name}]=])\n"
		"set_tests_properties([=[${PREFIX}${name}]=] PROPERTIES TIMEOUT ${TIMEOUT} "
		"SKIP_RETURN_CODE 77 ENVIRONMENT \"\${${ENV}}\")\n")
endforeach()
file(WRITE ${OUT}.tmp "${text}")
file(RENAME ${OUT}.tmp ${OUT})
