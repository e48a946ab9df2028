# ctest bench.walk_csv_reproducible: cmake -DGENERATOR=... -DOUTPUT=... -DEXPECTED=... -P this
# Runs the generator with the arguments that produced data/unity/walk.csv, then compares bytes.
foreach(variable GENERATOR OUTPUT EXPECTED)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "compare_walk_csv.cmake: -D${variable}=... is required")
  endif()
endforeach()

file(REMOVE "${OUTPUT}")
execute_process(
  COMMAND "${GENERATOR}" --rows 60 --interval 0.2 -o "${OUTPUT}"
  RESULT_VARIABLE generator_result)
if(NOT generator_result EQUAL 0)
  message(FATAL_ERROR "animconv_gen_unity_csv failed: ${generator_result}")
endif()

execute_process(
  COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUTPUT}" "${EXPECTED}"
  RESULT_VARIABLE compare_result)
if(NOT compare_result EQUAL 0)
  message(FATAL_ERROR
    "${OUTPUT} differs from ${EXPECTED}.\n"
    "The generator's output changed (or this machine's libm/printf differ). If the change is "
    "intended, regenerate: animconv_gen_unity_csv --rows 60 --interval 0.2 -o data/unity/walk.csv "
    "(data/unity/README.md).")
endif()
message(STATUS "walk.csv reproduced byte for byte")
