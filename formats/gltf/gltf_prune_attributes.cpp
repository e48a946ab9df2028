#include "formats/gltf/gltf_prune_attributes.h"

#include <fmt/format.h>

#include <memory>
#include <utility>
#include <vector>

#include "formats/common/json_dump.h"
#include "formats/gltf/gltf_object_list.h"
#include "formats/gltf/gltf_references.h"

namespace animconv {
namespace {

using nlohmann::json;

// What a material reads of its primitive's vertices, beyond positions, normals and colours.
struct MaterialReads {
  std::set<int64_t> texcoords;
  bool tangents = false;
};

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Walks the material's tree. Every object with an `index` counts as a textureInfo (glTF 2.0
// §5.22; the KHR_materials_* extensions' textures are the same object), reading texCoord 0 unless
// it names another; any `texCoord` anywhere counts (KHR_texture_transform's override is one).
// Reading more than a renderer does only keeps an attribute.
void Walk(const json& value, const std::string& key, MaterialReads& reads) {
  if (value.is_object()) {
    if (value.contains("index")) {
      const auto texcoord = value.find("texCoord");
      reads.texcoords.insert(
          texcoord != value.end() && texcoord->is_number_integer() ? texcoord->get<int64_t>() : 0);
      // A normal map's tangent frame (normalTexture, clearcoatNormalTexture).
      if (EndsWith(key, "ormalTexture")) reads.tangents = true;
    }
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it.key() == "texCoord" && it->is_number_integer()) {
        reads.texcoords.insert(it->get<int64_t>());
      }
      if (it.key() == "KHR_materials_anisotropy") reads.tangents = true;
      Walk(*it, it.key(), reads);
    }
  } else if (value.is_array()) {
    for (const json& element : value) Walk(element, key, reads);
  }
}

// The TEXCOORD_n set name's n, or nullopt for another name.
std::optional<int64_t> TexcoordSet(const std::string& name) {
  static const std::string kPrefix = "TEXCOORD_";
  if (name.compare(0, kPrefix.size(), kPrefix) != 0 || name.size() == kPrefix.size()) {
    return std::nullopt;
  }
  int64_t set = 0;
  for (size_t i = kPrefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9' || set > 1000) return std::nullopt;
    set = set * 10 + (name[i] - '0');
  }
  return set;
}

bool Unread(const std::string& name, const MaterialReads& reads) {
  if (name == "TANGENT") return !reads.tangents;
  const std::optional<int64_t> set = TexcoordSet(name);
  return set && reads.texcoords.count(*set) == 0;
}

}  // namespace

std::string AttributePrune::Summary() const {
  std::string what;
  for (const auto& [name, count] : primitives_by_attribute) {
    what += fmt::format("{}{} of {} primitive(s)", what.empty() ? "" : ", ", name, count);
  }
  return fmt::format(
      "--drop-unused-attributes: {} left out (no texture of their material reads them, no normal "
      "map needs the tangents){}; {} accessor(s) no longer used",
      what,
      morph_attributes > 0 ? fmt::format(", with {} morph target attribute(s)", morph_attributes)
                           : "",
      accessors.size());
}

AttributePrune PruneUnusedAttributes(const GltfDocument& source) {
  AttributePrune prune;
  const GltfObjectList* meshes = source.lists.Objects("meshes");
  const size_t accessor_count = source.lists.accessors ? source.lists.accessors->size() : 0;
  if (!meshes || UsesVrm(source.json) || !AllReferencesKnown(source.json)) return prune;
  auto edited = std::make_shared<PackedJsonArray>();
  bool changed = false;
  for (size_t m = 0; m < meshes->size(); ++m) {
    json mesh = meshes->At(m);
    const bool mesh_changed = RewriteMeshPrimitives(mesh, [&](json& primitive) {
      json* attributes = Find(primitive, "attributes");
      if (!attributes || !attributes->is_object() || primitive.contains("extensions")) {
        return false;
      }
      MaterialReads reads;
      Walk(PrimitiveMaterial(source, primitive), "", reads);
      std::vector<std::string> dropped;
      for (auto it = attributes->begin(); it != attributes->end(); ++it) {
        if (Unread(it.key(), reads)) dropped.push_back(it.key());
      }
      if (dropped.empty() || dropped.size() == attributes->size()) return false;
      for (const std::string& name : dropped) {
        if (const std::optional<size_t> a = ValidIndex((*attributes)[name], accessor_count)) {
          prune.accessors.insert(*a);
        }
        attributes->erase(name);
        ++prune.primitives_by_attribute[name];
      }
      RewriteTargets(primitive, [&](json& target) {
        bool target_changed = false;
        for (const std::string& name : dropped) {
          const auto found = target.is_object() ? target.find(name) : target.end();
          if (found == target.end()) continue;
          if (const std::optional<size_t> a = ValidIndex(*found, accessor_count)) {
            prune.accessors.insert(*a);
          }
          target.erase(found);
          ++prune.morph_attributes;
          target_changed = true;
        }
        return target_changed;
      });
      return true;
    });
    changed = changed || mesh_changed;
    std::string text;
    AppendJsonDump(mesh, text);
    edited->AddElementText(text);
  }
  if (!changed) return prune;
  // The other lists and the bytes are the source's: the edit is in the meshes alone.
  prune.document.emplace(source);
  prune.document->lists.objects.erase("meshes");
  prune.document->lists.objects.emplace("meshes", GltfObjectList("meshes", std::move(edited)));
  return prune;
}

}  // namespace animconv
