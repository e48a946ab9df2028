#include "formats/gltf/gltf_prune_attributes.h"

#include <fmt/format.h>

#include <algorithm>
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
  int64_t highest_texcoord = -1;  // the highest TEXCOORD_n set a texture reads
  bool every_texcoord = false;    // a texCoord we cannot read as a set: keep them all
  bool tangents = false;

  void Texcoord(const json& set) {
    // A whole number written as 1.0 is a set too (JSON has one number type; three.js reads it).
    const double value = set.is_number() ? set.get<double>() : -1;
    if (value >= 0 && value <= 1e6 && value == static_cast<double>(static_cast<int64_t>(value))) {
      highest_texcoord = std::max(highest_texcoord, static_cast<int64_t>(value));
    } else {
      every_texcoord = true;
    }
  }
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
      if (!value.contains("texCoord")) reads.Texcoord(json(0));  // a named one: the loop below
      // A normal map's tangent frame (normalTexture, clearcoatNormalTexture).
      if (EndsWith(key, "ormalTexture")) reads.tangents = true;
    }
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it.key() == "texCoord") reads.Texcoord(*it);
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

// Sets are dropped only above the highest one read: TEXCOORD_n must run from 0 without a gap
// (glTF 2.0 §3.7.2.1), so a material reading set 1 alone keeps set 0 too.
bool Unread(const std::string& name, const MaterialReads& reads) {
  if (name == "TANGENT") return !reads.tangents;
  const std::optional<int64_t> set = TexcoordSet(name);
  return set && !reads.every_texcoord && *set > reads.highest_texcoord;
}

// What the material of each primitive reads, each material walked once.
class MaterialReadsCache {
 public:
  explicit MaterialReadsCache(const GltfDocument& source) : materials_(source) {}
  const MaterialReads& Of(const json& primitive) {
    const json& material = materials_.Of(primitive);
    auto found = cache_.find(&material);  // one parsed material (or none) per index
    if (found == cache_.end()) {
      MaterialReads reads;
      Walk(material, "", reads);
      found = cache_.emplace(&material, reads).first;
    }
    return found->second;
  }

 private:
  PrimitiveMaterials materials_;
  std::map<const json*, MaterialReads> cache_;
};

// The dropped attributes a morph target of `primitive` holds nothing else beside: kept, since
// an empty target is not valid glTF (EMPTY_ENTITY) and a target's attribute needs its base.
std::set<std::string> NeededByTargets(const json& primitive,
                                      const std::vector<std::string>& dropped) {
  std::set<std::string> needed;
  const std::unique_ptr<PackedArrayView> targets = GltfMeshPrimitives::Targets(primitive);
  for (size_t t = 0; targets && t < targets->size(); ++t) {
    const json target = targets->At(t);
    if (!target.is_object()) continue;
    size_t left = target.size();
    for (const std::string& name : dropped) left -= target.contains(name) ? 1 : 0;
    if (left > 0) continue;
    for (const std::string& name : dropped) {
      if (target.contains(name)) needed.insert(name);
    }
  }
  return needed;
}

}  // namespace

std::string AttributePrune::Summary() const {
  std::string what;
  for (const auto& [name, count] : primitives_by_attribute) {
    what += fmt::format("{}{} of {} primitive(s)", what.empty() ? "" : ", ", name, count);
  }
  return fmt::format(
      "--drop-unused-attributes: {} left out (no texture of their material reads them, no normal "
      "map needs the tangents){}; the {} accessor(s) they referred to left out where nothing "
      "else uses them",
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
  MaterialReadsCache materials(source);
  bool changed = false;
  for (size_t m = 0; m < meshes->size(); ++m) {
    json mesh = meshes->At(m);
    const bool mesh_changed = RewriteMeshPrimitives(mesh, [&](json& primitive) {
      json* attributes = Find(primitive, "attributes");
      if (!attributes || !attributes->is_object() || primitive.contains("extensions")) {
        return false;
      }
      const MaterialReads& reads = materials.Of(primitive);
      std::vector<std::string> dropped;
      for (auto it = attributes->begin(); it != attributes->end(); ++it) {
        if (Unread(it.key(), reads)) dropped.push_back(it.key());
      }
      const std::set<std::string> needed = NeededByTargets(primitive, dropped);
      dropped.erase(std::remove_if(dropped.begin(), dropped.end(),
                                   [&](const std::string& name) { return needed.count(name); }),
                    dropped.end());
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
    if (mesh_changed) {
      std::string text;
      AppendJsonDump(mesh, text);
      edited->AddElementText(text);
    } else {
      edited->AddElementText(meshes->Text(m));  // as read: no need to render it again
    }
  }
  if (!changed) return prune;
  // The other lists and the bytes are the source's: the edit is in the meshes alone.
  prune.document.emplace(source);
  prune.document->lists.objects.erase("meshes");
  prune.document->lists.objects.emplace("meshes", GltfObjectList("meshes", std::move(edited)));
  return prune;
}

}  // namespace animconv
