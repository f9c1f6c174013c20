# SPDX-License-Identifier: GPL-2.0
# What `cmake --install build [--prefix P]` puts where: every tool in
# P/bin under a name that says it is knotif's, the bpftrace scripts and
# their examples in P/share/knotif/bpftrace, knotif-report's Python package
# where Debian's python3 finds it under /usr (P/lib/python3/dist-packages;
# the installed script also looks there for any other P), and what the
# workloads compile in P/share/knotif/workloads. Installed tools find each
# other beside themselves (/proc/self/exe), never in a build or source
# tree: test install.prefix runs them with both hidden.
include(GNUInstallDirs)
# directories 0755 whatever the umask (a package's must be)
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
	OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(KNOTIF_SHARE ${CMAKE_INSTALL_DATADIR}/knotif)

foreach(tool knotif-bench knotif-run knotif-stress knotif-trace knotif-compare knotif-history)
	if(TARGET ${tool})
		install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
	endif()
endforeach()

# the scripts, renamed where their tree name does not say knotif
install(PROGRAMS analysis/report/knotif-report DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS analysis/ci-gate DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME knotif-ci-gate)
install(PROGRAMS analysis/workloads/compare-workloads DESTINATION ${CMAKE_INSTALL_BINDIR}
	RENAME knotif-compare-workloads)
install(PROGRAMS analysis/workloads/device-tree DESTINATION ${CMAKE_INSTALL_BINDIR}
	RENAME knotif-workload-device-tree)
install(DIRECTORY analysis/report/knotif_report DESTINATION lib/python3/dist-packages
	PATTERN __pycache__ EXCLUDE)
# the one reader of Google Benchmark rows it shares with kernel/scripts, inside its package
install(FILES scripts/gbrows.py DESTINATION lib/python3/dist-packages/knotif_report)
# what the workload scripts share (they look for it there once installed)
install(FILES analysis/workloads/workload_env.py DESTINATION lib/python3/dist-packages)

# bpftrace: the scripts run as they are (bpftrace FILE), their example outputs beside them
install(PROGRAMS trace/knotif-phases.bt trace/knotif-phases-tp.bt trace/knotif-ptrace.bt
	DESTINATION ${KNOTIF_SHARE}/bpftrace)
install(FILES trace/knotif-phases_example.txt trace/knotif-ptrace_example.txt trace/knotif-trace_example.txt
	DESTINATION ${KNOTIF_SHARE}/bpftrace)

# the cc-lib workload compiles knotif's own lib/: its makefile and those sources
install(FILES analysis/workloads/cc-lib.mk DESTINATION ${KNOTIF_SHARE}/workloads)
install(DIRECTORY lib/ DESTINATION ${KNOTIF_SHARE}/workloads/lib FILES_MATCHING PATTERN "*.c" PATTERN "*.h")
