# SPDX-License-Identifier: GPL-2.0
# The Debian package: `cpack -G DEB` in the build tree (scripts/package does
# it) makes knotif_VERSION_ARCH.deb from the same install rules as
# `cmake --install` (cmake/install.cmake, cmake/man.cmake), so a package and
# an install to a prefix cannot differ. CPack, not a debian/ directory: the
# install rules are the one list of what knotif ships, and a debian/rules
# would have to repeat them. Depends: the shared libraries the binaries link
# (dpkg-shlibdeps finds them) and what the scripts run (python3 and the
# Debian modules they import); the build tools are not runtime dependencies.
# lintian's verdict on it is test repo.deb_package's.
set(CPACK_GENERATOR DEB)
# cpack packages what is built and never builds: its "preinstall" would
# otherwise build everything first, relinking binaries that tests run beside
# install.deb_package (a new commit changes the generated git-sha header)
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CPACK_PACKAGE_NAME knotif)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "knotif developers <knotif@lists.example.org>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "knotif developers <knotif@lists.example.org>")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/knotif/knotif")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "measure, trace and stress seccomp user-space notification")
set(CPACK_PACKAGE_DESCRIPTION "knotif measures the round trip of every way to intercept a system call
(seccomp user notification, ptrace SECCOMP_RET_TRACE, SIGSYS, Syscall User
Dispatch) beside a ping-pong floor, stresses the notification hot path,
traces notification states with BPF, runs a command under a supervisor
that logs or emulates its calls, and gates CI on latency regressions
(JUnit and Bencher Metric Format output).")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3, python3-numpy, python3-matplotlib")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bpftrace, hyperfine, strace")
set(CPACK_STRIP_FILES ON)

# Debian's policy files: the copyright, and a changelog (gzip -9n, as lintian wants it)
install(FILES cmake/debian/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/knotif)
install(FILES cmake/debian/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME knotif)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/debian/changelog.gz
	COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/debian
	COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/cmake/debian/changelog ${CMAKE_BINARY_DIR}/debian/changelog
	COMMAND gzip -9nf ${CMAKE_BINARY_DIR}/debian/changelog
	DEPENDS ${CMAKE_SOURCE_DIR}/cmake/debian/changelog VERBATIM)
add_custom_target(debian-changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog.gz)
install(FILES ${CMAKE_BINARY_DIR}/debian/changelog.gz DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/knotif)
include(CPack)
