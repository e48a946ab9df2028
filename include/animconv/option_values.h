// The options of convert, batch, info and diff as a user gives them (docs/cli.md), checked and
// mapped onto ConvertOptions in one place. The CLI fills the values from its command line, the web
// API (web/src, docs/web.md) from a JSON object keyed by the same option names, so both builds
// accept, refuse and apply exactly the same options.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "animconv/bake.h"
#include "animconv/clip_diff.h"
#include "animconv/convert.h"
#include "animconv/reduce.h"
#include "animconv/timing.h"

namespace animconv {

// The options the user gave, by long name without "--" ("loop-blend"). Where docs/cli.md makes a
// difference between a default and the same value given (--loop-blend needs --loop, a --reduce-*
// option implies --reduce, a --max-* limit given), this says which.
using GivenOptions = std::set<std::string>;

// --from, --bones, --interval/--fps, --scale, --max-input-mb, the structure limits.
struct InputOptionValues {
  std::string from;
  std::string bones_file;
  double interval_seconds = 0;
  double fps = 0;
  double scale = 1;
  uint64_t max_input_mb = kDefaultMaxInputBytes >> 20;
  // --max-nodes, --max-depth, ...: the texts as typed, one per LimitOptions() row, checked by
  // ApplyLimitOptions.
  std::vector<std::string> limits;
};

// Everything of a conversion but INPUT, -o and --to.
struct ConvertOptionValues {
  std::string mirror;
  std::string source_rig;
  std::string skeleton;
  std::string source_facing;
  std::string bone_map;
  std::string expression_map;
  std::string bone_names;
  std::string clip;
  std::string time_unit = "s";
  std::string morph_tracks = "auto";
  std::string bvh_order;
  std::string root_motion;
  bool root_yaw = false;
  std::string hips_scale;
  bool ground = false;
  int precision = -1;
  bool three_array = false;
  bool allow_partial = false;
  std::string trim;
  double speed = 1;
  double offset_seconds = 0;
  double resample_fps = 0;
  std::string interpolation;
  bool loop = false;
  double loop_blend = kDefaultLoopBlendSeconds;
  bool reduce = false;
  ReduceOptions reduction;
  double hierarchical_distance = 0;
  bool compress = false;  // --compress (glTF family): WriteOptions::gltf_compression
  bool compress_without_meshopt = false;  // --compress-without-meshopt: core glTF only
  bool compress_keep_vertices = false;    // --compress-keep-vertices: meshes not indexed
  bool compress_keep_key_times = false;   // --compress-keep-key-times: each channel its own keys
  bool compress_meshes = false;           // --compress-meshes: meshes quantized (lossy, bounded)
  bool drop_unused_attributes = false;    // vertex attributes no material reads left out
  double mesh_tolerance = GltfCompression().mesh_position_fraction;  // --mesh-tolerance
};

// `diff`'s own options (besides the input options).
struct DiffOptionValues {
  std::string clip_a;  // --clip
  std::string clip_b;  // --clip-b
  std::string mirror;
  std::string space = "auto";
  std::string skeleton_b;  // --skeleton-b: the model B was written for (RunDiffJob)
  double hierarchical = 0;
  int samples_between = DiffOptions().samples_between_keys;
  double cubic_chord_fraction = DiffOptions().cubic_chord_fraction;
};

// `bake`'s options (docs/cli.md, bake): --clip, --node, --fps, --max-input-mb and the limits.
struct BakeOptionValues {
  std::string clip;
  std::string node;
  double fps = 0;
  uint64_t max_input_mb = kDefaultMaxInputBytes >> 20;
  std::vector<std::string> limits;  // as InputOptionValues::limits
};

// One structure-limit option (docs/reliability.md, Limits): --NAME sets StructureLimits::*field.
struct LimitOption {
  const char* name;
  size_t StructureLimits::*field;
  const char* help;
};
// In the order of docs/reliability.md's table.
const std::vector<LimitOption>& LimitOptions();

// Parses the given limit texts into `limits`; a usage error for anything but a whole number >= 1.
void ApplyLimitOptions(const std::vector<std::string>& texts, const GivenOptions& given,
                       StructureLimits* limits);
// Fills the read side of `options` (loads the --bones file when given).
void ApplyInputOptions(const InputOptionValues& values, const GivenOptions& given,
                       ConvertOptions* options);
// Checks the values and fills the rest of `options` (reads the --bone-map file).
void ApplyConvertOptions(ConvertOptionValues values, const GivenOptions& given,
                         ConvertOptions* options);

// Checks the values and fills `diff` and the comparison's --mirror in `options`.
void ApplyDiffOptions(const DiffOptionValues& values, const GivenOptions& given,
                      ConvertOptions* options, DiffOptions* diff);

// Checks the values and fills `options` (--fps must be positive and finite).
void ApplyBakeOptions(const BakeOptionValues& values, const GivenOptions& given,
                      P5BakeFileOptions* options);

}  // namespace animconv
