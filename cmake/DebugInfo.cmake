# How much debug information a RelWithDebInfo build (the default) carries. "lines" (the default):
# line tables only (g++ -g1, clang -gline-tables-only), enough for a backtrace, a sanitizer
# report or a crash's file:line, for ~30% less g++ compile time than "full" (-g: variables and
# types as well; feedcheck 154 MB against 35 MB, docs/testing.md). Debug builds keep -g.
#   cmake -DFEEDCHECK_DEBUG_INFO=full ...    when stepping through with a debugger
set(FEEDCHECK_DEBUG_INFO "lines" CACHE STRING "RelWithDebInfo debug information: lines or full")
set_property(CACHE FEEDCHECK_DEBUG_INFO PROPERTY STRINGS lines full)
if(NOT FEEDCHECK_DEBUG_INFO MATCHES "^(lines|full)$")
  message(FATAL_ERROR "FEEDCHECK_DEBUG_INFO is '${FEEDCHECK_DEBUG_INFO}': lines or full")
endif()
if(FEEDCHECK_DEBUG_INFO STREQUAL "lines")
  # After the configuration's -g on the command line, so it wins.
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    add_compile_options($<$<CONFIG:RelWithDebInfo>:-gline-tables-only>)
  else()
    add_compile_options($<$<CONFIG:RelWithDebInfo>:-g1>)
  endif()
endif()
