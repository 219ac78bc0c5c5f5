# What a build spends compiling, and where it is cut without losing a guarantee. Measured per unit
# in docs/testing.md ("Compile time"); CI compiles the tree twice (g++ -Werror, clang ASan).
#
# 1. Precompiled headers (FEEDCHECK_PCH, on by default): Catch2, fmt and the standard headers
#    every test unit includes are parsed once for all test programs (one PCH, shared with
#    REUSE_FROM: the test programs' own -D definitions come after it and touch none of its
#    headers), and CLI11 once for the command-line layer. A typical test unit: clang ASan 2.8 s ->
#    1.9 s, g++ 1.3 s -> 0.6 s (at -O0).
# 2. Tests' own code at -O0 (tests/CMakeLists.txt): the code under test is built outside tests/
#    at the build's level; Catch2's assertion macros, expanded thousands of times, need no
#    optimizer. Benchmarks and fuzzers keep the build's level (added before that option).
# 3. In a sanitizer build, the command-line layer (flag binding over CLI11, the heaviest units:
#    clang ASan 8.5 s each at -O1) at -O0: its speed never matters, its memory errors are found
#    as well at -O0.
# 4. Unity builds (FEEDCHECK_UNITY, on in CI: scripts/build.sh and scripts/sanitize.sh under
#    CI=true): each target's sources compiled eight to a unit, so the headers they share (the
#    standard library, fmt, nlohmann_json, yaml-cpp) are parsed once per eight files instead of
#    once per file. Off by default: an edit then recompiles its batch, not one file. A name
#    defined twice in one library's or test program's anonymous namespaces, or a `using
#    namespace` that makes a name ambiguous, fails this build: share the helper (a header of the
#    layer) or give each its own name.
option(FEEDCHECK_PCH "Precompile Catch2, fmt and CLI11 headers (faster builds)" ON)
option(FEEDCHECK_UNITY "Compile each target's sources in batches of eight (faster clean builds)"
       OFF)
if(FEEDCHECK_UNITY)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)
endif()

# The test programs' shared precompiled header, built by an object library with the flags every
# test unit has (tests/CMakeLists.txt calls this after its -O0). Empty when FEEDCHECK_PCH is off.
function(feedcheck_test_pch_target)
  if(NOT FEEDCHECK_PCH OR TARGET feedcheck_test_pch)
    return()
  endif()
  add_library(feedcheck_test_pch OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch_anchor.cpp)
  target_link_libraries(feedcheck_test_pch PRIVATE Catch2::Catch2 fmt::fmt feedcheck_warnings)
  target_precompile_headers(feedcheck_test_pch PRIVATE
    <catch2/catch.hpp> <fmt/format.h> <algorithm> <map> <memory> <optional> <set> <sstream>
    <string> <string_view> <vector>)
endfunction()

# A test program uses the shared header (tests/CMakeLists.txt, for every Catch2 program).
function(feedcheck_use_test_pch target)
  if(TARGET feedcheck_test_pch)
    target_precompile_headers(${target} REUSE_FROM feedcheck_test_pch)
    # REUSE_FROM needs the header's include paths and definitions on the reusing target too.
    target_link_libraries(${target} PRIVATE Catch2::Catch2 fmt::fmt)
  endif()
endfunction()

# The command-line layer's precompiled CLI11 (cli/CMakeLists.txt), and its -O0 under sanitizers.
function(feedcheck_cli_compile_time target)
  if(FEEDCHECK_PCH)
    target_precompile_headers(${target} PRIVATE <CLI/CLI.hpp> <fmt/format.h> <string> <vector>)
  endif()
  if(FEEDCHECK_SANITIZE)
    target_compile_options(${target} PRIVATE -O0)
  endif()
endfunction()

# Every Catch2 program under DIR (recursively) reuses the test header: called once at the end of
# tests/CMakeLists.txt, so a new test program gets it without a line of its own.
function(feedcheck_use_test_pch_in dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    get_target_property(libs ${t} LINK_LIBRARIES)
    if(type STREQUAL "EXECUTABLE" AND "Catch2::Catch2WithMain" IN_LIST libs)
      feedcheck_use_test_pch(${t})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    feedcheck_use_test_pch_in(${sub})
  endforeach()
endfunction()

# A program whose own units bind flags with CLI11 (feedcheck's main, commands_doc, feedcheck-seed):
# the command-line layer's header and level, reused rather than precompiled once more.
function(feedcheck_cli_program target)
  if(FEEDCHECK_PCH)
    target_precompile_headers(${target} REUSE_FROM feedcheck_cli)
  endif()
  if(FEEDCHECK_SANITIZE)
    target_compile_options(${target} PRIVATE -O0)
  endif()
endfunction()
