# libFuzzer targets of the rules engine and the YAML and unit parsers under it: conditions, rules
# files, job files and profiles, units, the knowledge base (include()d from
# tests/fuzz/CMakeLists.txt when FEEDCHECK_BUILD_FUZZERS is on; clang only). Sources are compiled
# into the fuzzers with coverage and ASan/UBSan; yaml-cpp is the system library.
set(_rules_fuzz_flags -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g)
# The rules engine and all of core, from the lists the libraries are built from.
list(TRANSFORM FEEDCHECK_RULES_SOURCES PREPEND ${PROJECT_SOURCE_DIR}/rules/
     OUTPUT_VARIABLE _rules_fuzz_sources)
list(APPEND _rules_fuzz_sources ${FEEDCHECK_FUZZ_CORE_SOURCES})
add_library(feedcheck_rules_fuzz_objects OBJECT ${_rules_fuzz_sources})
target_include_directories(feedcheck_rules_fuzz_objects PUBLIC ${PROJECT_SOURCE_DIR})
target_compile_options(feedcheck_rules_fuzz_objects PUBLIC ${_rules_fuzz_flags} -fsanitize=fuzzer-no-link)
target_link_libraries(feedcheck_rules_fuzz_objects PUBLIC fmt::fmt nlohmann_json::nlohmann_json yaml-cpp)
foreach(f fuzz_condition_parser fuzz_rule_reader fuzz_job_yaml fuzz_units fuzz_knowledge_base)
  add_executable(${f} ${CMAKE_CURRENT_LIST_DIR}/${f}.cpp)
  target_link_libraries(${f} PRIVATE feedcheck_rules_fuzz_objects)
  target_link_options(${f} PRIVATE -fsanitize=fuzzer,address,undefined)
  list(APPEND FEEDCHECK_RULES_FUZZERS ${f})
endforeach()
