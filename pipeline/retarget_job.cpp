#include "pipeline/retarget_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "animconv/error.h"
#include "animconv/humanoid_pose.h"
#include "animconv/resample.h"

namespace animconv {
namespace {

size_t HumanoidNodeCount(const Rig& rig) {
  size_t count = 0;
  for (const Node& node : rig.nodes) count += node.human_bone ? 1 : 0;
  return count;
}

void RequireHumanoid(const Rig& rig, const std::string& what) {
  if (HumanoidNodeCount(rig) == 0) {
    ThrowUsage(
        fmt::format("{} has no humanoid bones: name its nodes after a known naming "
                    "(animconv bones) or map them with --bone-map",
                    what));
  }
}

// Right-handed, no cubic splines: what RetargetClips takes.
void PrepareSource(Asset& input, Mirror mirror, std::optional<double> interval_seconds) {
  RequireHumanoid(input.rig, "the input");
  ConvertHandedness(input, Handedness::kRight, mirror);
  BakeCubicSplines(input, interval_seconds);
}

Asset Retargeted(const Asset& input, const Rig& rig, const CoordinateSystem& coordinates,
                 RetargetReport* report) {
  Asset out;
  out.clips = RetargetClips(input, rig, coordinates.facing, RetargetOptions{}, report);
  out.rig = rig;
  out.coordinates = coordinates;
  out.notes = input.notes;
  return out;
}

}  // namespace

Mirror MirrorForModel(const Asset& model) {
  return model.coordinates.facing == Facing::kMinusZ ? Mirror::kZ : Mirror::kX;
}

void AdoptSourceRig(Asset& input, const Asset& model, Mirror mirror,
                    const std::string& model_name) {
  RequireHumanoid(model.rig, model_name);
  ConvertHandedness(input, Handedness::kRight, mirror);
  std::array<int, kHumanBoneCount> model_node_of_bone;
  model_node_of_bone.fill(-1);
  for (size_t n = 0; n < model.rig.nodes.size(); ++n) {
    if (model.rig.nodes[n].human_bone) {
      model_node_of_bone[static_cast<size_t>(*model.rig.nodes[n].human_bone)] = int(n);
    }
  }
  auto model_node = [&](const Node& node) {
    if (node.human_bone) return model_node_of_bone[static_cast<size_t>(*node.human_bone)];
    for (size_t n = 0; n < model.rig.nodes.size(); ++n) {
      if (model.rig.nodes[n].name == node.name) return int(n);
    }
    return -1;
  };
  size_t dropped = 0;
  for (Clip& clip : input.clips) {
    std::vector<Channel> kept;
    for (Channel& channel : clip.channels) {
      const int node = model_node(input.rig.nodes[static_cast<size_t>(channel.node)]);
      const bool fits =
          node >= 0 &&
          (channel.path != Path::kWeights ||
           model.rig.nodes[static_cast<size_t>(node)].morph_target_count == channel.width);
      if (!fits) {
        ++dropped;
        continue;
      }
      channel.node = node;
      kept.push_back(std::move(channel));
    }
    clip.channels = std::move(kept);
  }
  if (dropped > 0) {
    input.notes.push_back(
        fmt::format("--source-rig {}: {} channel(s) on nodes the model lacks were dropped",
                    model_name, dropped));
  }
  input.rig = model.rig;
  input.coordinates = model.coordinates;
  input.source_document = model.source_document;
}

Asset RetargetOntoModel(Asset input, const Asset& model, const std::string& model_name,
                        Mirror mirror, std::optional<double> interval_seconds,
                        RetargetReport* report) {
  RequireHumanoid(model.rig, "the --skeleton model " + model_name);
  PrepareSource(input, mirror, interval_seconds);
  Asset out = Retargeted(input, model.rig, model.coordinates, report);
  out.source_document = model.source_document;
  return out;
}

Asset RetargetOntoNormalizedRig(Asset input, const NormalizedRig& rig, Mirror mirror,
                                std::optional<double> interval_seconds, RetargetReport* report) {
  PrepareSource(input, mirror, interval_seconds);
  std::array<bool, kHumanBoneCount> wanted{};
  for (const Node& node : input.rig.nodes) {
    if (node.human_bone) wanted[static_cast<size_t>(*node.human_bone)] = true;
  }
  std::vector<HumanBone> bones;
  for (int b = 0; b < kHumanBoneCount; ++b) {
    const HumanBone bone = static_cast<HumanBone>(b);
    if (!rig.eyes && (bone == HumanBone::kLeftEye || bone == HumanBone::kRightEye)) continue;
    if (wanted[static_cast<size_t>(b)] ||
        (rig.required_vrm1_bones && GetHumanBoneInfo(bone).required_vrm1)) {
      bones.push_back(bone);
    }
  }
  const CoordinateSystem coordinates{Handedness::kRight, rig.facing};
  return Retargeted(input, MakeHumanoidTPoseRig(bones, rig.facing), coordinates, report);
}

}  // namespace animconv
