// --compress for the bufferViews a glTF input passes through (meshes, skins, morph targets):
// lossless EXT_meshopt_compression (docs/formats/gltf.md, "Compact output"). The bytes decode to
// exactly what they were; only the storage changes. Mode INDICES for primitive index data,
// ATTRIBUTES for everything else, with the element stride the view's accessors read.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace animconv {

struct ViewLayout {
  size_t stride = 4;
  bool indices = false;  // mode INDICES (stride 2 or 4), else ATTRIBUTES (stride divisible by 4)
};

// Adds the accessors the primitives of `mesh` (a glTF mesh object as written, after renumbering)
// use as indices to `index_accessors`.
void CollectIndexAccessors(const nlohmann::json& mesh, std::set<size_t>& index_accessors);

// The layout of every bufferView (after renumbering) given the accessors the meshes use as indices
// (CollectIndexAccessors) and the accessors that will be written: nullopt where the view holds
// something else (an image, mixed index and vertex use, 8-bit indices).
std::vector<std::optional<ViewLayout>> PassThroughViewLayouts(
    const std::set<size_t>& index_accessors, const nlohmann::json& accessors,
    const nlohmann::json& views);

// The compressed stream of `bytes` (padded with zeros to a multiple of the stride) in `layout`;
// empty when it cannot be encoded. `padded_length` gets the view's new byteLength.
std::string CompressView(const std::string& bytes, const ViewLayout& layout, size_t* padded_length);

}  // namespace animconv
