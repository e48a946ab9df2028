// Freeing an nlohmann::json tree without its destructor's working copy. nlohmann/json 3.11 frees
// a container iteratively by moving every element of it into one std::vector first: freeing a
// document with a 64,000-element array allocated 2 MB more, the peak of a 131 KB .gltf's
// conversion (docs/reliability.md, "Time and memory bounds"). Here only a pointer per open
// container is held: the containers are emptied from the leaves up, and an empty container or a
// scalar frees without that copy.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace animconv {

// Leaves `value` null, its memory freed.
void ReleaseJson(nlohmann::json& value);

// json::parse(text), throwing what it throws, except that the partial tree a syntax error leaves
// is freed by ReleaseJson (json::parse frees it with the copy: a 101 KB .gltf of 49,000 zeros
// cut by a stray comma peaked at 3.0 MB, fuzz/regressions/gltf/).
nlohmann::json ParseJsonReleasingPartial(std::string_view text);

}  // namespace animconv
