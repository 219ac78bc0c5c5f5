# FEEDCHECK_SANITIZE="address;undefined" instruments every target in the tree.
if(FEEDCHECK_SANITIZE)
  string(REPLACE ";" "," _fc_sanitizers "${FEEDCHECK_SANITIZE}")
  add_compile_options(-fsanitize=${_fc_sanitizers} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_fc_sanitizers})
endif()
