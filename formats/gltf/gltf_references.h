// Where a glTF document refers to accessors and bufferViews outside its animations: what the
// pass-through renumbers when it drops data (gltf_pass_through.h) and what the mesh indexing of
// --compress counts before it changes a primitive's accessors (gltf_mesh_weld.h).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "formats/gltf/gltf_document.h"

namespace animconv {

// Extensions that refer to no accessor or bufferView, or whose references ForEachReference
// knows. With any other extension in use, nothing is dropped or changed: an unknown reference
// would break.
bool KnownReferences(const std::string& extension);
// Whether every extension the document lists in `extensionsUsed` is one of those.
bool AllReferencesKnown(const nlohmann::json& document);
// The materials of `source`, each parsed once, when first asked for: a file may give thousands of
// primitives one material with megabytes of `extras` (review of 0ff2f3b: 37 s for 2,000).
class PrimitiveMaterials {
 public:
  explicit PrimitiveMaterials(const GltfDocument& source);
  // The material `primitive` (a mesh primitive of `source`) is drawn with; null when it has none
  // or names none.
  const nlohmann::json& Of(const nlohmann::json& primitive);
  // Every material `primitive` may be drawn with: Of(primitive) and each material its
  // KHR_materials_variants mappings name (an application picks one at run time), each once; those
  // it names none of are left out.
  std::vector<const nlohmann::json*> AllOf(const nlohmann::json& primitive);

 private:
  const nlohmann::json& AtIndex(size_t m);

  const PackedJsonArray* list_ = nullptr;
  std::vector<std::optional<nlohmann::json>> parsed_;
  const nlohmann::json none_;
};

// Whether the document lists a VRM extension (VRM 0.x's VRM, VRM 1.0's VRMC_*) in extensionsUsed.
bool UsesVrm(const nlohmann::json& document);

// The top-level lists whose objects refer to accessors or bufferViews (outside animations): the
// lists of objects the reader keeps packed (GltfLists::objects).
constexpr const char* kReferringMembers[] = {"meshes", "skins", "nodes", "images"};

// A visit of one reference (an accessor or bufferView index); true when it changed it.
using ReferenceVisit = std::function<bool(nlohmann::json& reference)>;

// Calls `visit` on every accessor index in `element` of the top-level list `key` (one of
// kReferringMembers), and `visit_view` on every bufferView index; true when a visit changed one (a
// mesh's primitives are rewritten then, gltf_object_list.h).
bool ForEachReference(const std::string& key, nlohmann::json& element, const ReferenceVisit& visit,
                      const ReferenceVisit& visit_view);

// Every reference of the source's lists of objects, read only, one element's tree at a time.
void ForEachSourceReference(const GltfLists& lists, const ReferenceVisit& visit,
                            const ReferenceVisit& visit_view);

// The member `key` of `object`, or null (also when `object` is no object).
template <typename Json>
Json* Find(Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto found = object.find(key);
  return found == object.end() ? nullptr : &*found;
}

// The member `key` of `object` as a tree, parsed where GltfObjectList::At kept it packed
// (canonical_json.h); null when absent.
nlohmann::json Unpacked(const nlohmann::json& object, const char* key);

// Calls `visit` on each bufferView reference of `accessor`: its own, and its sparse parts'.
template <typename Json, typename Visit>
void ForEachAccessorView(Json& accessor, Visit visit) {
  if (Json* view = Find(accessor, "bufferView")) visit(*view);
  if (Json* sparse = Find(accessor, "sparse")) {
    for (const char* part : {"indices", "values"}) {
      Json* member = Find(*sparse, part);
      if (Json* view = member ? Find(*member, "bufferView") : nullptr) visit(*view);
    }
  }
}

// Index in [0, size) or nullopt (an invalid reference the source already had is left alone).
std::optional<size_t> ValidIndex(const nlohmann::json& reference, size_t size);

// How many times each accessor and bufferView of `source` is referred to, anywhere we know of
// (the lists of objects, accessors' own views and sparse parts, animation samplers): what the
// mesh rewrites of --compress check before they change an accessor that must serve one use alone.
struct ReferenceCounts {
  std::vector<size_t> accessors;
  std::vector<size_t> views;
};
ReferenceCounts CountReferences(const GltfDocument& source);

// Components of a vector type, SCALAR to VEC4; 0 for anything else. Matrices are left out on
// purpose: their columns are padded to 4 bytes (glTF 2.0 §3.6.2.4), so a MAT2 of bytes is 8 bytes,
// not 4; no vertex attribute the spec defines is one.
size_t VectorComponents(const nlohmann::json& type);

// Whether `count` (>= 1) elements of `bytes` each, `stride` apart from `offset`, lie within
// `size` bytes; written so that no product can wrap (a count is any integer a file gives: 2^61 + 1
// elements of 8 bytes wrapped to 0 and passed).
bool FitsIn(size_t size, size_t offset, size_t stride, size_t count, size_t bytes);

// A non-negative integer member (`absent` when `value` is null); nullopt for anything else.
std::optional<size_t> Natural(const nlohmann::json* value, size_t absent);

}  // namespace animconv
