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
  // With `indices`: mode TRIANGLES, the codec made for triangle lists, which may rotate a
  // triangle's corners ([a b c] as [b c a], the same winding); --compress-meshes only.
  bool triangles = false;
};

// Adds the accessors the primitives of `mesh` (a glTF mesh object as written, after renumbering)
// use as indices to `index_accessors`, and those of triangle lists (mode 4) to `triangle_lists`,
// those of other modes to `other_lists` (an accessor in both is no triangle list).
void CollectIndexAccessors(const nlohmann::json& mesh, std::set<size_t>& index_accessors,
                           std::set<size_t>& triangle_lists, std::set<size_t>& other_lists);

// The layout of every bufferView (after renumbering) given the accessors the meshes use as indices
// (CollectIndexAccessors) and the accessors that will be written: nullopt where the view holds
// something else (an image, mixed index and vertex use, 8-bit indices). With `triangle_lists`
// (--compress-meshes), an index view whose accessors are all triangle lists, each a whole number of
// triangles from a triangle boundary of the view, gets mode TRIANGLES.
std::vector<std::optional<ViewLayout>> PassThroughViewLayouts(
    const std::set<size_t>& index_accessors, const nlohmann::json& accessors,
    const nlohmann::json& views, const std::set<size_t>* triangle_lists = nullptr);

// The compressed stream of `bytes` (padded with zeros to a multiple of the stride) in `layout`;
// empty when it cannot be encoded. `padded_length` gets the view's new byteLength.
std::string CompressView(const std::string& bytes, const ViewLayout& layout, size_t* padded_length);

}  // namespace animconv
