// What a BVH's HIERARCHY declares per joint, read before Assimp sees the file: Assimp 5.2 keeps
// a joint's position channels only when it has exactly 6 channels, and then takes the channel
// values as the joint's position, where three.js's BVHLoader (and Blender) add them to the
// joint's OFFSET. Knowing the declarations lets the reader correct the one and report the other.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace animconv {

struct BvhJointChannels {
  std::string name;
  int channel_count = 0;
  bool has_position = false;
};

// ROOT and JOINT entries in file order; stops at MOTION. Tolerant: a malformed hierarchy gives
// what could be read (Assimp then reports the real error).
std::vector<BvhJointChannels> ScanBvhHierarchy(std::string_view text);

}  // namespace animconv
