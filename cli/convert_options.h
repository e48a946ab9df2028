// The options that shape one conversion (everything but INPUT, -o and --to): shared by
// `convert` and `batch`, so a batch converts each file exactly as `convert` would.
#pragma once

#include <string>

#include "animconv/reduce.h"
#include "animconv/timing.h"
#include "cli/input_options.h"

namespace animconv::cli {

struct ConvertOptionValues {
  std::string mirror;
  std::string source_rig;
  std::string skeleton;
  std::string source_facing;
  std::string bone_map;
  std::string bone_names;
  std::string clip;
  std::string time_unit = "s";
  std::string morph_tracks = "all";
  std::string bvh_order;
  std::string root_motion;
  int precision = -1;
  bool three_array = false;
  bool allow_partial = false;
  std::string trim;
  std::string interpolation;
  bool loop = false;
  double loop_blend = kDefaultLoopBlendSeconds;
  bool reduce = false;
  ReduceOptions reduction;
  double hierarchical_distance = 0;
};

// Three groups: output details (mirror, humanoid, writer options), timing, reduction.
po::options_description ConvertOptionsDescription(ConvertOptionValues* values);
// Checks the values and fills `options` (reads the --bone-map file).
void ApplyConvertOptions(ConvertOptionValues values, const po::variables_map& map,
                         ConvertOptions* options);

}  // namespace animconv::cli
