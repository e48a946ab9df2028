#include "formats/gltf/vrm_expressions.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "formats/common/json_pointer.h"
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
    const json* binds = Given(expression, keys[k]);
    if (binds && binds->is_array()) count += binds->size();
  }
  return count;
}

void ReadVrm1Expression(const json& definition, VrmExpression& expression,
                        const std::string& pointer, const Asset& asset, const GltfErrors& errors) {
  if (!definition.is_object()) errors.Fail(pointer, "expected an object");
  expression.is_binary = ReadIsBinary(definition, pointer, errors);
  expression.override_blink = ReadOverride(definition, "overrideBlink", pointer, errors);
  expression.override_look_at = ReadOverride(definition, "overrideLookAt", pointer, errors);
  expression.override_mouth = ReadOverride(definition, "overrideMouth", pointer, errors);
  if (const json* binds = errors.OptionalArray(definition, "morphTargetBinds", pointer)) {
    for (size_t b = 0; b < binds->size(); ++b) {
      const std::string bind_pointer = fmt::format("{}/morphTargetBinds/{}", pointer, b);
      const json& bind = (*binds)[b];
      if (!bind.is_object()) errors.Fail(bind_pointer, "expected an object {node, index, weight}");
      const size_t node = errors.Index(bind, "node", bind_pointer, asset.rig.nodes.size(), "nodes");
      const Node& target = asset.rig.nodes[node];
      if (!target.mesh) {
        errors.Fail(
            bind_pointer + "/node",
            fmt::format("node {} ('{}') has no mesh to bind a morph target of", node, target.name));
      }
      const int index = ReadMorphIndex(bind, target, node, bind_pointer, errors);
      expression.morph_target_binds.push_back(
          {static_cast<int>(node), index, ReadWeight(bind, 1, bind_pointer, errors)});
    }
  }
  static const char* const kMaterialKeys[] = {"materialColorBinds", "textureTransformBinds"};
  expression.material_binds = MaterialBindCount(definition, kMaterialKeys, 2);
}

void ReadVrm1(const json& extension, const std::string& pointer, Asset& asset,
              std::vector<std::string>& ignored, const GltfErrors& errors) {
  const json* expressions = Given(extension, "expressions");
  if (!expressions) return;
  if (!expressions->is_object()) errors.Fail(pointer + "/expressions", "expected an object");
  for (const bool preset : {true, false}) {
    const char* group = preset ? "preset" : "custom";
    const json* entries = Given(*expressions, group);
    if (!entries) continue;
    const std::string group_pointer = fmt::format("{}/expressions/{}", pointer, group);
    if (!entries->is_object()) errors.Fail(group_pointer, "expected an object");
    for (const auto& [name, definition] : entries->items()) {
      // three-vrm: an unknown preset name, or a custom expression under a preset's name, is
      // ignored with a warning (VRMExpressionLoaderPlugin._v1Import).
      if (preset != IsVrm1PresetExpression(name)) {
        ignored.push_back(fmt::format("{} ({} expression with {} name)", name, group,
                                      preset ? "an unknown preset" : "a preset"));
        continue;
      }
      VrmExpression expression;
      expression.name = name;
      expression.preset = preset;
      ReadVrm1Expression(definition, expression, group_pointer + "/" + JsonPointerEscape(name),
                         asset, errors);
      asset.vrm_expressions.push_back(std::move(expression));
    }
  }
}

// VRM 0.x binds name a mesh; three-vrm binds every node that shows it.
void ReadVrm0Binds(const json& group, const std::string& pointer, const json* meshes,
                   VrmExpression& expression, Asset& asset, std::vector<std::string>& ignored,
                   const GltfErrors& errors) {
  const json* binds = errors.OptionalArray(group, "binds", pointer);
  if (!binds) return;
  for (size_t b = 0; b < binds->size(); ++b) {
    const std::string bind_pointer = fmt::format("{}/binds/{}", pointer, b);
    const json& bind = (*binds)[b];
    if (!bind.is_object()) errors.Fail(bind_pointer, "expected an object {mesh, index, weight}");
    const size_t mesh =
        errors.Index(bind, "mesh", bind_pointer, meshes ? meshes->size() : 0, "meshes");
    // VRM 0.x weights run 0-100; three-vrm multiplies by 0.01 (default 100).
    const double weight = 0.01 * ReadWeight(bind, 100, bind_pointer, errors);
    bool shown = false;
    for (size_t n = 0; n < asset.rig.nodes.size(); ++n) {
      const Node& node = asset.rig.nodes[n];
      if (!node.mesh || node.mesh->index != static_cast<int>(mesh)) continue;
      shown = true;
      const int index = ReadMorphIndex(bind, node, n, bind_pointer, errors);
      expression.morph_target_binds.push_back({static_cast<int>(n), index, weight});
    }
    if (!shown) ignored.push_back(fmt::format("{} (mesh {} is on no node)", bind_pointer, mesh));
  }
}

void ReadVrm0(const json& extension, const std::string& pointer, const json* meshes, Asset& asset,
              std::vector<std::string>& ignored, const GltfErrors& errors) {
  const json* master = Given(extension, "blendShapeMaster");
  if (!master) return;
  const std::string master_pointer = pointer + "/blendShapeMaster";
  if (!master->is_object()) errors.Fail(master_pointer, "expected an object");
  const json* groups = errors.OptionalArray(*master, "blendShapeGroups", master_pointer);
  if (!groups) return;
  std::set<std::string> seen;
  for (size_t g = 0; g < groups->size(); ++g) {
    const std::string group_pointer = fmt::format("{}/blendShapeGroups/{}", master_pointer, g);
    const json& group = (*groups)[g];
    if (!group.is_object()) errors.Fail(group_pointer, "expected an object");
    // three-vrm's name: the 1.0 name of a known presetName, else the group's own name.
    const std::string preset =
        VrmPresetNameFromVrm0(errors.OptionalString(group, "presetName", group_pointer));
    const std::string name =
        preset.empty() ? errors.OptionalString(group, "name", group_pointer) : preset;
    if (name.empty()) {
      ignored.push_back(fmt::format("{} (no name)", group_pointer));
      continue;
    }
    if (!seen.insert(name).second) {
      ignored.push_back(fmt::format("{} ({} again)", group_pointer, name));
      continue;
    }
    VrmExpression expression;
    expression.name = name;
    expression.preset = !preset.empty();
    expression.is_binary = ReadIsBinary(group, group_pointer, errors);
    ReadVrm0Binds(group, group_pointer, meshes, expression, asset, ignored, errors);
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

void ReadVrmExpressions(const json& document, VrmKind kind, Asset& asset,
                        const GltfErrors& errors) {
  if (kind != VrmKind::kVrm0 && kind != VrmKind::kVrm1) return;
  const char* extension_name = kind == VrmKind::kVrm1 ? "VRMC_vrm" : "VRM";
  const std::string pointer = std::string("/extensions/") + extension_name;
  const json& extension = document["extensions"][extension_name];
  std::vector<std::string> ignored;
  if (kind == VrmKind::kVrm1) {
    ReadVrm1(extension, pointer, asset, ignored, errors);
  } else {
    ReadVrm0(extension, pointer, Given(document, "meshes"), asset, ignored, errors);
  }
  // A model has a few dozen expressions; the notes name the first 64 of a file with thousands.
  constexpr size_t kNamed = 64;
  if (!asset.vrm_expressions.empty()) {
    std::vector<std::string> described;
    for (size_t i = 0; i < asset.vrm_expressions.size() && i <= kNamed; ++i) {
      described.push_back(Describe(asset.vrm_expressions[i]));
    }
    described.resize(asset.vrm_expressions.size());  // counted, not described, past kNamed
    asset.notes.push_back(fmt::format(
        "expressions ({}, {}): {}", asset.vrm_expressions.size(),
        kind == VrmKind::kVrm1 ? pointer + "/expressions" : pointer + "/blendShapeMaster",
        ListFirst(described, kNamed)));
  }
  if (!ignored.empty()) {
    asset.notes.push_back(fmt::format("expressions: ignored as three-vrm ignores them: {}",
                                      ListFirst(ignored, kNamed, "; ")));
  }
}

}  // namespace animconv
