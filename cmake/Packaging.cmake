# Install layout and the Debian packages (CPack).
#
#   bin/feedcheck, bin/feedcheck-mpi
#   share/feedcheck/data/*.yaml    the knowledge base (found from bin/ as ../share/feedcheck/data)
#   share/feedcheck/rules/*.yaml   the built-in rules
#   share/bash-completion/completions/feedcheck   bash completion (commands, flags, values)
#   share/zsh/vendor-completions/_feedcheck       zsh completion (the same, on Debian's fpath)
#   share/doc/feedcheck/           README, docs/, examples/ (profiles, Azure ML jobs)
#
# `cmake --install build --prefix P` installs everything; `cpack --config build/CPackConfig.cmake`
# makes feedcheck_VERSION_ARCH.deb (the command, data, rules, docs) and
# feedcheck-mpi_VERSION_ARCH.deb (the MPI probes: only they need Open MPI on the node).
#
# Installed binaries are stripped: the build's debug information stays in the build tree
# (feedcheck: 35 MB with line tables, 154 MB with FEEDCHECK_DEBUG_INFO=full, 4 MB stripped).
# `cmake --install` strips without --strip (the rule below sets CMAKE_INSTALL_DO_STRIP unless
# the caller did: -DCMAKE_INSTALL_DO_STRIP=0 keeps it), and CPack strips what it packs
# (CPACK_STRIP_FILES). tests/install checks both.
include(GNUInstallDirs)

install(CODE "if(NOT DEFINED CMAKE_INSTALL_DO_STRIP)
  set(CMAKE_INSTALL_DO_STRIP 1)
endif()" ALL_COMPONENTS)
install(TARGETS feedcheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/data/ DESTINATION ${CMAKE_INSTALL_DATADIR}/feedcheck/data
  COMPONENT cli FILES_MATCHING PATTERN "*.yaml")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/rules/builtin/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/feedcheck/rules COMPONENT cli FILES_MATCHING PATTERN "*.yaml")
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT cli)
install(FILES ${PROJECT_SOURCE_DIR}/completion/feedcheck.bash
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME feedcheck COMPONENT cli)
install(FILES ${PROJECT_SOURCE_DIR}/completion/_feedcheck
  DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions COMPONENT cli)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs ${PROJECT_SOURCE_DIR}/examples
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT cli)
set(_feedcheck_components cli)
if(TARGET feedcheck-mpi)
  install(TARGETS feedcheck-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT mpi)
  list(APPEND _feedcheck_components mpi)
endif()

set(CPACK_PACKAGE_NAME feedcheck)
set(CPACK_PACKAGE_VENDOR "feedcheck")
set(CPACK_PACKAGE_CONTACT "feedcheck maintainers <feedcheck@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Can this storage feed these GPUs? Probes, job-log analysis and advice for Azure ML training")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL ${_feedcheck_components})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # feedcheck_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # Depends: from the libraries the binaries link
set(CPACK_DEBIAN_CLI_PACKAGE_NAME feedcheck)
set(CPACK_DEBIAN_MPI_PACKAGE_NAME feedcheck-mpi)
set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "feedcheck (= ${PROJECT_VERSION}), openmpi-bin")
set(CPACK_COMPONENT_CLI_DESCRIPTION
  "feedcheck: measures whether Azure storage can feed GPU training nodes (throughput, latency,\n"
  "listing and small-file cost, cache disk, NIC), reads what an Azure ML job left behind\n"
  "(data-runtime logs, storage metrics, GPU utilisation), and says what to change.")
set(CPACK_COMPONENT_MPI_DESCRIPTION
  "feedcheck-mpi: the feedcheck probes on every node of a cluster at once, under Open MPI.")
include(CPack)
