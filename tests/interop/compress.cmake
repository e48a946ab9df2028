# `convert --compress` outputs (docs/formats/gltf.md, "Compact output") checked against the plain
# output of the same conversion by check_compress.mjs: Khronos validator (the file and its meshopt
# views decoded), three.js GLTFLoader + MeshoptDecoder + AnimationMixer within the bounds, and for
# .vrma @pixiv/three-vrm-animation on VRM models. Included from CMakeLists.txt (its functions).
set(compress_check "${CMAKE_CURRENT_SOURCE_DIR}/check_compress.mjs")

# interop_compress(NAME EXT INPUT [CHECK_ARGS...]): INPUT -> ../out-compress/NAME.EXT plain and
# with --compress, then the check. The outputs sit beside out/, not in it: the checks that scan
# out/ for every .vrma (check_vrma_tracks.mjs) load without a meshopt decoder, and a compressed
# file requires one. Conversion options for both go in COMPRESS_CONVERT_ARGS.
function(interop_compress name ext input)
  set(t interop.compress.${name})
  interop_convert(${t}.plain ../out-compress/${name}.plain.${ext} ${input} ${COMPRESS_CONVERT_ARGS})
  interop_convert(${t}.compressed ../out-compress/${name}.${ext} ${input} ${COMPRESS_CONVERT_ARGS}
                  --compress ${COMPRESS_EXTRA_ARGS})
  interop_check(${t} "${t}.plain;${t}.compressed" ${compress_check}
                --plain ../out-compress/${name}.plain.${ext} --compressed ../out-compress/${name}.${ext} ${ARGN})
endfunction()
# interop_compress_shared(SUFFIX CHECK_ARGS ENTRY...): interop_compress(NAME SUFFIX) for each
# "NAME|PATH under the shared data|EXPECT flag or empty" whose file is there, the check given
# EXPECT and CHECK_ARGS (a list).
function(interop_compress_shared suffix check_args)
  foreach(entry ${ARGN})
    string(REPLACE "|" ";" fields "${entry}|")
    list(GET fields 0 name)
    list(GET fields 1 file)
    list(GET fields 2 expect)
    if(EXISTS "${ANIMCONV_SHARED_DATA}/${file}")
      interop_compress(${name}${suffix} glb "${ANIMCONV_SHARED_DATA}/${file}" ${expect} ${check_args})
    endif()
  endforeach()
endfunction()

set(COMPRESS_CONVERT_ARGS "")
set(COMPRESS_EXTRA_ARGS "")
if(EXISTS "${ANIMCONV_UNITY_DATA}/walk.csv")
  interop_compress(walk glb "${ANIMCONV_UNITY_DATA}/walk.csv" --expect-meshopt)
  # The check must see a real difference: bounds far below what 16 bits hold fail.
  interop_expect_failure(interop.compress.walk.detects-tight-bound
                         "interop.compress.walk.plain;interop.compress.walk.compressed"
                         ${compress_check} --plain ../out-compress/walk.plain.glb
                         --compressed ../out-compress/walk.glb --rotation-deg 1e-5)
  # Core glTF only: normalized integers, no extension; three.js needs no decoder.
  set(COMPRESS_EXTRA_ARGS --compress-without-meshopt)
  interop_compress(walk-core glb "${ANIMCONV_UNITY_DATA}/walk.csv" --expect-core)
  set(COMPRESS_EXTRA_ARGS "")
  interop_compress(walk-text gltf "${ANIMCONV_UNITY_DATA}/walk.csv" --expect-meshopt)
  # --reduce --compress against the plain unreduced output: within --reduce's own tolerances.
  set(COMPRESS_EXTRA_ARGS --reduce)
  interop_compress(walk-reduce glb "${ANIMCONV_UNITY_DATA}/walk.csv" --expect-meshopt
                   --rotation-deg 0.1 --translation 1e-4 --scale 1e-3 --weight 1e-3)
  set(COMPRESS_EXTRA_ARGS "")
  if(ANIMCONV_VRMA_INTEROP AND IS_DIRECTORY "${vrm_dir}")
    foreach(model vrmaddon_debug_robot.vrm three-vrm_sphere.vrm)
      get_filename_component(model_name "${model}" NAME_WE)
      interop_compress(walk-vrma-${model_name} vrma "${ANIMCONV_UNITY_DATA}/walk.csv"
                       --expect-meshopt --model "${vrm_dir}/${model}")
    endforeach()
  endif()
endif()

# Third-party animated models (../shared/data, MANIFEST.md): skins, morph weights (8-bit and
# signed), a meshopt-compressed input, node TRS.
if(IS_DIRECTORY "${ANIMCONV_SHARED_DATA}")
  foreach(entry
          "fox|skeletal/khronos_Fox.glb"
          "robot|morph/threejs_RobotExpressive.glb"
          "facecap|morph/threejs_facecap_meshopt.glb"
          "morph-cube|morph/khronos_AnimatedMorphCube/glTF/AnimatedMorphCube.gltf"
          "box|skeletal/khronos_BoxAnimated_embedded.gltf")
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 name)
    list(GET fields 1 file)
    if(EXISTS "${ANIMCONV_SHARED_DATA}/${file}")
      if(name STREQUAL "box")
        # 3 keys a channel: no view pays for the extension, so the file stays without it.
        interop_compress(${name} glb "${ANIMCONV_SHARED_DATA}/${file}")
      else()
        interop_compress(${name} glb "${ANIMCONV_SHARED_DATA}/${file}" --expect-meshopt)
      endif()
    endif()
  endforeach()
endif()

# The mesh indexing of --compress (formats/gltf/gltf_mesh_weld.h) on the project's own morph cube
# with its vertices stored two other ways (make_vertex_layout_fixture.mjs): without indices, and
# indexed with every vertex twice over. Both draw what the cube draws; the compressed output must
# draw the same triangles with the same values (three.js) and pass the validator.
set(layout_maker "${CMAKE_CURRENT_SOURCE_DIR}/make_vertex_layout_fixture.mjs")
foreach(layout unindexed duplicated)
  set(t interop.compress.cube-${layout})
  set(layout_gltf "${interop_out}/../out-compress/cube-${layout}.gltf")
  add_test(NAME ${t}.make
           COMMAND ${NODE_EXECUTABLE} ${layout_maker} "${PROJECT_SOURCE_DIR}/data/gltf/morph_cube.gltf"
                   "${layout_gltf}" ${layout})
  set_tests_properties(${t}.make PROPERTIES FIXTURES_SETUP ${t}.make LABELS interop)
  interop_compress(cube-${layout} glb "${layout_gltf}")
  set_tests_properties(${t}.plain.convert ${t}.compressed.convert
                       PROPERTIES FIXTURES_REQUIRED ${t}.make)
endforeach()

# --compress-meshes (KHR_mesh_quantization, lossy within bounds): check_compress.mjs
# --quantized-meshes compares what three.js draws, vertex for vertex, with the plain output's at
# rest and through every clip, within the writer's bounds (positions 1e-4 of the mesh's extent,
# normals 0.5 degrees, texture coordinates 1e-5, colours 0.002). Morph targets (horse, flamingo,
# sitting box: many frame-sized deltas; morph sphere: normal and tangent deltas; robot: meshes under
# animated bones, multi-primitive meshes, skins, two of them under a moved node), a skin (fox), one
# view shared by the normals and positions of two meshes (box, gltf_split_views.h), a skinned mesh
# under a moved node with 16-bit weights and byte joints (simple-skinning), and the project's own
# cube. Flamingo and cube: animation views too small for the extension.
set(COMPRESS_EXTRA_ARGS --compress-meshes)
if(IS_DIRECTORY "${ANIMCONV_SHARED_DATA}")
  interop_compress_shared(-quantized "--quantized-meshes"
          "horse|morph/threejs_Horse.glb|--expect-meshopt"
          "flamingo|morph/threejs_Flamingo.glb|"
          "sittingbox|morph/threejs_SittingBox.glb|--expect-meshopt"
          "morph-sphere|morph/khronos_AnimatedMorphSphere/glTF/AnimatedMorphSphere.gltf|--expect-meshopt"
          "fox|skeletal/khronos_Fox.glb|--expect-meshopt"
          "robot|morph/threejs_RobotExpressive.glb|--expect-meshopt"
          "box|skeletal/khronos_BoxAnimated_embedded.gltf|"
          "simple-skinning|skeletal/threejs_SimpleSkinning.gltf|")
  if(EXISTS "${ANIMCONV_SHARED_DATA}/morph/threejs_Horse.glb")
    # The check must see the quantization: a bound far below what 16 bits hold fails.
    interop_expect_failure(interop.compress.horse-quantized.detects-tight-bound
                           "interop.compress.horse-quantized.plain;interop.compress.horse-quantized.compressed"
                           ${compress_check} --plain ../out-compress/horse-quantized.plain.glb
                           --compressed ../out-compress/horse-quantized.glb --quantized-meshes
                           --mesh-tolerance 1e-9)
  endif()
  # The bench's mesh measure (mesh_distance.mjs: every vertex as three.js draws it, paired by
  # nearest position, as a fraction of its glTF mesh's size) holds our outputs to --mesh-tolerance
  # too, the way it measures the peers' (docs/performance.md); and it sees a bound too tight.
  foreach(name horse sittingbox robot fox box simple-skinning)
    if(TEST interop.compress.${name}-quantized)
      set(fixtures "interop.compress.${name}-quantized.plain;interop.compress.${name}-quantized.compressed")
      set(files ../out-compress/${name}-quantized.plain.glb ../out-compress/${name}-quantized.glb)
      interop_check(interop.compress.${name}-quantized.mesh-distance "${fixtures}"
                    ${CMAKE_CURRENT_SOURCE_DIR}/mesh_distance.mjs ${files} --max-rest 1e-4)
      if(name STREQUAL "horse")
        add_test(NAME interop.compress.horse-quantized.mesh-distance.detects-tight-bound
                 COMMAND ${NODE_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/mesh_distance.mjs ${files}
                         --max-rest 1e-5
                 WORKING_DIRECTORY ${interop_out})
        set_tests_properties(interop.compress.horse-quantized.mesh-distance.detects-tight-bound
                             PROPERTIES FIXTURES_REQUIRED "${fixtures}" LABELS interop
                                        PASS_REGULAR_EXPRESSION "FAIL: vertices drawn")
      endif()
    endif()
  endforeach()
  # A coarse grid on RobotExpressive (9-10 bits): its hands are skinned and posed at rest away
  # from their bind pose, so their world bounding box at rest (1.48) is smaller than their size
  # (1.65). mesh_distance.mjs divided by the former and read 0.00138 where the writer's note said
  # 0.00122 (bound 0.00122); both now measure the mesh's size as check_compress.mjs does.
  set(robot "${ANIMCONV_SHARED_DATA}/morph/threejs_RobotExpressive.glb")
  if(EXISTS "${robot}")
    set(COMPRESS_EXTRA_ARGS --compress-meshes --mesh-tolerance 0.00122)
    interop_compress(robot-coarse glb "${robot}" --expect-meshopt --quantized-meshes
                     --mesh-tolerance 0.00122)
    set(fixtures "interop.compress.robot-coarse.plain;interop.compress.robot-coarse.compressed")
    interop_check(interop.compress.robot-coarse.mesh-distance "${fixtures}"
                  ${CMAKE_CURRENT_SOURCE_DIR}/mesh_distance.mjs ../out-compress/robot-coarse.plain.glb
                  ../out-compress/robot-coarse.glb --max-rest 0.00122)
    set(COMPRESS_EXTRA_ARGS --compress-meshes)
  endif()
endif()
interop_compress(cube-quantized glb "${PROJECT_SOURCE_DIR}/data/gltf/morph_cube.gltf" --quantized-meshes)
# The same cube drawn with a blending material: its triangles keep their order (the check pairs
# triangle t with triangle t there), where the opaque one is put in vertex cache order.
set(t interop.compress.cube-blend-quantized)
set(layout_gltf "${interop_out}/../out-compress/cube-blend.gltf")
add_test(NAME ${t}.make
         COMMAND ${NODE_EXECUTABLE} ${layout_maker} "${PROJECT_SOURCE_DIR}/data/gltf/morph_cube.gltf"
                 "${layout_gltf}" blend)
set_tests_properties(${t}.make PROPERTIES FIXTURES_SETUP ${t}.make LABELS interop)
interop_compress(cube-blend-quantized glb "${layout_gltf}" --quantized-meshes)
set_tests_properties(${t}.plain.convert ${t}.compressed.convert PROPERTIES FIXTURES_REQUIRED ${t}.make)
# Meshes on nodes that cannot take the dequantization (make_child_node_fixture.mjs: a two-primitive
# mesh on an animated node with a camera and a child, a joint's mesh, a non-unit rotation, and a
# skinned mesh under a moved node): each node hands its mesh to a new child node; three.js must
# draw every vertex where the plain output does, through the animation, and a too-tight bound
# must fail.
set(t interop.compress.child-nodes-quantized)
set(child_gltf "${interop_out}/../out-compress/child-nodes.gltf")
add_test(NAME ${t}.make
         COMMAND ${NODE_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/make_child_node_fixture.mjs "${child_gltf}")
set_tests_properties(${t}.make PROPERTIES FIXTURES_SETUP ${t}.make LABELS interop)
interop_compress(child-nodes-quantized glb "${child_gltf}" --quantized-meshes)
set_tests_properties(${t}.plain.convert ${t}.compressed.convert PROPERTIES FIXTURES_REQUIRED ${t}.make)
interop_expect_failure(${t}.detects-tight-bound "${t}.plain;${t}.compressed" ${compress_check}
                       --plain ../out-compress/child-nodes-quantized.plain.glb
                       --compressed ../out-compress/child-nodes-quantized.glb --quantized-meshes
                       --mesh-tolerance 1e-9)
set(COMPRESS_EXTRA_ARGS "")

# --drop-unused-attributes (with --reduce --compress-meshes): the meshes lose the TEXCOORD_n no
# texture of their material samples and the TANGENT no normal map or anisotropy needs (their morph
# targets' too), which three.js does not read there. check_compress.mjs --dropped-attributes
# allows exactly those to be missing, judged from the materials as three.js loads the plain output,
# and compares what is left as the -quantized cases do, against the plain output without --reduce
# within --reduce's bounds (as walk-reduce). What goes: horse, flamingo uv (vertex colours, no
# texture; the vertices it told apart merge); morph sphere, morph cube tangent (no normal map);
# morph stress test uv1 of the primitive whose material has no occlusion texture (the other's
# aoMap samples it); fox nothing (its baseColorTexture samples uv); node TRS its four meshes' uv
# (no textures, one mesh without a material). Flamingo, sphere, cube: reduced animation views too
# small for the extension.
set(drop_maker "${CMAKE_CURRENT_SOURCE_DIR}/make_dropped_attribute_fixture.mjs")
set(reduce_bounds --rotation-deg 0.1 --translation 1e-4 --scale 1e-3 --weight 1e-3)
# interop_compress_detects(TEST FIXTURES PATTERN SCRIPT ARGS...): like interop_expect_failure, but
# passing only when a failure line matches PATTERN: a damaged output below may fail the validator
# too (MESH_PRIMITIVE_TOO_FEW_TEXCOORDS), and it is three.js's side that must be seen to fail.
function(interop_compress_detects test fixtures pattern script)
  interop_check(${test} "${fixtures}" ${script} ${ARGN} --max-failure-lines 0)
  set_tests_properties(${test} PROPERTIES PASS_REGULAR_EXPRESSION "${pattern}")
endfunction()
# interop_compress_without(NAME SEMANTIC): ../out-compress/NAME.glb with SEMANTIC taken out of every
# primitive and morph target as well (make_dropped_attribute_fixture.mjs), as
# ../out-compress/NAME.no-SEMANTIC.glb; a fixture of the same name.
function(interop_compress_without name semantic)
  set(t interop.compress.${name}.no-${semantic})
  add_test(NAME ${t}.make
           COMMAND ${NODE_EXECUTABLE} ${drop_maker} "${interop_out}/../out-compress/${name}.glb"
                   "${interop_out}/../out-compress/${name}.no-${semantic}.glb" ${semantic})
  set_tests_properties(${t}.make PROPERTIES FIXTURES_SETUP ${t} FIXTURES_REQUIRED interop.compress.${name}.compressed
                       LABELS interop)
endfunction()
# --reduce --compress on RobotExpressive: after --reduce its 14 clips' 193 channels hold 130 key-time
# sets, which shared key times (animconv/share_key_times.h) bring to 51 with keys added on each
# channel's own curve; three.js must play every clip within --reduce's tolerances of the plain
# output (Fox's clips go the same way in fox-dropped below).
set(COMPRESS_EXTRA_ARGS --reduce)
if(EXISTS "${ANIMCONV_SHARED_DATA}/morph/threejs_RobotExpressive.glb")
  interop_compress(robot-reduce glb "${ANIMCONV_SHARED_DATA}/morph/threejs_RobotExpressive.glb"
                   --expect-meshopt ${reduce_bounds})
endif()
set(COMPRESS_EXTRA_ARGS --reduce --compress-meshes --drop-unused-attributes)
if(IS_DIRECTORY "${ANIMCONV_SHARED_DATA}")
  interop_compress_shared(-dropped "--quantized-meshes;--dropped-attributes;${reduce_bounds}"
          "horse|morph/threejs_Horse.glb|--expect-meshopt"
          "flamingo|morph/threejs_Flamingo.glb|"
          "morph-sphere|morph/khronos_AnimatedMorphSphere/glTF/AnimatedMorphSphere.gltf|"
          "morph-cube|morph/khronos_AnimatedMorphCube/glTF/AnimatedMorphCube.gltf|"
          "morph-stress|morph/khronos_MorphStressTest_embedded.gltf|--expect-meshopt"
          "fox|skeletal/khronos_Fox.glb|--expect-meshopt"
          "node-trs|skeletal/bevy_animations_node_trs.gltf|--expect-meshopt")
  # The check must tell the attributes three.js reads from those it does not: each output with one
  # it DOES read taken out as well must fail on three.js's side: the fox's TEXCOORD_0 (its
  # baseColorTexture samples uv), the morph stress test's TEXCOORD_1 (one material's occlusion
  # texture samples uv1; the writer leaves it out of the other primitive only), the node TRS
  # meshes' NORMAL (never droppable). And without --dropped-attributes a dropped attribute fails
  # as before (horse's uv).
  foreach(entry
          "fox|skeletal/khronos_Fox.glb|TEXCOORD_0"
          "morph-stress|morph/khronos_MorphStressTest_embedded.gltf|TEXCOORD_1"
          "node-trs|skeletal/bevy_animations_node_trs.gltf|NORMAL")
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 name)
    list(GET fields 1 file)
    list(GET fields 2 semantic)
    if(EXISTS "${ANIMCONV_SHARED_DATA}/${file}")
      set(t interop.compress.${name}-dropped)
      interop_compress_without(${name}-dropped ${semantic})
      interop_compress_detects(${t}.detects-read-${semantic} "${t}.plain;${t}.no-${semantic}"
                               "geometry: '[^']*': [a-z0-9]+ left out, but three.js reads it"
                               ${compress_check} --plain ../out-compress/${name}-dropped.plain.glb
                               --compressed ../out-compress/${name}-dropped.no-${semantic}.glb
                               --quantized-meshes --dropped-attributes ${reduce_bounds})
    endif()
  endforeach()
  if(EXISTS "${ANIMCONV_SHARED_DATA}/morph/threejs_Horse.glb")
    set(t interop.compress.horse-dropped)
    interop_compress_detects(${t}.detects-without-flag "${t}.plain;${t}.compressed"
                             "geometry: '[^']*': attributes "
                             ${compress_check} --plain ../out-compress/horse-dropped.plain.glb
                             --compressed ../out-compress/horse-dropped.glb --quantized-meshes ${reduce_bounds})
  endif()
endif()
set(COMPRESS_EXTRA_ARGS "")
