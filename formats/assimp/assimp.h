// FBX, COLLADA and the other animated formats Assimp 5.2 imports (docs/formats/assimp.md); BVH
// has its own reader (formats/bvh/bvh_reader.h). Assimp's scene is not taken at its word: ticks
// become seconds here, FBX $AssimpFbx$ helper chains fold back into the bones they belong to,
// FBX units and axes become metres and +Y up, and what Assimp drops is said in Asset::notes.
#pragma once

#include <string_view>

#include "animconv/format.h"

namespace animconv {

// Binary and ASCII FBX, COLLADA.
bool SniffAssimp(std::string_view bytes);
Asset ReadAssimp(std::string_view bytes, const ReadOptions& options);

}  // namespace animconv
