#include "formats/gltf/gltf_references.h"

#include <set>

#include "formats/gltf/gltf_object_list.h"

namespace animconv {

using nlohmann::json;

bool KnownReferences(const std::string& extension) {
  static const std::set<std::string> kKnown = {"EXT_meshopt_compression",
                                               "KHR_mesh_quantization",
                                               "KHR_draco_mesh_compression",
                                               "EXT_mesh_gpu_instancing",
                                               "KHR_lights_punctual",
                                               "KHR_texture_transform",
                                               "KHR_texture_basisu",
                                               "EXT_texture_webp",
                                               "EXT_texture_avif",
                                               "KHR_animation_pointer",
                                               "VRM",
                                               "VRMC_vrm",
                                               "VRMC_springBone",
                                               "VRMC_node_constraint",
                                               "VRMC_materials_mtoon",
                                               "VRMC_vrm_animation",
                                               "VRMC_materials_hdr_emissiveMultiplier"};
  return kKnown.count(extension) > 0 || extension.compare(0, 14, "KHR_materials_") == 0;
}

bool ForEachReference(const std::string& key, json& element, const ReferenceVisit& visit,
                      const ReferenceVisit& visit_view) {
  // Each index in a member that maps names to indices (attributes, a target).
  const auto each = [](json& indices, const ReferenceVisit& visit_one) {
    bool changed = false;
    for (json& index : indices) changed = visit_one(index) || changed;
    return changed;
  };
  if (key == "meshes") {
    return RewriteMeshPrimitives(element, [&](json& primitive) {
      bool changed = false;
      if (json* attributes = Find(primitive, "attributes")) changed = each(*attributes, visit);
      if (json* indices = Find(primitive, "indices")) changed = visit(*indices) || changed;
      changed =
          RewriteTargets(primitive,
                         [&](json& target) { return target.is_object() && each(target, visit); }) ||
          changed;
      if (json* extensions = Find(primitive, "extensions")) {
        if (json* draco = Find(*extensions, "KHR_draco_mesh_compression")) {
          if (json* view = Find(*draco, "bufferView")) changed = visit_view(*view) || changed;
        }
      }
      return changed;
    });
  }
  if (key == "skins") {
    json* matrices = Find(element, "inverseBindMatrices");
    return matrices && visit(*matrices);
  }
  if (key == "nodes") {
    json* extensions = Find(element, "extensions");
    json* instancing = extensions ? Find(*extensions, "EXT_mesh_gpu_instancing") : nullptr;
    json* attributes = instancing ? Find(*instancing, "attributes") : nullptr;
    return attributes && each(*attributes, visit);
  }
  if (key == "images") {
    json* view = Find(element, "bufferView");
    return view && visit_view(*view);
  }
  return false;
}

void ForEachSourceReference(const GltfLists& lists, const ReferenceVisit& visit,
                            const ReferenceVisit& visit_view) {
  for (const char* key : kReferringMembers) {
    const GltfObjectList* list = lists.Objects(key);
    for (size_t i = 0; list && i < list->size(); ++i) {
      json element = list->At(i);
      ForEachReference(key, element, visit, visit_view);
    }
  }
}

std::optional<size_t> ValidIndex(const json& reference, size_t size) {
  if (!reference.is_number_integer()) return std::nullopt;
  const int64_t value = reference.get<int64_t>();
  if (value < 0 || static_cast<uint64_t>(value) >= size) return std::nullopt;
  return static_cast<size_t>(value);
}

bool AllReferencesKnown(const json& document) {
  const json* used = Find(document, "extensionsUsed");
  if (!used) return true;
  for (const json& name : *used) {
    if (!name.is_string() || !KnownReferences(name.get<std::string>())) return false;
  }
  return true;
}

}  // namespace animconv
