# SPDX-License-Identifier: GPL-2.0
# A man page per installed tool (section 1), made at build time by help2man
# from the tool's own --help (so a page cannot drift from the options it
# takes), with a checked-in include (TOOL.h2m beside the tool: EXAMPLES,
# SEE ALSO) for what --help does not say; and its bash completion, made by
# scripts/gen-completion from the same --help. Without help2man the pages
# are not built, and the build says so. Test repo.man_pages holds each page
# and completion to its tool's --help.
find_program(KNOTIF_HELP2MAN help2man)
find_program(KNOTIF_GZIP gzip)
set(man_dir ${CMAKE_BINARY_DIR}/man)
set(completion_dir ${CMAKE_BINARY_DIR}/completions)
file(MAKE_DIRECTORY ${man_dir}/bin ${completion_dir})

# knotif_man(NAME PROGRAM DESCRIPTION H2M [DEPENDS target]): PROGRAM is what runs (a built
# binary, or a script run through a link named NAME, so the page says the installed name)
function(knotif_man name program description h2m)
	if(ARGN)
		set(deps ${ARGN})
	else()
		set(link ${man_dir}/bin/${name})
		file(CREATE_LINK ${program} ${link} SYMBOLIC)
		set(deps ${program})
		set(program ${link})
	endif()
	add_custom_command(OUTPUT ${completion_dir}/${name}
		COMMAND /usr/bin/python3 ${CMAKE_SOURCE_DIR}/scripts/gen-completion ${program} ${name}
			${completion_dir}/${name}
		DEPENDS ${deps} ${CMAKE_SOURCE_DIR}/scripts/gen-completion ${CMAKE_SOURCE_DIR}/scripts/helpopts.py
		COMMENT "bash completion for ${name}" VERBATIM)
	set(outputs ${completion_dir}/${name})
	install(FILES ${completion_dir}/${name} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
	if(KNOTIF_HELP2MAN AND KNOTIF_GZIP)
		add_custom_command(OUTPUT ${man_dir}/${name}.1.gz
			COMMAND ${KNOTIF_HELP2MAN} --no-info --section=1 --version-string=${PROJECT_VERSION}
				--name=${description} --include=${CMAKE_SOURCE_DIR}/${h2m}
				--output=${man_dir}/${name}.1 ${program}
			COMMAND ${KNOTIF_GZIP} -9nf ${man_dir}/${name}.1
			DEPENDS ${deps} ${CMAKE_SOURCE_DIR}/${h2m}
			COMMENT "man page ${name}(1)" VERBATIM)
		list(APPEND outputs ${man_dir}/${name}.1.gz)
		install(FILES ${man_dir}/${name}.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
	endif()
	add_custom_target(man-${name} ALL DEPENDS ${outputs})
endfunction()

if(NOT KNOTIF_HELP2MAN)
	message(STATUS "man pages: not built (help2man not found: scripts/setup installs it)")
endif()
foreach(tool
		"knotif-bench|bench/knotif-bench.h2m|round trip of every seccomp interception method, beside the ping-pong floor"
		"knotif-stress|tools/stress/knotif-stress.h2m|many targets and listeners on the seccomp notification hot path"
		"knotif-run|tools/run/knotif-run.h2m|run a command under seccomp user notification, logged or emulated"
		"knotif-trace|trace/knotif-trace.h2m|seccomp user notifications through their states, and where the time goes"
		"knotif-compare|analysis/gate/knotif-compare.h2m|the regression gate for knotif-bench results"
		"knotif-history|analysis/history/knotif-history.h2m|the history of knotif-bench runs")
	string(REPLACE "|" ";" fields "${tool}")
	list(GET fields 0 name)
	list(GET fields 1 h2m)
	list(GET fields 2 description)
	if(TARGET ${name})
		knotif_man(${name} $<TARGET_FILE:${name}> "${description}" ${h2m} ${name})
	endif()
endforeach()
foreach(script
		"knotif-report|analysis/report/knotif-report|analysis/report/knotif-report.h2m|one HTML page from a knotif-bench run"
		"knotif-ci-gate|analysis/ci-gate|analysis/knotif-ci-gate.h2m|fail a build when interception latency really regresses"
		"knotif-compare-workloads|analysis/workloads/compare-workloads|analysis/workloads/knotif-compare-workloads.h2m|real work under every way to watch its system calls"
		"knotif-workload-device-tree|analysis/workloads/device-tree|analysis/workloads/knotif-workload-device-tree.h2m|device nodes unpacked by an unprivileged container, emulated")
	string(REPLACE "|" ";" fields "${script}")
	list(GET fields 0 name)
	list(GET fields 1 path)
	list(GET fields 2 h2m)
	list(GET fields 3 description)
	knotif_man(${name} ${CMAKE_SOURCE_DIR}/${path} "${description}" ${h2m})
endforeach()
