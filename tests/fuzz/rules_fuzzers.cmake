# libFuzzer targets of the rules engine and the YAML and unit parsers under it: conditions, rules
# files, job files and profiles, units, the knowledge base (include()d from
# tests/fuzz/CMakeLists.txt when FEEDCHECK_BUILD_FUZZERS is on; clang only). They link the same
# instrumented library as the analyzer targets (feedcheck_fuzz_objects: rules, core and the rest
# compiled once); yaml-cpp is the system library.
foreach(f fuzz_condition_parser fuzz_rule_reader fuzz_job_yaml fuzz_units fuzz_knowledge_base)
  add_executable(${f} ${CMAKE_CURRENT_LIST_DIR}/${f}.cpp)
  target_link_libraries(${f} PRIVATE feedcheck_fuzz_objects)
  target_link_options(${f} PRIVATE ${_fuzz_link})
  list(APPEND FEEDCHECK_RULES_FUZZERS ${f})
endforeach()
