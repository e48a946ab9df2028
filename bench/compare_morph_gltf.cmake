# ctest bench.morph_gltf_reproducible: cmake -DGENERATOR=... -DOUTPUT=... -DEXPECTED=... -P this
# Runs the generator with the arguments that produced data/gltf/morph_cube.gltf, then compares
# bytes.
foreach(variable GENERATOR OUTPUT EXPECTED)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "compare_morph_gltf.cmake: -D${variable}=... is required")
  endif()
endforeach()

file(REMOVE "${OUTPUT}")
execute_process(
  COMMAND "${GENERATOR}" --segments 3 -o "${OUTPUT}"
  RESULT_VARIABLE generator_result)
if(NOT generator_result EQUAL 0)
  message(FATAL_ERROR "animconv_gen_morph_gltf failed: ${generator_result}")
endif()

execute_process(
  COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUTPUT}" "${EXPECTED}"
  RESULT_VARIABLE compare_result)
if(NOT compare_result EQUAL 0)
  message(FATAL_ERROR
    "${OUTPUT} differs from ${EXPECTED}.\n"
    "The generator's output changed (or this machine's libm differs). If the change is intended, "
    "regenerate: animconv_gen_morph_gltf --segments 3 -o data/gltf/morph_cube.gltf "
    "(data/gltf/README.md).")
endif()
message(STATUS "morph_cube.gltf reproduced byte for byte")
