// BVH (Biovision Hierarchy) motion capture, read by animconv itself (docs/formats/bvh.md):
// HIERARCHY joints become rig nodes (End Sites leaf nodes "EndSite_<joint>"), MOTION frames one
// clip named after the file, centimetres assumed (lengths x0.01 to metres).
#pragma once

#include <string_view>

#include "animconv/format.h"

namespace animconv {

// "HIERARCHY" after an optional UTF-8 byte order mark and whitespace.
bool SniffBvh(std::string_view bytes);
Asset ReadBvh(std::string_view bytes, const ReadOptions& options);

}  // namespace animconv
