// The MOTION section: "Frames:", "Frame Time:" and the frames' channel values, as clip channels
// in the file's length unit. Every claim is checked against the bytes left and the structure
// limits before anything is allocated for it.
#pragma once

#include <vector>

#include "animconv/diagnostic.h"
#include "animconv/model.h"
#include "formats/bvh/bvh_hierarchy.h"
#include "formats/bvh/bvh_text.h"

namespace animconv {

struct BvhMotion {
  uint64_t frames = 0;
  double frame_time_seconds = 0;  // as written, in double precision
  // Per joint (Channel::node = index into BvhHierarchy::joints), translation before rotation:
  // a joint's rotation channels make a rotation channel, kept even at rest (a one-frame pose
  // file stays a pose); its position channels make a translation (OFFSET + values, as three.js's
  // BVHLoader and Blender read them), left out when every frame holds the OFFSET.
  std::vector<Channel> channels;
};

// Reads what follows the "MOTION" keyword up to the end of the file. Values after the declared
// frames are ignored with a located warning (three.js's BVHLoader and Assimp read exactly
// "Frames:" frames); fewer values than declared are an error.
BvhMotion ParseBvhMotion(BvhCursor& cursor, const BvhHierarchy& hierarchy,
                         const StructureLimits& limits, Diagnostics* diagnostics);

}  // namespace animconv
