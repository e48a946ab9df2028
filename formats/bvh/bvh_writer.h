// The BVH writer (`bvh`): HIERARCHY + MOTION text a BVH player (three.js BVHLoader, Blender)
// shows in the source's world pose. Details: docs/formats/bvh.md, "Writing".
#pragma once

#include <string>

#include "animconv/format.h"

namespace animconv {

// One clip (SingleClip); rotations unit and hemisphere-aligned (RenderAsset does that), linear
// or step (cubic splines are baked first: the format entry has accepts_cubic = false).
std::string WriteBvh(const Asset& asset, const WriteOptions& options);

}  // namespace animconv
