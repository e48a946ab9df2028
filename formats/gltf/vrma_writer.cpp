// VRM Animation writer: the glTF writer plus the root extension `VRMC_vrm_animation`, laid out as
// VRMC_vrm_animation 1.0 lists (and what @pixiv/three-vrm-animation 3.5 does
// with it). The pipeline hands it the normalised T-pose rig (retarget_job.h).
#include <fmt/format.h>

#include <cstring>

#include "animconv/error.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_buffers.h"
#include "formats/gltf/gltf_document.h"
#include "formats/gltf/gltf_output.h"

namespace animconv {
namespace {

using nlohmann::json;

bool IsEye(HumanBone bone) { return bone == HumanBone::kLeftEye || bone == HumanBone::kRightEye; }

// The writer never guesses: what a VRMA cannot hold is an error naming it (§3.2: no scale tracks,
// translation only on hips; three-vrm-animation throws on any other humanoid path).
void CheckChannels(const Asset& asset) {
  for (const Clip& clip : asset.clips) {
    for (const Channel& channel : clip.channels) {
      const Node& node = asset.rig.nodes[static_cast<size_t>(channel.node)];
      if (node.vrma_role) {
        // An expression's weight is its node's translation.x, lookAt its rotation (§3.3, §3.4).
        const Path wanted =
            node.vrma_role->kind == VrmaRole::Kind::kLookAt ? Path::kRotation : Path::kTranslation;
        if (channel.path == wanted) continue;
        ThrowUsage(
            fmt::format("vrma: clip '{}' animates {} of '{}', which stands for the {} '{}'",
                        clip.name, PathName(channel.path), node.name,
                        node.vrma_role->kind == VrmaRole::Kind::kLookAt ? "lookAt" : "expression",
                        node.vrma_role->name));
      }
      const bool ok = node.human_bone && !IsEye(*node.human_bone) &&
                      (channel.path == Path::kRotation || (channel.path == Path::kTranslation &&
                                                           *node.human_bone == HumanBone::kHips));
      if (!ok) {
        ThrowUsage(
            fmt::format("vrma: clip '{}' animates {} of '{}'; a VRM Animation holds humanoid "
                        "rotations and the hips translation only",
                        clip.name, PathName(channel.path), node.name));
      }
    }
  }
}

json HumanBones(const Rig& rig) {
  json bones = json::object();
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    const std::optional<HumanBone> bone = rig.nodes[n].human_bone;
    if (!bone || IsEye(*bone)) continue;
    bones[std::string(GetHumanBoneInfo(*bone).vrm1)] = {{"node", n}};
  }
  std::vector<std::string> missing;
  for (int b = 0; b < kHumanBoneCount; ++b) {
    const HumanBoneInfo& info = GetHumanBoneInfo(static_cast<HumanBone>(b));
    if (info.required_vrm1 && !bones.contains(std::string(info.vrm1))) {
      missing.emplace_back(info.vrm1);
    }
  }
  if (!missing.empty()) {
    ThrowUsage(fmt::format("vrma: the rig lacks the required humanoid bone(s) {}",
                           fmt::join(missing, ", ")));
  }
  return bones;
}

// VRMC_vrm_animation's expressions and lookAt (name -> node), from Node::vrma_role.
void AddVrmaRoles(const Rig& rig, json& extension) {
  json preset = json::object();
  json custom = json::object();
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    const std::optional<VrmaRole>& role = rig.nodes[n].vrma_role;
    if (!role) continue;
    if (role->kind == VrmaRole::Kind::kLookAt) {
      extension["lookAt"] = {{"node", n}};
    } else {
      (role->kind == VrmaRole::Kind::kPresetExpression ? preset
                                                       : custom)[role->name] = {{"node", n}};
    }
  }
  if (preset.empty() && custom.empty()) return;
  json& expressions = extension["expressions"];
  if (!preset.empty()) expressions["preset"] = std::move(preset);
  if (!custom.empty()) expressions["custom"] = std::move(custom);
}

}  // namespace

bool SniffVrma(std::string_view bytes) {
  if (!IsGlb(bytes) || bytes.size() < 20) return false;
  uint32_t json_length = 0;
  std::memcpy(&json_length, bytes.data() + 12, 4);
  const std::string_view chunk = bytes.substr(20, json_length);
  return chunk.find("\"VRMC_vrm_animation\"") != std::string_view::npos;
}

std::string WriteVrma(const Asset& asset, const WriteOptions& options) {
  return WriteVrmaPieces(asset, options).Joined();
}

TextPieces WriteVrmaPieces(const Asset& asset, const WriteOptions& options) {
  if (!asset.rig.rest_pose_known) {
    ThrowUsage("vrma: the rig has no rest pose; a VRM Animation's nodes must stand in T-pose");
  }
  if (asset.clips.size() > 1) {
    ThrowUsage(
        fmt::format("vrma: the input has {} clips and players use only the first "
                    "(VRMC_vrm_animation 1.0 conventions); pick one with --clip",
                    asset.clips.size()));
  }
  CheckChannels(asset);
  const json human_bones = HumanBones(asset.rig);
  return WriteGltfDocumentPieces(asset, true, options, [&](GltfOutputJson& document) {
    json& used = document["extensionsUsed"];
    if (!used.is_array()) used = json::array();
    used.push_back("VRMC_vrm_animation");
    json extension = {{"specVersion", "1.0"}, {"humanoid", {{"humanBones", human_bones}}}};
    AddVrmaRoles(asset.rig, extension);
    document["extensions"]["VRMC_vrm_animation"] = std::move(extension);
  });
}

}  // namespace animconv
