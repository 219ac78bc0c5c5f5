# FEEDCHECK_SANITIZE="address;undefined" instruments every target in the tree.
if(FEEDCHECK_SANITIZE)
  string(REPLACE ";" "," _fc_sanitizers "${FEEDCHECK_SANITIZE}")
  add_compile_options(-fsanitize=${_fc_sanitizers} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_fc_sanitizers})
endif()

# A sanitizer build with fuzzers on (clang) holds the fuzzers too: every target also gets
# libFuzzer's coverage instrumentation (-fsanitize=fuzzer-no-link, no main), and the fuzz targets
# link the tree's own libraries instead of compiling them a third time (tests/fuzz).
set(FEEDCHECK_FUZZ_IN_SANITIZER OFF)
if(FEEDCHECK_SANITIZE MATCHES "address" AND FEEDCHECK_BUILD_FUZZERS
   AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  add_compile_options(-fsanitize=fuzzer-no-link)
  set(FEEDCHECK_FUZZ_IN_SANITIZER ON)
endif()
