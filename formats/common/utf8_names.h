// Names from formats that declare no encoding (BVH, FBX: Latin-1 and Shift-JIS tools exist) made
// valid UTF-8, which the model's names are and the JSON writers need.
#pragma once

#include <string>
#include <vector>

#include "animconv/model.h"

namespace animconv {

// Replaces each invalid byte of node, mesh, morph target and clip names by U+FFFD, and says how
// many names changed in `notes`.
void RepairInvalidUtf8Names(Asset& asset, std::vector<std::string>* notes);

}  // namespace animconv
