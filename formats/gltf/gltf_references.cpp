#include "formats/gltf/gltf_references.h"

#include <algorithm>
#include <map>
#include <set>

#include "formats/common/canonical_json.h"
#include "formats/gltf/gltf_object_list.h"

namespace animconv {

using nlohmann::json;

json Unpacked(const json& object, const char* key) {
  const json* value = Find(object, key);
  if (!value) return json();
  return IsPackedJsonValue(*value) ? json::parse(PackedJsonText(*value)) : *value;
}

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

PrimitiveMaterials::PrimitiveMaterials(const GltfDocument& source) {
  const auto materials = source.lists.unread.find("materials");
  if (materials == source.lists.unread.end()) return;
  list_ = materials->second.get();
  parsed_.resize(list_->size());
}

const json& PrimitiveMaterials::Of(const json& primitive) {
  const json* material = Find(primitive, "material");
  const std::optional<size_t> m = material ? ValidIndex(*material, parsed_.size()) : std::nullopt;
  return m ? AtIndex(*m) : none_;
}

std::vector<const json*> PrimitiveMaterials::AllOf(const json& primitive) {
  std::set<size_t> indices;
  const auto add = [&](const json* material) {
    if (const std::optional<size_t> m =
            material ? ValidIndex(*material, parsed_.size()) : std::nullopt) {
      indices.insert(*m);
    }
  };
  add(Find(primitive, "material"));
  const json* extensions = Find(primitive, "extensions");
  const json* packed = extensions ? Find(*extensions, "KHR_materials_variants") : nullptr;
  // (A primitive's extensions but Draco's stay packed text, gltf_object_list.h.)
  const json variants = !packed                      ? json()
                        : IsPackedJsonValue(*packed) ? json::parse(PackedJsonText(*packed))
                                                     : *packed;
  const json* mappings = Find(variants, "mappings");
  if (mappings && mappings->is_array()) {
    for (const json& mapping : *mappings) add(Find(mapping, "material"));
  }
  std::vector<const json*> out;
  for (const size_t m : indices) out.push_back(&AtIndex(m));
  return out;
}

const json& PrimitiveMaterials::AtIndex(size_t m) {
  if (!parsed_[m]) {
    // Its `extras` stay text: no reader of a material's textures or modes looks into them.
    const JsonPackFilter pack = [](const JsonPath& path) {
      return path.steps().back().key == "extras";
    };
    parsed_[m] = list_->At(m, pack);
  }
  return *parsed_[m];
}

bool UsesVrm(const json& document) {
  const json* used = Find(document, "extensionsUsed");
  if (!used || !used->is_array()) return false;
  return std::any_of(used->begin(), used->end(), [](const json& name) {
    return name.is_string() &&
           (name == "VRM" || name.get<std::string>().compare(0, 5, "VRMC_") == 0);
  });
}

ReferenceCounts CountReferences(const GltfDocument& source) {
  ReferenceCounts counts;
  counts.accessors.assign(source.lists.accessors ? source.lists.accessors->size() : 0, 0);
  counts.views.assign(source.lists.buffer_views ? source.lists.buffer_views->size() : 0, 0);
  const auto count = [](std::vector<size_t>& into) {
    return [&into](const json& reference) {
      if (const std::optional<size_t> index = ValidIndex(reference, into.size())) ++into[*index];
      return false;
    };
  };
  ForEachSourceReference(source.lists, count(counts.accessors), count(counts.views));
  for (size_t a = 0; a < counts.accessors.size(); ++a) {
    const json accessor = source.lists.accessors->At(a);
    ForEachAccessorView(accessor, count(counts.views));
  }
  const PackedJsonArray* animations = source.lists.animations.get();
  for (size_t a = 0; animations && a < animations->size(); ++a) {
    const json animation = animations->At(a);
    const json* samplers = Find(animation, "samplers");
    if (!samplers || !samplers->is_array()) continue;
    for (const json& sampler : *samplers) {
      for (const char* key : {"input", "output"}) {
        if (const json* reference = Find(sampler, key)) count(counts.accessors)(*reference);
      }
    }
  }
  return counts;
}

size_t VectorComponents(const json& type) {
  static const std::map<std::string, size_t> kCounts = {
      {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}};
  if (!type.is_string()) return 0;
  const auto found = kCounts.find(type.get<std::string>());
  return found == kCounts.end() ? 0 : found->second;
}

bool FitsIn(size_t size, size_t offset, size_t stride, size_t count, size_t bytes) {
  if (count == 0 || offset > size || bytes > size - offset) return false;
  return count - 1 <= (size - offset - bytes) / stride;
}

std::optional<size_t> Natural(const json* value, size_t absent) {
  if (!value) return absent;
  if (!value->is_number_integer() || value->get<int64_t>() < 0) return std::nullopt;
  return static_cast<size_t>(value->get<int64_t>());
}

}  // namespace animconv
