#include "formats/gltf/vrm_humanoid.h"

#include <fmt/format.h>

#include <array>
#include <memory>
#include <unordered_map>
#include <vector>

#include "animconv/bone_names.h"
#include "formats/common/json_pointer.h"
#include "formats/common/json_stream.h"
#include "formats/common/packed_json.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

using nlohmann::json;

bool ExtensionUsed(const json& document, const char* name) {
  const auto used = document.find("extensionsUsed");
  if (used == document.end() || !used->is_array()) return false;
  for (const json& entry : *used) {
    if (entry.is_string() && entry.get<std::string>() == name) return true;
  }
  return false;
}

class HumanBoneAssigner {
 public:
  HumanBoneAssigner(Asset& asset, const GltfErrors& errors) : asset_(asset), errors_(errors) {}

  void Assign(std::optional<HumanBone> bone, const std::string& name, const json& entry,
              const std::string& pointer) {
    if (!entry.is_object()) errors_.Fail(pointer, "expected an object with a node index");
    const size_t node = errors_.Index(entry, "node", pointer, asset_.rig.nodes.size(), "nodes");
    if (!bone) {
      ignored_.Add(name);
      return;
    }
    Node& target = asset_.rig.nodes[node];
    if (target.human_bone) {
      // One node cannot be two bones: VRM 1.0 humanoid spec ("a node can be assigned to only one
      // humanBone"), and VRM 0.x the same. Which one was meant cannot be guessed.
      errors_.Fail(pointer + "/node",
                   fmt::format("node {} is already humanoid bone '{}' ({}); a node can be "
                               "assigned to only one humanBone (VRM humanoid specification)",
                               node, mapped_name_[node], mapped_pointer_[node]));
    }
    if (assigned_[static_cast<size_t>(*bone)]) {
      // The same bone twice (only possible in VRM 0.x's list): three-vrm keeps the first mapping
      // it processes and warns about the rest (§2.2).
      ignored_.Add(fmt::format("{} (duplicate at {})", name, pointer));
      return;
    }
    mapped_name_[node] = name;
    mapped_pointer_[node] = pointer;
    target.human_bone = bone;
    assigned_[static_cast<size_t>(*bone)] = true;
    ++count_;
  }

  void Finish(const std::string& what) {
    asset_.notes.push_back(fmt::format("humanoid: {} maps {} bone(s)", what, count_));
    if (!ignored_.empty()) {
      // A model maps up to 55 bones; a file with thousands of entries gets the first 64 named.
      asset_.notes.push_back(fmt::format("humanoid: ignored entries: {}", ignored_.Join()));
    }
  }

 private:
  Asset& asset_;
  const GltfErrors& errors_;
  std::array<bool, kHumanBoneCount> assigned_{};
  FirstNames ignored_{64};
  std::unordered_map<size_t, std::string> mapped_name_, mapped_pointer_;
  size_t count_ = 0;
};

void ReadVrm0(const json& humanoid, const std::string& pointer, HumanBoneAssigner& assigner,
              const GltfErrors& errors) {
  const auto found = humanoid.find("humanBones");
  if (found == humanoid.end()) return;
  // One entry's tree at a time (the list is packed, gltf_buffers.cpp).
  const std::unique_ptr<PackedArrayView> bones = PackedArrayElements(*found);
  if (!bones) errors.Fail(pointer + "/humanBones", "expected an array");
  for (size_t i = 0; i < bones->size(); ++i) {
    const std::string entry_pointer = fmt::format("{}/humanBones/{}", pointer, i);
    const json entry = bones->At(i);
    if (!entry.is_object()) errors.Fail(entry_pointer, "expected an object {bone, node}");
    const std::string name = errors.OptionalString(entry, "bone", entry_pointer);
    assigner.Assign(FindHumanBone(name, BoneNaming::kVrm0), name, entry, entry_pointer);
  }
}

// VRM 1.0 and VRMA. Files written against the 1.0 beta still use `*ThumbIntermediate`. In a VRM
// model every thumb name then has the 0.x meaning, as three-vrm's VRMHumanoidLoaderPlugin maps
// them (thumbBoneNameMap; VRM 1.0 humanoid spec: the thumbs renamed from VRM 0.x). In a VRMA
// three-vrm-animation maps no name: `*ThumbProximal` plays on the 1.0 bone of that name and
// `*ThumbIntermediate` on none, so a VRMA's thumbs are read so too.
void ReadVrm1(const json& humanoid, const std::string& pointer, bool vrma,
              HumanBoneAssigner& assigner, const GltfErrors& errors, Asset& asset) {
  const auto bones = humanoid.find("humanBones");
  if (bones == humanoid.end()) errors.Fail(pointer, "missing required 'humanBones'");
  // One entry's tree at a time (the map is packed, gltf_buffers.cpp): the names first.
  bool beta_thumbs = false;
  const bool is_object = ForEachMember(
      *bones,
      [&beta_thumbs](const std::string& name, json&&) {
        beta_thumbs =
            beta_thumbs || name == "leftThumbIntermediate" || name == "rightThumbIntermediate";
      },
      [](const JsonPath&) { return true; });  // the entries are not read in this pass
  if (!is_object) errors.Fail(pointer + "/humanBones", "expected an object");
  if (beta_thumbs) {
    asset.notes.push_back(
        vrma ? "humanoid: thumb names follow the VRM 1.0 beta (*ThumbIntermediate); read with the "
               "1.0 meanings and *ThumbIntermediate ignored, as three-vrm-animation reads a VRMA"
             : "humanoid: thumb names follow the VRM 1.0 beta (*ThumbIntermediate); read with the "
               "0.x meaning, as three-vrm reads a VRM model");
  }
  const bool remap = beta_thumbs && !vrma;
  ForEachMember(*bones, [&](const std::string& name, json&& entry) {
    const bool thumb = name.find("Thumb") != std::string::npos;
    const BoneNaming naming = remap && thumb ? BoneNaming::kVrm0 : BoneNaming::kVrm1;
    assigner.Assign(FindHumanBone(name, naming), name, entry,
                    pointer + "/humanBones/" + JsonPointerEscape(name));
  });
}

// One expression or lookAt entry ({"node": i}) of VRMC_vrm_animation: a node holds one role, and
// none that is a humanoid bone (three-vrm-animation would animate it twice).
void AssignVrmaRole(const json& entry, const std::string& pointer, VrmaRole role, Asset& asset,
                    const GltfErrors& errors) {
  if (!entry.is_object()) errors.Fail(pointer, "expected an object with a node index");
  const size_t n = errors.Index(entry, "node", pointer, asset.rig.nodes.size(), "nodes");
  Node& node = asset.rig.nodes[n];
  if (node.vrma_role || node.human_bone) {
    errors.Fail(pointer + "/node",
                fmt::format("node {} is already {} '{}'; a node stands for one thing", n,
                            node.human_bone ? "humanoid bone" : "the VRMA role",
                            node.human_bone ? GetHumanBoneInfo(*node.human_bone).vrm1
                                            : std::string_view(node.vrma_role->name)));
  }
  node.vrma_role = std::move(role);
}

// VRMC_vrm_animation 1.0's expressions (preset and custom, name -> node) and lookAt (node).
void ReadVrmaRoles(const json& extension, const std::string& pointer, Asset& asset,
                   const GltfErrors& errors) {
  const auto expressions = extension.find("expressions");
  if (expressions != extension.end()) {
    if (!expressions->is_object()) errors.Fail(pointer + "/expressions", "expected an object");
    for (const auto& [group, kind] : {std::pair{"preset", VrmaRole::Kind::kPresetExpression},
                                      std::pair{"custom", VrmaRole::Kind::kCustomExpression}}) {
      const auto found = expressions->find(group);
      if (found == expressions->end()) continue;
      const std::string group_pointer = pointer + "/expressions/" + group;
      const VrmaRole::Kind role_kind = kind;  // a lambda cannot capture a structured binding
      const bool is_object = ForEachMember(*found, [&](const std::string& name, json&& entry) {
        AssignVrmaRole(entry, group_pointer + "/" + JsonPointerEscape(name), {role_kind, name, {}},
                       asset, errors);
      });
      if (!is_object) errors.Fail(group_pointer, "expected an object");
    }
  }
  const auto look_at = extension.find("lookAt");
  if (look_at != extension.end()) {
    AssignVrmaRole(*look_at, pointer + "/lookAt", {VrmaRole::Kind::kLookAt, "lookAt", {}}, asset,
                   errors);
  }
}

}  // namespace

VrmKind ReadVrmHumanoid(const json& document, Asset& asset, const GltfErrors& errors) {
  const auto extensions = document.find("extensions");
  if (extensions == document.end() || !extensions->is_object()) return VrmKind::kNone;
  struct Candidate {
    const char* name;
    VrmKind kind;
    const char* description;
  };
  // A file could carry both VRM 0.x and 1.0 (exporters that write both); 1.0 wins, as in
  // three-vrm, which tries VRMC_vrm first.
  for (const Candidate& candidate : {Candidate{"VRMC_vrm_animation", VrmKind::kVrma, "VRMA"},
                                     Candidate{"VRMC_vrm", VrmKind::kVrm1, "VRM 1.0"},
                                     Candidate{"VRM", VrmKind::kVrm0, "VRM 0.x"}}) {
    const auto found = extensions->find(candidate.name);
    if (found == extensions->end() || !ExtensionUsed(document, candidate.name)) continue;
    const std::string pointer = std::string("/extensions/") + candidate.name;
    if (!found->is_object()) errors.Fail(pointer, "expected an object");
    const auto humanoid = found->find("humanoid");
    if (humanoid == found->end()) {
      asset.notes.push_back(fmt::format("{} has no humanoid", candidate.description));
      continue;
    }
    if (!humanoid->is_object()) errors.Fail(pointer + "/humanoid", "expected an object");
    HumanBoneAssigner assigner(asset, errors);
    if (candidate.kind == VrmKind::kVrm0) {
      ReadVrm0(*humanoid, pointer + "/humanoid", assigner, errors);
      asset.coordinates.facing = Facing::kMinusZ;
    } else {
      ReadVrm1(*humanoid, pointer + "/humanoid", candidate.kind == VrmKind::kVrma, assigner, errors,
               asset);
      asset.coordinates.facing = Facing::kPlusZ;
    }
    assigner.Finish(fmt::format("{} {}", candidate.description, pointer + "/humanoid"));
    asset.rig.vrm_humanoid = true;
    if (candidate.kind == VrmKind::kVrma) ReadVrmaRoles(*found, pointer, asset, errors);
    return candidate.kind;
  }
  return VrmKind::kNone;
}

void ReadVrmaStepAsPlayed(Asset& asset) {
  size_t rotations = 0;
  size_t expressions = 0;
  for (Clip& clip : asset.clips) {
    for (Channel& channel : clip.channels) {
      if (channel.interpolation != Interpolation::kStep) continue;
      const Node& node = asset.rig.nodes[static_cast<size_t>(channel.node)];
      const bool rotation = node.human_bone && channel.path == Path::kRotation;
      const bool expression = node.vrma_role && node.vrma_role->kind != VrmaRole::Kind::kLookAt &&
                              channel.path == Path::kTranslation;
      if (!rotation && !expression) continue;
      channel.interpolation = Interpolation::kLinear;
      ++(rotation ? rotations : expressions);
    }
  }
  if (rotations + expressions == 0) return;
  asset.notes.push_back(fmt::format(
      "VRMA: {} STEP humanoid rotation and {} STEP expression track(s) read as linear, as "
      "three-vrm-animation plays them (it rebuilds those tracks without their interpolation; the "
      "hips translation and lookAt keep STEP)",
      rotations, expressions));
}

}  // namespace animconv
