// Assimp animations as clips, in seconds.
#pragma once

#include <assimp/scene.h>

#include <optional>
#include <string>
#include <vector>

#include "animconv/diagnostic.h"
#include "animconv/model.h"
#include "formats/assimp/assimp_rig.h"

namespace animconv {

struct AssimpClipOptions {
  std::string source;  // for errors
  // Ticks per second when an animation leaves mTicksPerSecond 0 ("unspecified").
  double default_ticks_per_second = 25.0;
  // FBX: Assimp 5.2 has made key times relative to the take's LocalStart and gives the take's
  // length as mDuration, but keeps keys outside it (a rotation curve's first key always): each
  // clip is cut to [0, mDuration]. Otherwise a clip starting before 0 is shifted to start at 0.
  bool cut_to_take = false;
};

// One clip per aiAnimation, named as Assimp names it (the reader renames generic names).
// Channels of a folded helper chain are composed at the union of their key times. A channel
// whose every key equals the node's rest value is left out: Assimp's FBX importer fills
// translation, rotation and scale for every animated node. Facts worth telling go to `notes`,
// what may play differently from the file to `diagnostics` (may be null).
std::vector<Clip> ConvertAssimpAnimations(const aiScene& scene, const AssimpRig& rig,
                                          const AssimpClipOptions& options,
                                          std::vector<std::string>* notes,
                                          Diagnostics* diagnostics = nullptr);

}  // namespace animconv
