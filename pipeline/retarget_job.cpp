#include "pipeline/retarget_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "animconv/error.h"
#include "animconv/humanoid_pose.h"
#include "animconv/resample.h"
#include "formats/three/three_json.h"
#include "libconvert/text.h"

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

namespace {

// The model's node a channel of `node` belongs on: by humanoid bone, else by name. A name is
// compared with the node's own name and with the name three.js gives it (GLTFLoader sanitises
// node names with PropertyBinding.sanitizeNodeName and makes them unique, and PropertyBinding
// binds a track to the object so named, docs/formats/threejs.md), so our own three.js JSON,
// whose tracks say `upper_armL` for the node `upper_arm.L`, finds its nodes again.
class ModelNodeFinder {
 public:
  explicit ModelNodeFinder(const Rig& model)
      : model_(model), three_(ThreeNodeNames(model, nullptr)) {
    bone_node_.fill(-1);
    for (size_t n = 0; n < model.nodes.size(); ++n) {
      if (model.nodes[n].human_bone) {
        bone_node_[static_cast<size_t>(*model.nodes[n].human_bone)] = int(n);
      }
    }
  }

  int Find(const Node& node) const {
    if (node.human_bone) {
      const int by_bone = bone_node_[static_cast<size_t>(*node.human_bone)];
      if (by_bone >= 0) return by_bone;
    }
    for (size_t n = 0; n < model_.nodes.size(); ++n) {
      if (model_.nodes[n].name == node.name) return int(n);
    }
    for (size_t n = 0; n < model_.nodes.size(); ++n) {
      if (three_.nodes[n] == node.name) return int(n);
    }
    return -1;
  }

 private:
  const Rig& model_;
  const ThreeObjectNames three_;
  std::array<int, kHumanBoneCount> bone_node_;
};

}  // namespace

void AdoptSourceRig(Asset& input, const Asset& model, Mirror mirror, const std::string& model_name,
                    Diagnostics* diagnostics) {
  RequireHumanoid(model.rig, model_name);
  ConvertHandedness(input, Handedness::kRight, mirror);
  const ModelNodeFinder finder(model.rig);
  std::vector<std::string> dropped;
  for (Clip& clip : input.clips) {
    std::vector<Channel> kept;
    for (Channel& channel : clip.channels) {
      const Node& input_node = input.rig.nodes[static_cast<size_t>(channel.node)];
      const int node = finder.Find(input_node);
      const bool fits =
          node >= 0 &&
          (channel.path != Path::kWeights ||
           model.rig.nodes[static_cast<size_t>(node)].morph_target_count == channel.width);
      if (!fits) {
        dropped.push_back(fmt::format("{} {}", input_node.name, PathName(channel.path)));
        continue;
      }
      channel.node = node;
      kept.push_back(std::move(channel));
    }
    clip.channels = std::move(kept);
  }
  // A dropped channel is motion the output does not play: a warning, never only a note.
  if (!dropped.empty()) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("--source-rig {}: {} channel(s) match no node of the model (by "
                              "humanoid bone, name or three.js name) and were dropped: {}",
                              model_name, dropped.size(), ListFirst(dropped, 5)));
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
