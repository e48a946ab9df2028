// Where a glTF document refers to accessors and bufferViews outside its animations: what the
// pass-through renumbers when it drops data (gltf_pass_through.h) and what the mesh indexing of
// --compress counts before it changes a primitive's accessors (gltf_mesh_weld.h).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "formats/gltf/gltf_document.h"

namespace animconv {

// Extensions that refer to no accessor or bufferView, or whose references ForEachReference
// knows. With any other extension in use, nothing is dropped or changed: an unknown reference
// would break.
bool KnownReferences(const std::string& extension);
// Whether every extension the document lists in `extensionsUsed` is one of those.
bool AllReferencesKnown(const nlohmann::json& document);

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

}  // namespace animconv
