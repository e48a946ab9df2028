# The installed package works for a program outside the tree (architecture issue: public API).
# 1. `cmake --install` the build into a fresh prefix; 2. build tests/install/consumer against it
# with find_package(animconv CONFIG REQUIRED); 3. build the same main.cpp with the flags
# `pkg-config --cflags --libs animconv` gives; 4. both convert INPUT and must write the very bytes
# the `animconv` tool writes, and report it.
#
#   cmake -DBUILD_DIR=... -DWORK_DIR=... -DCONSUMER_DIR=... -DCXX=... -DFLAGS="..." \
#         -DANIMCONV=<animconv> -DINPUT=<file> -DOUTPUT_NAME=<name.ext> -P check_installed_package.cmake

foreach(var BUILD_DIR WORK_DIR CONSUMER_DIR CXX ANIMCONV INPUT OUTPUT_NAME)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_installed_package.cmake: -D${var}=... is required")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    list(JOIN ARGN " " shown)
    message(FATAL_ERROR "failed (${code}): ${shown}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
foreach(installed include/animconv/animconv.h include/animconv/convert.h)
  if(NOT EXISTS "${prefix}/${installed}")
    message(FATAL_ERROR "not installed: ${installed}")
  endif()
endforeach()
# Private headers stay private.
file(GLOB_RECURSE private_headers "${prefix}/include/*/text.h" "${prefix}/include/formats/*")
if(private_headers)
  message(FATAL_ERROR "private headers were installed: ${private_headers}")
endif()

# The reference bytes, from the tool.
run("${ANIMCONV}" convert "${INPUT}" -o "${WORK_DIR}/cli_${OUTPUT_NAME}")
file(READ "${WORK_DIR}/cli_${OUTPUT_NAME}" expected HEX)

# find_package
run(${CMAKE_COMMAND} -S "${CONSUMER_DIR}" -B "${WORK_DIR}/consumer-build"
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_CXX_COMPILER=${CXX}"
    "-DCMAKE_CXX_FLAGS=${FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${FLAGS}")
run(${CMAKE_COMMAND} --build "${WORK_DIR}/consumer-build")
run("${WORK_DIR}/consumer-build/consumer" "${INPUT}" "${WORK_DIR}/cmake_${OUTPUT_NAME}")
message(STATUS "find_package consumer: ${run_output}")
file(READ "${WORK_DIR}/cmake_${OUTPUT_NAME}" actual HEX)
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "the find_package consumer wrote other bytes than animconv convert")
endif()

# pkg-config
find_program(PKG_CONFIG pkg-config REQUIRED)
file(GLOB_RECURSE pc_file "${prefix}/*/animconv.pc")
if(NOT pc_file)
  message(FATAL_ERROR "animconv.pc was not installed")
endif()
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
execute_process(COMMAND "${PKG_CONFIG}" --cflags --libs animconv RESULT_VARIABLE code
                OUTPUT_VARIABLE pc_flags ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags --libs animconv failed: ${err}")
endif()
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
separate_arguments(extra_flags UNIX_COMMAND "${FLAGS}")
run("${CXX}" -std=c++17 ${extra_flags} "${CONSUMER_DIR}/main.cpp" -o "${WORK_DIR}/pc_consumer"
    ${pc_flags})
run("${WORK_DIR}/pc_consumer" "${INPUT}" "${WORK_DIR}/pc_${OUTPUT_NAME}")
message(STATUS "pkg-config consumer: ${run_output}")
file(READ "${WORK_DIR}/pc_${OUTPUT_NAME}" actual HEX)
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "the pkg-config consumer wrote other bytes than animconv convert")
endif()
