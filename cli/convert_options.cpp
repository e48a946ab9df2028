#include "cli/convert_options.h"

#include <utility>

namespace animconv::cli {
po::options_description ConvertOptionsDescription(ConvertOptionValues* values) {
  po::options_description conversion("Conversion");
  // clang-format off
  conversion.add_options()
      ("mirror", po::value(&values->mirror),
       "how to cross between Unity's left-handed data and right-handed three.js/glTF: "
       "z = (-x,-y,z,w), faces -Z (VRM 0.x, UniGLTF default); x = (x,-y,-z,w), faces +Z "
       "(VRM 1.0/VRMA); none = keep the numbers. Default z; with --source-rig, the model's own "
       "(z for VRM 0.x, x otherwise)")
      ("clip", po::value(&values->clip), "convert only this clip (name or 0-based index)")
      ("allow-partial", po::bool_switch(&values->allow_partial),
       "write the output, with a warning, even when it holds no animation or lost most of the "
       "input's (more than half of its animated channels or humanoid bones, or a required VRM "
       "bone); without it that is an error (exit 2)")
      ("source-rig", po::value(&values->source_rig),
       "the model (VRM, glTF, ...) the input was recorded on: its rest pose is what the input's "
       "raw rotations are relative to. Without it a humanoid input counts as normalised (true "
       "for VRM 0.x avatars, whose rest rotations are identity)")
      ("skeleton", po::value(&values->skeleton),
       "retarget onto this model's humanoid bones: the output animates its nodes (three.js "
       "tracks named after them; glTF output = the model with the clip)")
      ("source-facing", po::value(&values->source_facing),
       "+z or -z: which way the input's character faces when its format does not say "
       "(three.js JSON); needed to retarget. A Unity CSV converted with --mirror z faces -z")
      ("bone-map", po::value(&values->bone_map),
       "file of 'from,to' lines renaming the input's nodes; a 'to' that is a humanoid bone "
       "name (any naming) also gives the node that identity")
      ("expression-map", po::value(&values->expression_map),
       "for .vrma output: file of 'morph target,expression' lines (the --bone-map syntax) "
       "making those morph weights the expression's weight")
      ("bone-names", po::value(&values->bone_names),
       "output naming of humanoid nodes: unity, vrm0, vrm1 or mixamo")
      ("hips-scale", po::value(&values->hips_scale)->value_name("BASIS"),
       "height, leg or none: when retargeting (--skeleton, vrma), scale the hips translation by "
       "the rest hips heights (default, what VRM Animation players do), the rest leg lengths "
       "(hip to knee to ankle), or not at all")
      ("root-motion", po::value(&values->root_motion)->value_name("MODE"),
       "keep, in-place or extract: the hips' travel over the ground (x, z, frame by frame from "
       "the first hips key): keep (default); in-place = removed, the clip plays on the spot; extract = moved to the rig's "
       "root node (a new 'root' above the hips when they have no parent; not for vrma)")
      ("root-yaw", po::bool_switch(&values->root_yaw),
       "with --root-motion in-place or extract: the hips' turn about +Y since their first key "
       "goes too (in place: the clip keeps its first heading; extract: the root turns)")
      ("ground", po::bool_switch(&values->ground),
       "move each clip up or down so the lowest foot or toe joint over it touches y = 0 on the "
       "rig written (after --root-motion); a note gives the height before and after")
      ("three-array", po::bool_switch(&values->three_array),
       "three: write a JSON array of clips (what AnimationLoader reads) instead of one clip "
       "object")
      ("morph-tracks", po::value(&values->morph_tracks)->default_value(values->morph_tracks),
       "three: 'all' = one <mesh>.morphTargetInfluences track with every target per key "
       "(GLTFLoader's layout); 'per-target' = one <mesh>.morphTargetInfluences[<target>] track "
       "per target; 'auto' = 'all', but per target for weights whose input named only the "
       "targets it animates (three.js per-target tracks)")
      ("time-unit", po::value(&values->time_unit)->default_value(values->time_unit),
       "three-hierarchy: key times in s or ms (ms = the seed article's convention)")
      ("bvh-order", po::value(&values->bvh_order)->value_name("ORDER"),
       "bvh: the rotation channels' order for every joint: ZXY, ZYX, XYZ, XZY, YXZ or YZX. "
       "Default: the order each joint had "
       "in a BVH input, else ZXY (what CMU and most tools write)")
      ("compress", po::bool_switch(&values->compress),
       "gltf, glb, vrma: compact animation data: rotations and weights as normalized 16/8-bit "
       "integers, identical accessors shared, EXT_meshopt_compression (required: three.js needs "
       "GLTFLoader.setMeshoptDecoder) with its quaternion and exponential filters; each channel "
       "within a tenth of the --reduce tolerances, else float (docs/formats/gltf.md)")
      ("compress-without-meshopt", po::bool_switch(&values->compress_without_meshopt),
       "--compress in core glTF only: normalized integers and shared accessors, no "
       "EXT_meshopt_compression (for readers without a meshopt decoder); implies --compress")
      ("compress-keep-vertices", po::bool_switch(&values->compress_keep_vertices),
       "--compress without indexing the triangle lists that have no indices (by default each "
       "of their vertices is stored once: the same triangles and values, vertices renumbered); "
       "implies --compress")
      ("compress-keep-key-times", po::bool_switch(&values->compress_keep_key_times),
       "--compress with each channel on its own key times (by default a clip's channels share "
       "the union of their times where that is smaller, keys added on each channel's own curve: "
       "the same motion); implies --compress")
      ("compress-meshes", po::bool_switch(&values->compress_meshes),
       "--compress plus the meshes passed through quantized (KHR_mesh_quantization, required): "
       "positions on the coarsest 8-16-bit grid within --mesh-tolerance, its dequantization in "
       "the mesh's node (or a skinned mesh's inverse bind matrices); normals, texture "
       "coordinates and colours as normalized integers; opaque triangles in vertex cache order; "
       "lossy, each within a bound (--mesh-tolerance, 0.5 deg, 1e-5, 0.002) and the largest "
       "errors reported; implies --compress")
      ("mesh-tolerance", po::value(&values->mesh_tolerance)->value_name("F"),
       "--compress-meshes: the most a vertex (and a morph delta) may move, as a fraction of its "
       "mesh's largest bounding-box side (default 1e-4); implies --compress-meshes")
      ("drop-unused-attributes", po::bool_switch(&values->drop_unused_attributes),
       "gltf, glb: leave out of the meshes passed through the vertex attributes no material "
       "reads: texture coordinates no texture uses, tangents without a normal map (and their "
       "morph target deltas); what is drawn is the same. Off by default: a program may give a "
       "mesh a texture at run time")
      ("precision", po::value(&values->precision),
       "unity-csv: decimals per value (the exporter writes 3); default: shortest text that "
       "reads back as the same float");
  po::options_description timing_options(
      "Timing (docs/timing.md), applied in this order: trim, speed, offset, resample, "
      "interpolation, loop");
  // clang-format off
  timing_options.add_options()
      ("trim", po::value(&values->trim)->value_name("START:END"),
       "seconds of the input (START: = to the end): keep that part, starting at 0; "
       "values at the cuts are interpolated")
      ("speed", po::value(&values->speed)->value_name("FACTOR"),
       "play FACTOR times faster (> 0): times divided by it; 0.5 = half speed. Default 1")
      ("offset", po::value(&values->offset_seconds)->value_name("SECONDS"),
       "shift every key by SECONDS; negative only while no key goes before 0. Default 0")
      ("resample", po::value(&values->resample_fps)->value_name("FPS"),
       "sample every channel at FPS frames per second on one grid from 0 (first and last key "
       "kept); rotations by slerp, step stays step, cubic becomes linear")
      ("interpolation", po::value(&values->interpolation)->value_name("linear|step"),
       "linear or step for every channel; step -> linear adds a key 1 ms before each change so "
       "the holds stay; cubic is sampled at its keys and 30 fps")
      ("loop", po::bool_switch(&values->loop),
       "make every channel end on its first value, blended in over --loop-blend")
      ("loop-blend", po::value(&values->loop_blend)->default_value(values->loop_blend, "0.1")->value_name("SECONDS"),
       "seconds at the end over which --loop blends (at most the clip)");
  // clang-format on
  po::options_description reduction_options(
      "Keyframe reduction (docs/timing.md): removes keys while every channel stays within these "
      "tolerances of the original curve, at every original key and between keys; a --reduce-* "
      "option implies --reduce");
  // clang-format off
  reduction_options.add_options()
      ("reduce", po::bool_switch(&values->reduce), "reduce keys with the tolerances below")
      ("reduce-rotation", po::value(&values->reduction.rotation_degrees)->default_value(
           values->reduction.rotation_degrees, "0.1"), "rotation tolerance in degrees")
      ("reduce-translation", po::value(&values->reduction.translation_metres)->default_value(
           values->reduction.translation_metres, "0.0001"), "translation tolerance in metres (0.1 mm)")
      ("reduce-scale", po::value(&values->reduction.scale_ratio)->default_value(
           values->reduction.scale_ratio, "0.001"), "scale tolerance as a ratio, |reduced/original - 1|")
      ("reduce-weight", po::value(&values->reduction.weight)->default_value(values->reduction.weight, "0.001"),
       "morph weight tolerance (absolute)")
      ("reduce-hierarchical", po::value(&values->hierarchical_distance)->implicit_value(0.1, "0.1"),
       "also keep a point D metres from every joint (default 0.1) within the translation "
       "tolerance in world space, with the errors of all its parent joints added up")
      ("reduce-keep-rest", "keep constant channels equal to the rest pose (as one key) instead "
       "of removing them");
  // clang-format on
  po::options_description all;
  all.add(conversion).add(timing_options).add(reduction_options);
  return all;
}

void ApplyConvertOptions(ConvertOptionValues values, const po::variables_map& map,
                         ConvertOptions* options) {
  animconv::ApplyConvertOptions(std::move(values), GivenIn(map), options);
}

}  // namespace animconv::cli
