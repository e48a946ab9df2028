#include "formats/gltf/vrm_expressions.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "formats/common/json_pointer.h"
#include "formats/common/json_stream.h"
#include "formats/common/packed_json.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

using nlohmann::json;

// VRMC_vrm 1.0 expressions spec, "Preset Expressions" (three-vrm VRMExpressionPresetName).
constexpr std::array<std::string_view, 18> kVrm1Presets = {
    "happy",      "angry",  "sad",      "relaxed",  "surprised", "aa",
    "ih",         "ou",     "ee",       "oh",       "blink",     "blinkLeft",
    "blinkRight", "lookUp", "lookDown", "lookLeft", "lookRight", "neutral"};

VrmExpression::Override ReadOverride(const json& expression, const char* key,
                                     const std::string& pointer, const GltfErrors& errors) {
  const std::string& value = errors.OptionalString(expression, key, pointer);
  if (value.empty() || value == "none") return VrmExpression::Override::kNone;
  if (value == "block") return VrmExpression::Override::kBlock;
  if (value == "blend") return VrmExpression::Override::kBlend;
  errors.Fail(pointer + "/" + key,
              fmt::format("'{}' is no override; expected none, block or blend (VRMC_vrm 1.0 "
                          "expressions)",
                          value));
}

bool ReadIsBinary(const json& expression, const std::string& pointer, const GltfErrors& errors) {
  const json* value = Given(expression, "isBinary");
  if (!value) return false;
  if (!value->is_boolean()) errors.Fail(pointer + "/isBinary", "expected true or false");
  return value->get<bool>();
}

double ReadWeight(const json& bind, double fallback, const std::string& pointer,
                  const GltfErrors& errors) {
  const json* value = Given(bind, "weight");
  if (!value) return fallback;
  return errors.RequireNumber(*value, pointer + "/weight");
}

// The morph target index of a bind, within the bound node's mesh.
int ReadMorphIndex(const json& bind, const Node& node, size_t node_index,
                   const std::string& pointer, const GltfErrors& errors) {
  if (!Given(bind, "index")) errors.Fail(pointer, "a bind needs 'index' (a morph target)");
  const json& index = bind["index"];
  const int64_t count = node.morph_target_count;
  if (!index.is_number_integer() || index.get<int64_t>() < 0 || index.get<int64_t>() >= count) {
    errors.Fail(pointer + "/index",
                fmt::format("morph target {} does not exist: node {} ('{}') has {} morph "
                            "target(s)",
                            index.dump(), node_index, node.name, count));
  }
  return static_cast<int>(index.get<int64_t>());
}

size_t MaterialBindCount(const json& expression, const char* const* keys, size_t key_count) {
  size_t count = 0;
  for (size_t k = 0; k < key_count; ++k) {
    // A packed list (a VRM 0.x group's materialValues) is counted without a tree.
    const json* binds = Given(expression, keys[k]);
    if (!binds) continue;
    if (binds->is_array()) {
      count += binds->size();
    } else if (const std::unique_ptr<PackedArrayView> packed = PackedArrayElements(*binds)) {
      count += packed->size();
    }
  }
  return count;
}

// The morph target binds the expressions made so far, held to kVrmMaxMorphTargetBinds: a VRM 0.x
// bind names a mesh and binds every node that shows it, so a few KB of nodes sharing one mesh
// and of binds naming it would make binds by the million.
class BindCount {
 public:
  void Add(size_t binds, const std::string& pointer, const GltfErrors& errors) {
    made_ += binds;
    if (made_ > kVrmMaxMorphTargetBinds) {
      errors.Fail(pointer, fmt::format("more than {} morph target binds in all; a VRM model's "
                                       "expressions bind a few thousand",
                                       kVrmMaxMorphTargetBinds));
    }
  }

 private:
  size_t made_ = 0;
};

// Whether the member at `path` of a VRM 1.0 expression is kept packed: its bind lists, read one
// bind at a time or counted.
bool PackedInExpression(const JsonPath& path) {
  return path.depth() == 1 &&
         IsOneOf(path.steps()[0].key,
                 {"morphTargetBinds", "materialColorBinds", "textureTransformBinds"});
}

void ReadVrm1Expression(const json& definition, VrmExpression& expression,
                        const std::string& pointer, const Asset& asset, BindCount& bind_count,
                        const GltfErrors& errors) {
  if (!definition.is_object()) errors.Fail(pointer, "expected an object");
  expression.is_binary = ReadIsBinary(definition, pointer, errors);
  expression.override_blink = ReadOverride(definition, "overrideBlink", pointer, errors);
  expression.override_look_at = ReadOverride(definition, "overrideLookAt", pointer, errors);
  expression.override_mouth = ReadOverride(definition, "overrideMouth", pointer, errors);
  if (const json* list = Given(definition, "morphTargetBinds")) {
    const std::unique_ptr<PackedArrayView> binds = PackedArrayElements(*list);
    if (!binds) errors.Fail(pointer + "/morphTargetBinds", "expected an array");
    for (size_t b = 0; b < binds->size(); ++b) {
      const std::string bind_pointer = fmt::format("{}/morphTargetBinds/{}", pointer, b);
      const json bind = binds->At(b);
      if (!bind.is_object()) errors.Fail(bind_pointer, "expected an object {node, index, weight}");
      const size_t node = errors.Index(bind, "node", bind_pointer, asset.rig.nodes.size(), "nodes");
      const Node& target = asset.rig.nodes[node];
      if (!target.mesh) {
        errors.Fail(
            bind_pointer + "/node",
            fmt::format("node {} ('{}') has no mesh to bind a morph target of", node, target.name));
      }
      const int index = ReadMorphIndex(bind, target, node, bind_pointer, errors);
      bind_count.Add(1, bind_pointer, errors);
      expression.morph_target_binds.push_back(
          {static_cast<int>(node), index, ReadWeight(bind, 1, bind_pointer, errors)});
    }
  }
  static const char* const kMaterialKeys[] = {"materialColorBinds", "textureTransformBinds"};
  expression.material_binds = MaterialBindCount(definition, kMaterialKeys, 2);
}

void ReadVrm1(const json& extension, const std::string& pointer, Asset& asset, FirstNames& ignored,
              const GltfErrors& errors) {
  const json* expressions = Given(extension, "expressions");
  if (!expressions) return;
  if (!expressions->is_object()) errors.Fail(pointer + "/expressions", "expected an object");
  BindCount bind_count;
  for (const bool preset : {true, false}) {
    const char* group = preset ? "preset" : "custom";
    const json* entries = Given(*expressions, group);
    if (!entries) continue;
    const std::string group_pointer = fmt::format("{}/expressions/{}", pointer, group);
    // Counted first, so the list is allocated once (grown by doubling, 20,000 expressions held
    // 1.5 times their size at the peak).
    size_t count = 0;
    ForEachMember(
        *entries, [&count](const std::string&, json&&) { ++count; },
        [](const JsonPath&) { return true; });
    if (asset.vrm_expressions.size() + count > kVrmMaxExpressions) {
      errors.Fail(
          group_pointer,
          fmt::format("more than {} expressions; a VRM model has a few dozen", kVrmMaxExpressions));
    }
    asset.vrm_expressions.reserve(asset.vrm_expressions.size() + count);
    // One expression's tree at a time (the map is packed, gltf_buffers.cpp), its bind lists
    // packed in it.
    const bool is_object = ForEachMember(
        *entries,
        [&](const std::string& name, json&& definition) {
          // three-vrm: an unknown preset name, or a custom expression under a preset's name, is
          // ignored with a warning (VRMExpressionLoaderPlugin._v1Import).
          if (preset != IsVrm1PresetExpression(name)) {
            ignored.Add(fmt::format("{} ({} expression with {} name)", name, group,
                                    preset ? "an unknown preset" : "a preset"));
            return;
          }
          VrmExpression expression;
          expression.name = name;
          expression.preset = preset;
          ReadVrm1Expression(definition, expression, group_pointer + "/" + JsonPointerEscape(name),
                             asset, bind_count, errors);
          asset.vrm_expressions.push_back(std::move(expression));
        },
        PackedInExpression);
    if (!is_object) errors.Fail(group_pointer, "expected an object");
  }
}

// The document's meshes, and the nodes that show each (in node order) by mesh index: made once,
// where a loop over every node per bind was O(binds x nodes).
struct MeshesOnNodes {
  size_t mesh_count = 0;
  std::map<size_t, std::vector<size_t>> nodes;

  MeshesOnNodes(const Rig& rig, size_t count) : mesh_count(count) {
    for (size_t n = 0; n < rig.nodes.size(); ++n) {
      if (const std::optional<MeshInfo>& mesh = rig.nodes[n].mesh) {
        nodes[static_cast<size_t>(mesh->index)].push_back(n);
      }
    }
  }
};

// Whether the member at `path` of a VRM 0.x blend shape group is kept packed: its binds and
// material values, read one at a time or counted.
bool PackedInGroup(const JsonPath& path) {
  return path.depth() == 1 && IsOneOf(path.steps()[0].key, {"binds", "materialValues"});
}

// VRM 0.x binds name a mesh; three-vrm binds every node that shows it.
void ReadVrm0Binds(const json& group, const std::string& pointer, const MeshesOnNodes& meshes,
                   VrmExpression& expression, Asset& asset, FirstNames& ignored,
                   BindCount& bind_count, const GltfErrors& errors) {
  const auto found = group.find("binds");
  if (found == group.end()) return;
  const std::unique_ptr<PackedArrayView> binds = PackedArrayElements(*found);
  if (!binds) errors.Fail(pointer + "/binds", "expected an array");
  for (size_t b = 0; b < binds->size(); ++b) {
    const std::string bind_pointer = fmt::format("{}/binds/{}", pointer, b);
    const json bind = binds->At(b);
    if (!bind.is_object()) errors.Fail(bind_pointer, "expected an object {mesh, index, weight}");
    const size_t mesh = errors.Index(bind, "mesh", bind_pointer, meshes.mesh_count, "meshes");
    // VRM 0.x weights run 0-100; three-vrm multiplies by 0.01 (default 100).
    const double weight = 0.01 * ReadWeight(bind, 100, bind_pointer, errors);
    const auto shown = meshes.nodes.find(mesh);
    if (shown != meshes.nodes.end()) bind_count.Add(shown->second.size(), bind_pointer, errors);
    if (shown == meshes.nodes.end()) {
      ignored.Add(fmt::format("{} (mesh {} is on no node)", bind_pointer, mesh));
      continue;
    }
    for (const size_t n : shown->second) {
      const int index = ReadMorphIndex(bind, asset.rig.nodes[n], n, bind_pointer, errors);
      expression.morph_target_binds.push_back({static_cast<int>(n), index, weight});
    }
  }
}

void ReadVrm0(const json& extension, const std::string& pointer, size_t mesh_count, Asset& asset,
              FirstNames& ignored, const GltfErrors& errors) {
  const json* master = Given(extension, "blendShapeMaster");
  if (!master) return;
  const std::string master_pointer = pointer + "/blendShapeMaster";
  if (!master->is_object()) errors.Fail(master_pointer, "expected an object");
  const auto found = master->find("blendShapeGroups");
  if (found == master->end()) return;
  // One group's tree at a time (the list is packed, gltf_buffers.cpp).
  const std::unique_ptr<PackedArrayView> groups = PackedArrayElements(*found);
  if (!groups) errors.Fail(master_pointer + "/blendShapeGroups", "expected an array");
  if (groups->size() > kVrmMaxExpressions) {
    errors.Fail(master_pointer + "/blendShapeGroups",
                fmt::format("{} blend shape groups, more than the limit of {}; a VRM model has a "
                            "few dozen",
                            groups->size(), kVrmMaxExpressions));
  }
  BindCount bind_count;
  const MeshesOnNodes meshes(asset.rig, mesh_count);
  std::set<std::string> seen;
  for (size_t g = 0; g < groups->size(); ++g) {
    const std::string group_pointer = fmt::format("{}/blendShapeGroups/{}", master_pointer, g);
    const json group = groups->At(g, PackedInGroup);
    if (!group.is_object()) errors.Fail(group_pointer, "expected an object");
    // three-vrm's name: the 1.0 name of a known presetName, else the group's own name.
    const std::string preset =
        VrmPresetNameFromVrm0(errors.OptionalString(group, "presetName", group_pointer));
    const std::string name =
        preset.empty() ? errors.OptionalString(group, "name", group_pointer) : preset;
    if (name.empty()) {
      ignored.Add(fmt::format("{} (no name)", group_pointer));
      continue;
    }
    if (!seen.insert(name).second) {
      ignored.Add(fmt::format("{} ({} again)", group_pointer, name));
      continue;
    }
    VrmExpression expression;
    expression.name = name;
    expression.preset = !preset.empty();
    expression.is_binary = ReadIsBinary(group, group_pointer, errors);
    ReadVrm0Binds(group, group_pointer, meshes, expression, asset, ignored, bind_count, errors);
    static const char* const kMaterialKeys[] = {"materialValues"};
    expression.material_binds = MaterialBindCount(group, kMaterialKeys, 1);
    asset.vrm_expressions.push_back(std::move(expression));
  }
}

std::string Describe(const VrmExpression& expression) {
  std::vector<std::string> facts;
  if (!expression.morph_target_binds.empty()) {
    facts.push_back(fmt::format("{} morph", expression.morph_target_binds.size()));
  }
  if (expression.material_binds > 0) {
    facts.push_back(fmt::format("{} material, not carried", expression.material_binds));
  }
  if (expression.is_binary) facts.push_back("binary");
  const std::pair<const char*, VrmExpression::Override> overrides[] = {
      {"blink", expression.override_blink},
      {"lookAt", expression.override_look_at},
      {"mouth", expression.override_mouth}};
  for (const auto& [what, how] : overrides) {
    if (how == VrmExpression::Override::kNone) continue;
    facts.push_back(
        fmt::format("{} {}", how == VrmExpression::Override::kBlock ? "blocks" : "blends", what));
  }
  if (facts.empty()) return expression.name;
  return fmt::format("{} ({})", expression.name, fmt::join(facts, ", "));
}

}  // namespace

std::string VrmPresetNameFromVrm0(const std::string& preset_name) {
  static const std::pair<std::string_view, std::string_view> kMap[] = {{"a", "aa"},
                                                                       {"e", "ee"},
                                                                       {"i", "ih"},
                                                                       {"o", "oh"},
                                                                       {"u", "ou"},
                                                                       {"blink", "blink"},
                                                                       {"joy", "happy"},
                                                                       {"angry", "angry"},
                                                                       {"sorrow", "sad"},
                                                                       {"fun", "relaxed"},
                                                                       {"lookup", "lookUp"},
                                                                       {"lookdown", "lookDown"},
                                                                       {"lookleft", "lookLeft"},
                                                                       {"lookright", "lookRight"},
                                                                       {"blink_l", "blinkLeft"},
                                                                       {"blink_r", "blinkRight"},
                                                                       {"neutral", "neutral"}};
  for (const auto& [v0, v1] : kMap) {
    if (preset_name == v0) return std::string(v1);
  }
  return "";
}

bool IsVrm1PresetExpression(const std::string& name) {
  return std::find(kVrm1Presets.begin(), kVrm1Presets.end(), name) != kVrm1Presets.end();
}

void ReadVrmExpressions(const json& document, size_t mesh_count, VrmKind kind, Asset& asset,
                        const GltfErrors& errors) {
  if (kind != VrmKind::kVrm0 && kind != VrmKind::kVrm1) return;
  const char* extension_name = kind == VrmKind::kVrm1 ? "VRMC_vrm" : "VRM";
  const std::string pointer = std::string("/extensions/") + extension_name;
  const json& extension = document["extensions"][extension_name];
  // A model has a few dozen expressions; the notes name the first 64 of a file with thousands.
  constexpr size_t kNamed = 64;
  FirstNames ignored(kNamed);
  if (kind == VrmKind::kVrm1) {
    ReadVrm1(extension, pointer, asset, ignored, errors);
  } else {
    ReadVrm0(extension, pointer, mesh_count, asset, ignored, errors);
  }
  if (!asset.vrm_expressions.empty()) {
    FirstNames described(kNamed);
    for (const VrmExpression& expression : asset.vrm_expressions) {
      described.Add(described.size() < kNamed ? Describe(expression) : std::string());
    }
    asset.notes.push_back(fmt::format(
        "expressions ({}, {}): {}", asset.vrm_expressions.size(),
        kind == VrmKind::kVrm1 ? pointer + "/expressions" : pointer + "/blendShapeMaster",
        described.Join()));
  }
  if (!ignored.empty()) {
    asset.notes.push_back(
        fmt::format("expressions: ignored as three-vrm ignores them: {}", ignored.Join("; ")));
  }
}

}  // namespace animconv
