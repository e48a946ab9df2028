#pragma once

#include <string>

namespace animconv {

// The clip name a single-clip reader gives: the input file's stem ("walk" for "data/walk.csv"),
// or "animation" (three.js BVHLoader's choice) when reading from memory.
std::string ClipNameFromSource(const std::string& source);

}  // namespace animconv
