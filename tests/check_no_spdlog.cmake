# `ctest -R libraries_do_not_log`: the libraries return their messages as Diagnostics
# (include/animconv/diagnostic.h) and only the CLI logs, so no library target may link spdlog and
# no library source may include it. LINKS: the targets' link libraries joined with '|';
# SOURCE_DIR: the project's root.
string(REPLACE "|" ";" links "${LINKS}")
foreach(link IN LISTS links)
  if(link MATCHES "spdlog")
    message(FATAL_ERROR "a library target links ${link}; only cli/ may use spdlog")
  endif()
endforeach()
file(GLOB_RECURSE sources
     ${SOURCE_DIR}/include/*.h ${SOURCE_DIR}/libconvert/*.h ${SOURCE_DIR}/libconvert/*.cpp
     ${SOURCE_DIR}/formats/*.h ${SOURCE_DIR}/formats/*.cpp
     ${SOURCE_DIR}/pipeline/*.h ${SOURCE_DIR}/pipeline/*.cpp)
foreach(source IN LISTS sources)
  file(STRINGS ${source} lines REGEX "spdlog")
  if(lines)
    message(FATAL_ERROR "${source} uses spdlog: ${lines}; report a Diagnostic instead")
  endif()
endforeach()
list(LENGTH links link_count)
list(LENGTH sources source_count)
message(STATUS "${link_count} link libraries and ${source_count} library sources without spdlog")
