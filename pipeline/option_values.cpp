#include "animconv/option_values.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <map>

#include "animconv/bone_map.h"
#include "animconv/bone_names.h"
#include "animconv/error.h"
#include "animconv/euler.h"
#include "animconv/io.h"
#include "formats/csv/unity_csv.h"

namespace animconv {
namespace {

bool Given(const GivenOptions& given, const char* option) { return given.count(option) > 0; }

double ParseSeconds(const std::string& text, const std::string& option) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value)) {
    ThrowUsage(fmt::format("{}: '{}' is not a number of seconds", option, text));
  }
  return value;
}

// "START:END" or "START:" (to the end of the clip), in seconds.
TrimRange ParseTrim(const std::string& text) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos) ThrowUsage("--trim must be START:END or START: (seconds)");
  TrimRange range;
  range.start_seconds = ParseSeconds(text.substr(0, colon), "--trim " + text);
  if (colon + 1 < text.size()) {
    range.end_seconds = ParseSeconds(text.substr(colon + 1), "--trim " + text);
  }
  return range;
}

// The value a word names among `choices`; a usage error saying `message` for any other word.
template <typename Value>
Value Choose(const std::map<std::string, Value>& choices, const std::string& word,
             const char* message) {
  const auto chosen = choices.find(word);
  if (chosen == choices.end()) ThrowUsage(message);
  return chosen->second;
}

}  // namespace

const std::vector<LimitOption>& LimitOptions() {
  static const std::vector<LimitOption> options = {
      {"max-nodes", &StructureLimits::nodes, "refuse inputs with more nodes (bones, joints)"},
      {"max-depth", &StructureLimits::depth, "refuse hierarchies with more nodes on one chain"},
      {"max-channels", &StructureLimits::channels,
       "refuse clips with more channels (tracks, column groups)"},
      {"max-keys", &StructureLimits::keys_per_channel,
       "refuse channels with more keys (CSV rows, BVH frames)"},
      {"max-morph-targets", &StructureLimits::morph_targets,
       "refuse meshes with more morph targets"},
      {"max-name-bytes", &StructureLimits::name_bytes,
       "refuse node, clip or track names longer than this many bytes"},
  };
  return options;
}

void ApplyLimitOptions(const std::vector<std::string>& texts, const GivenOptions& given,
                       StructureLimits* limits) {
  const std::vector<LimitOption>& options = LimitOptions();
  for (size_t i = 0; i < options.size() && i < texts.size(); ++i) {
    if (!Given(given, options[i].name)) continue;
    const std::string& text = texts[i];
    size_t value = 0;
    bool ok = !text.empty() && text.size() <= 19;  // 19 digits fit a 64-bit size_t
    for (const char c : text) {
      ok = ok && c >= '0' && c <= '9';
      if (ok) value = value * 10 + static_cast<size_t>(c - '0');
    }
    if (!ok || value == 0) {
      ThrowUsage(fmt::format("--{} must be a whole number of at least 1, not '{}'", options[i].name,
                             text));
    }
    limits->*options[i].field = value;
  }
}

void ApplyInputOptions(const InputOptionValues& values, const GivenOptions& given,
                       ConvertOptions* options) {
  options->from = values.from;
  options->max_input_bytes = values.max_input_mb << 20;
  ApplyLimitOptions(values.limits, given, &options->read.limits);
  if (Given(given, "interval") && Given(given, "fps")) {
    ThrowUsage("give --interval or --fps, not both");
  }
  if (Given(given, "interval")) {
    if (!(values.interval_seconds > 0)) ThrowUsage("--interval must be a positive number");
    options->read.row_interval_seconds = values.interval_seconds;
    options->write.row_interval_seconds = values.interval_seconds;
  }
  if (Given(given, "fps")) {
    if (!(values.fps > 0)) ThrowUsage("--fps must be a positive number");
    options->read.row_interval_seconds = 1.0 / values.fps;
    options->write.row_interval_seconds = 1.0 / values.fps;
  }
  if (Given(given, "scale")) {
    if (!(values.scale > 0) || !std::isfinite(values.scale)) {
      ThrowUsage("--scale must be a positive number");
    }
    options->length_scale = values.scale;
  }
  if (!values.bones_file.empty()) {
    options->read.bone_names = ParseBoneList(ReadFile(values.bones_file), values.bones_file);
    options->write.bone_names = options->read.bone_names;
    options->bones_file = values.bones_file;
  }
}

void ApplyConvertOptions(ConvertOptionValues values, const GivenOptions& given,
                         ConvertOptions* options) {
  if (Given(given, "mirror")) options->mirror = ParseMirror(values.mirror);
  options->source_rig = values.source_rig;
  options->skeleton = values.skeleton;
  if (Given(given, "source-facing")) {
    if (values.source_facing != "+z" && values.source_facing != "-z") {
      ThrowUsage("--source-facing must be +z or -z");
    }
    options->source_facing = values.source_facing == "+z" ? Facing::kPlusZ : Facing::kMinusZ;
  }
  if (Given(given, "bone-map")) {
    options->bone_map = ParseBoneMap(ReadFile(values.bone_map), values.bone_map);
    options->bone_map_file = values.bone_map;
  }
  if (Given(given, "expression-map")) {
    options->expression_map = ParseBoneMap(ReadFile(values.expression_map), values.expression_map);
    options->expression_map_file = values.expression_map;
  }
  if (Given(given, "bone-names")) {
    options->bone_names = ParseBoneNaming(values.bone_names);
    if (!options->bone_names) ThrowUsage("--bone-names must be unity, vrm0, vrm1 or mixamo");
  }
  if (Given(given, "clip")) options->clip = values.clip;
  if (Given(given, "root-motion")) {
    options->root_motion.mode = Choose<RootMotionMode>(
        {{"keep", RootMotionMode::kKeep},
         {"in-place", RootMotionMode::kInPlace},
         {"extract", RootMotionMode::kExtract}},
        values.root_motion, "--root-motion must be keep, in-place or extract");
  }
  if (Given(given, "hips-scale")) {
    options->retarget.hips_scale =
        Choose<HipsScale>({{"height", HipsScale::kHipsHeight},
                           {"leg", HipsScale::kLegLength},
                           {"none", HipsScale::kNone}},
                          values.hips_scale, "--hips-scale must be height, leg or none");
  }
  if (values.root_yaw) {
    if (options->root_motion.mode == RootMotionMode::kKeep) {
      ThrowUsage(
          "--root-yaw needs --root-motion in-place or extract: it removes the heading "
          "change together with the travel");
    }
    options->root_motion.remove_yaw = true;
  }
  options->write.three_array = values.three_array;
  options->allow_partial = values.allow_partial;
  options->ground = values.ground;
  // Where a model's meshes stand at rest is read only when grounding needs it: it decodes every
  // mesh of a glTF (the input, a --skeleton model).
  options->read.rest_mesh_support = values.ground;
  if (values.morph_tracks == "per-target") {
    options->write.three_morph_tracks = ThreeMorphTracks::kPerTarget;
  } else if (values.morph_tracks == "all") {
    options->write.three_morph_tracks = ThreeMorphTracks::kAll;
  } else if (values.morph_tracks != "auto") {
    ThrowUsage("--morph-tracks must be auto, all or per-target");
  }
  if (values.time_unit == "ms") {
    options->write.hierarchy_time_unit = TimeUnit::kMilliseconds;
  } else if (values.time_unit != "s") {
    ThrowUsage("--time-unit must be s or ms");
  }
  if (Given(given, "bvh-order")) {
    options->write.bvh_order = ParseEulerOrder(values.bvh_order);
    if (!options->write.bvh_order) {
      ThrowUsage(fmt::format("--bvh-order must be ZXY, ZYX, XYZ, XZY, YXZ or YZX, not '{}'",
                             values.bvh_order));
    }
  }
  if (Given(given, "precision")) {
    if (values.precision < 0 || values.precision > 17)
      ThrowUsage("--precision must be between 0 and 17");
    options->write.precision = values.precision;
  }

  if (Given(given, "trim")) options->timing.trim = ParseTrim(values.trim);
  if (Given(given, "speed")) options->timing.speed = values.speed;
  if (Given(given, "offset")) options->timing.offset_seconds = values.offset_seconds;
  if (Given(given, "resample")) options->timing.resample_fps = values.resample_fps;
  if (Given(given, "interpolation")) {
    if (values.interpolation != "linear" && values.interpolation != "step") {
      ThrowUsage("--interpolation must be linear or step");
    }
    options->timing.interpolation =
        values.interpolation == "linear" ? Interpolation::kLinear : Interpolation::kStep;
  }
  if (Given(given, "loop-blend") && !values.loop) ThrowUsage("--loop-blend needs --loop");
  if (values.loop) options->timing.loop = LoopOptions{values.loop_blend};

  for (const char* option : {"reduce-rotation", "reduce-translation", "reduce-scale",
                             "reduce-weight", "reduce-hierarchical", "reduce-keep-rest"}) {
    if (Given(given, option)) values.reduce = true;
  }
  if (values.reduce) {
    for (const double tolerance :
         {values.reduction.rotation_degrees, values.reduction.translation_metres,
          values.reduction.scale_ratio, values.reduction.weight}) {
      if (!(tolerance >= 0 && std::isfinite(tolerance))) {
        ThrowUsage("--reduce-* tolerances must be finite and not negative");
      }
    }
    if (Given(given, "reduce-hierarchical")) {
      if (!(values.hierarchical_distance > 0 && std::isfinite(values.hierarchical_distance))) {
        ThrowUsage("--reduce-hierarchical must be a distance in metres greater than 0");
      }
      values.reduction.hierarchical_distance_metres = values.hierarchical_distance;
    }
    values.reduction.drop_rest_constant = !Given(given, "reduce-keep-rest");
    options->reduce = values.reduction;
  }
  if (Given(given, "mesh-tolerance")) values.compress_meshes = true;
  if (values.compress_meshes && !(values.mesh_tolerance > 0 && values.mesh_tolerance < 1 &&
                                  std::isfinite(values.mesh_tolerance))) {
    ThrowUsage("--mesh-tolerance must be a fraction of a mesh's size, above 0 and below 1");
  }
  options->write.gltf_drop_unused_attributes = values.drop_unused_attributes;
  if (values.compress_without_meshopt || values.compress_keep_vertices ||
      values.compress_keep_key_times || values.compress_meshes) {
    values.compress = true;
  }
  if (values.compress) {
    // --compress may add a tenth of the tolerances (the --reduce-* values, else their defaults)
    // and --reduce keeps the other nine tenths, so the two together never exceed what was asked
    // (docs/formats/gltf.md, "Compact output").
    constexpr double kCompressShare = 0.1;
    const ReduceOptions& asked = values.reduction;
    GltfCompression compression;
    compression.meshopt = !values.compress_without_meshopt;
    compression.index_meshes = !values.compress_keep_vertices;
    compression.share_key_times = !values.compress_keep_key_times;
    compression.quantize_meshes = values.compress_meshes;
    compression.mesh_position_fraction = values.mesh_tolerance;
    compression.rotation_degrees = asked.rotation_degrees * kCompressShare;
    compression.translation_metres = asked.translation_metres * kCompressShare;
    compression.scale_ratio = asked.scale_ratio * kCompressShare;
    compression.weight = asked.weight * kCompressShare;
    options->write.gltf_compression = compression;
    if (options->reduce) {
      options->reduce->rotation_degrees *= 1 - kCompressShare;
      options->reduce->translation_metres *= 1 - kCompressShare;
      options->reduce->scale_ratio *= 1 - kCompressShare;
      options->reduce->weight *= 1 - kCompressShare;
    }
  }
}

void ApplyDiffOptions(const DiffOptionValues& values, const GivenOptions& given,
                      ConvertOptions* options, DiffOptions* diff) {
  if (Given(given, "mirror")) options->mirror = ParseMirror(values.mirror);
  if (Given(given, "clip")) diff->clip_a = values.clip_a;
  if (Given(given, "clip-b")) diff->clip_b = values.clip_b;
  if (Given(given, "hierarchical")) {
    if (!(values.hierarchical > 0)) {
      ThrowUsage("--hierarchical must be a positive distance in metres");
    }
    diff->hierarchical_distance_metres = values.hierarchical;
  }
  if (values.space == "local") {
    diff->space = DiffSpace::kLocal;
  } else if (values.space == "world") {
    diff->space = DiffSpace::kWorld;
  } else if (values.space != "auto") {
    ThrowUsage(fmt::format("--space must be auto, local or world, not '{}'", values.space));
  }
  diff->samples_between_keys = values.samples_between;
  diff->cubic_chord_fraction = values.cubic_chord_fraction;
  if (diff->samples_between_keys < 0) ThrowUsage("--samples-between must be 0 or more");
  if (!(diff->cubic_chord_fraction >= 0)) ThrowUsage("--cubic-chord-fraction must be 0 or more");
}

void ApplyBakeOptions(const BakeOptionValues& values, const GivenOptions& given,
                      P5BakeFileOptions* options) {
  options->max_input_bytes = values.max_input_mb << 20;
  ApplyLimitOptions(values.limits, given, &options->limits);
  if (Given(given, "clip")) options->clip = values.clip;
  if (Given(given, "node")) options->bake.node = values.node;
  if (Given(given, "fps")) {
    if (!(values.fps > 0) || !std::isfinite(values.fps)) {
      ThrowUsage("--fps must be a positive number");
    }
    options->bake.fps = values.fps;
  }
}

}  // namespace animconv
