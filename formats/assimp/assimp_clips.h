// Assimp animations as clips, in seconds.
#pragma once

#include <assimp/scene.h>

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "animconv/model.h"
#include "formats/assimp/assimp_rig.h"

namespace animconv {

struct AssimpClipOptions {
  std::string source;  // for errors
  // Ticks per second when an animation leaves mTicksPerSecond 0 ("unspecified").
  double default_ticks_per_second = 25.0;
  // When set, the length of a tick whatever the animation says (BVH: the frame time as written;
  // Assimp's keys are frame numbers).
  std::optional<double> seconds_per_tick;
  // BVH: every rotation key is data the file declared (CHANNELS), even at rest, so a pose file
  // keeps its pose; Assimp's invented one-key scales and offsets still go.
  bool keep_rotations_at_rest = false;
  // BVH joints whose position keys are channel values to add to the rest translation (OFFSET),
  // as three.js's BVHLoader reads them; Assimp 5.2 gives the channel values alone.
  std::unordered_set<std::string> positions_relative_to_rest;
};

// One clip per aiAnimation, named as Assimp names it (the reader renames generic names).
// Channels of a folded helper chain are composed at the union of their key times. A channel
// whose every key equals the node's rest value is left out (but see keep_rotations_at_rest):
// Assimp's FBX importer fills translation, rotation and scale for every animated node, and the
// BVH importer gives every joint a one-key scale and position. Facts worth telling go to `notes`.
std::vector<Clip> ConvertAssimpAnimations(const aiScene& scene, const AssimpRig& rig,
                                          const AssimpClipOptions& options,
                                          std::vector<std::string>* notes);

}  // namespace animconv
