# Fixture step of the interop tests: deletes OUTPUT, then runs the command given after `--`
# (animconv convert ... -o OUTPUT) and fails unless it exits 0 and OUTPUT exists and is not
# empty. Deleting first keeps a failed conversion from leaving a stale file for the checks.
#
#   cmake -DOUTPUT=<file> -P run_convert.cmake -- <animconv> convert <input> -o <file> [options]

if(NOT DEFINED OUTPUT)
  message(FATAL_ERROR "run_convert.cmake: -DOUTPUT=<file> is required")
endif()

set(command "")
set(after_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after_separator)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(after_separator TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "run_convert.cmake: no command after --")
endif()

get_filename_component(output_dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${output_dir}")
file(REMOVE "${OUTPUT}")

list(JOIN command " " shown)
message(STATUS "${shown}")
execute_process(COMMAND ${command} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "animconv failed (exit ${result}): ${shown}")
endif()
if(NOT EXISTS "${OUTPUT}")
  message(FATAL_ERROR "animconv exited 0 but wrote no ${OUTPUT}")
endif()
file(SIZE "${OUTPUT}" size)
if(size EQUAL 0)
  message(FATAL_ERROR "animconv wrote an empty ${OUTPUT}")
endif()
