// What a BVH's HIERARCHY declares per joint, read before Assimp sees the file: Assimp 5.2 keeps
// a joint's position channels only when it has exactly 6 channels, and then takes the channel
// values as the joint's position, where three.js's BVHLoader (and Blender) add them to the
// joint's OFFSET. Knowing the declarations lets the reader correct the one and report the other.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace animconv {

struct BvhJointChannels {
  std::string name;
  int channel_count = 0;
  bool has_position = false;
};

struct BvhHeader {
  std::vector<BvhJointChannels> joints;  // ROOT and JOINT entries in file order
  // "Frame Time:" as written, in double precision: Assimp keeps 1 / frame time as a float,
  // which moves a 120 fps frame by up to 1e-9 s per second of clip.
  std::optional<double> frame_time_seconds;
  bool has_frame_time = false;          // the "Frame Time:" label was there, whatever followed it
  std::optional<uint64_t> frame_count;  // "Frames:"
  size_t motion_bytes = 0;              // bytes after the MOTION header: where the values are
  // For the structure limits, checked before Assimp (whose BVH parser recurses per level):
  size_t max_depth = 0;          // deepest '{' nesting of the HIERARCHY (a joint per level)
  size_t deepest_offset = 0;     // where that '{' is
  size_t frames_offset = 0;      // where the "Frames:" value is (0: no "Frames:")
  std::string_view frames_text;  // the value as written
  size_t longest_name = 0, longest_name_offset = 0;
};

// 1-based "LINE:COLUMN" of a byte offset (columns in bytes).
std::string BvhLocation(std::string_view text, size_t offset);

// Reads the HIERARCHY and the MOTION header. Tolerant: a malformed file gives what could be read
// (Assimp then reports the real error).
BvhHeader ScanBvh(std::string_view text);

}  // namespace animconv
