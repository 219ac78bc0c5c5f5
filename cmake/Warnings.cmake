# Build policy for every feedcheck target: link PRIVATE feedcheck_warnings.
add_library(feedcheck_warnings INTERFACE)
target_compile_options(feedcheck_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
  -Woverloaded-virtual -Wconversion -Wno-sign-conversion -Wimplicit-fallthrough -Wno-missing-field-initializers)
if(FEEDCHECK_WERROR)
  target_compile_options(feedcheck_warnings INTERFACE -Werror)
endif()
