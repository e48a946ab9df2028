// What `animconv info` reports, computed from the model alone.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "animconv/bone_names.h"
#include "animconv/model.h"

namespace animconv {

struct ClipSummary {
  std::string name;
  double duration_seconds = 0;
  size_t channel_count = 0;
  std::array<size_t, 4> channels_per_path{};           // indexed by Path
  std::array<size_t, 3> channels_per_interpolation{};  // indexed by Interpolation
  size_t key_count = 0;                                // over all channels
  size_t max_keys_per_channel = 0;
  // Set when every channel's keys sit on one uniform grid (within 1e-6 s).
  std::optional<double> key_rate_hz;
  std::vector<std::string> targets;           // animated node names, rig order
  std::vector<std::string> missing_humanoid;  // humanoid nodes of the rig with no channel
};

struct AssetSummary {
  size_t node_count = 0;
  size_t humanoid_node_count = 0;
  HumanoidCoverage humanoid;
  bool rest_pose_known = false;
  CoordinateSystem coordinates;
  std::vector<ClipSummary> clips;
  // A VRM Animation's expression nodes ("happy (preset, node 'happy')") and lookAt node name.
  std::vector<std::string> vrma_expressions;
  std::string vrma_look_at;
  std::vector<std::string> notes;
  // Rotation keys as stored (readers keep what the file says; outputs get them normalised).
  size_t rotation_keys_not_unit = 0;     // | |q| - 1 | > 1e-12
  double max_rotation_length_error = 0;  // max | |q| - 1 |
  size_t rotation_sign_flips = 0;        // consecutive keys with dot < 0 (linear/step)
};

AssetSummary Summarize(const Asset& asset);

// Keys per second when every channel's keys sit on one uniform grid (within 1e-6 s).
std::optional<double> ClipKeyRate(const Clip& clip);

// The common key interval of a channel if its keys are uniformly spaced (within 1e-6 s).
std::optional<double> UniformInterval(const std::vector<double>& times_seconds);

}  // namespace animconv
