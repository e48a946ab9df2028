#include "pipeline/coverage.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "animconv/humanoid.h"
#include "animconv/quaternion.h"
#include "animconv/reduce.h"
#include "formats/csv/unity_csv.h"
#include "libconvert/parallel.h"

namespace animconv {
namespace {

using ChannelKey = std::pair<int, Path>;  // node, path

// Values that change between keys: a channel that holds one value all along animates nothing,
// so losing it (Assimp's constant translation on every joint, a generated clip's fingers held
// still) is no loss of motion. A rotation and its negation are the same pose.
bool Animated(const Channel& channel) {
  constexpr double kTolerance = 1e-6;
  const auto width = static_cast<size_t>(channel.width);
  for (size_t k = 1; k < channel.key_count(); ++k) {
    const double* value = channel.key_value(k);
    const double* first = channel.key_value(0);
    bool same = true;
    bool negated = channel.path == Path::kRotation;
    for (size_t i = 0; i < width; ++i) {
      same = same && std::fabs(value[i] - first[i]) <= kTolerance;
      negated = negated && std::fabs(value[i] + first[i]) <= kTolerance;
    }
    if (!same && !negated) return true;
  }
  return false;
}

// How far a still channel's value is from its node's rest value, in the path's unit (degrees,
// metres, scale ratio, weight), where that is beyond the --reduce defaults (reduce.h): a pose a
// player shows, not a constant an exporter keyed at rest. 0 otherwise. Without a rest pose
// (`rest_known` false: a Unity CSV, a three.js clip) only rotations and weights count: a still
// translation or scale is then the skeleton's own shape (a three.js clip of a BVH keys every
// bone's offset), which a player takes from its model, not from the clip.
double PoseAwayFromRest(const Channel& channel, const Node& node, bool rest_known) {
  if (channel.key_count() == 0) return 0;
  if (!rest_known && (channel.path == Path::kTranslation || channel.path == Path::kScale)) {
    return 0;
  }
  const std::vector<double> rest = RestValue(node, channel.path);
  const double* value = channel.key_value(0);
  if (rest.size() != static_cast<size_t>(channel.width)) return 0;
  const ReduceOptions tolerances;
  double away = 0;
  double tolerance = 0;
  switch (channel.path) {
    case Path::kRotation:
      away = AngleBetween(Normalized(Quat{value[0], value[1], value[2], value[3]}),
                          Quat{rest[0], rest[1], rest[2], rest[3]}) *
             180 / M_PI;
      tolerance = tolerances.rotation_degrees;
      break;
    case Path::kTranslation:
      away = std::hypot(value[0] - rest[0], value[1] - rest[1], value[2] - rest[2]);
      tolerance = tolerances.translation_metres;
      break;
    case Path::kScale:
      for (size_t i = 0; i < 3; ++i) away = std::max(away, std::fabs(value[i] / rest[i] - 1));
      tolerance = tolerances.scale_ratio;
      break;
    case Path::kWeights:
      for (size_t i = 0; i < rest.size(); ++i) away = std::max(away, std::fabs(value[i] - rest[i]));
      tolerance = tolerances.weight;
      break;
  }
  return away > tolerance ? away : 0;
}

const char* UnitOf(Path path) {
  return path == Path::kRotation      ? "deg"
         : path == Path::kTranslation ? "m"
         : path == Path::kScale       ? "ratio"
                                      : "weight";
}

// The channels of `output` its writer holds: unity-csv stores the rotations of its column nodes
// only (docs/formats/unity-csv.md), three-hierarchy no morph weights (Format::holds_morph_weights),
// BVH no VRMA expression or lookAt nodes (Format::holds_vrma_roles), the other writers every
// channel with keys.
std::set<ChannelKey> HeldChannels(const Asset& output, const Format& format,
                                  const WriteOptions& write) {
  std::set<int> columns;
  const bool unity_csv = format.id == "unity-csv";
  if (unity_csv) {
    const std::vector<std::string> bones =
        write.bone_names.empty() ? DefaultUnityBoneNames() : write.bone_names;
    for (const std::string& bone : bones) columns.insert(FindUnityCsvColumnNode(output.rig, bone));
  }
  std::set<ChannelKey> held;
  for (const Clip& clip : output.clips) {
    for (const Channel& channel : clip.channels) {
      if (channel.key_count() == 0) continue;
      if (unity_csv && (channel.path != Path::kRotation || !columns.count(channel.node))) continue;
      if (channel.path == Path::kWeights && !format.holds_morph_weights) continue;
      if (!format.holds_vrma_roles &&
          output.rig.nodes[static_cast<size_t>(channel.node)].vrma_role) {
        continue;
      }
      held.emplace(channel.node, channel.path);
    }
  }
  return held;
}

// The output node standing for input node `n`: the same index when the rig is the same, else the
// node with the same humanoid bone, else with the same name.
int Counterpart(const std::vector<CoverageNode>& input, const Asset& output, int n,
                bool same_nodes) {
  if (same_nodes) return n;
  const CoverageNode& node = input[static_cast<size_t>(n)];
  for (size_t m = 0; m < output.rig.nodes.size(); ++m) {
    const Node& candidate = output.rig.nodes[m];
    if (node.human_bone ? candidate.human_bone == node.human_bone
                        : !candidate.human_bone && candidate.name == node.name) {
      return static_cast<int>(m);
    }
  }
  return -1;
}

std::string NameList(const std::vector<std::string>& names) {
  constexpr size_t kShown = 10;
  std::string text;
  for (size_t i = 0; i < names.size() && i < kShown; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > kShown) text += fmt::format(" and {} more", names.size() - kShown);
  return text;
}

std::string ChannelName(const std::vector<CoverageNode>& nodes, const ChannelKey& key) {
  const CoverageNode& node = nodes[static_cast<size_t>(key.first)];
  return fmt::format("{}.{}", node.name, PathName(key.second));
}

// A .vrma's expression track played onto a VRM model (pipeline/vrm_expression_binds.h) lives on
// in the weights of the meshes its binds name; an expression of the model that binds nothing
// shows nothing in three-vrm either.
bool PlayedThroughBinds(const CoverageNode& node, const Asset& output,
                        const std::set<ChannelKey>& held) {
  if (!node.vrma_role || node.vrma_role->kind == VrmaRole::Kind::kLookAt) return false;
  for (const VrmExpression& expression : output.vrm_expressions) {
    if (expression.name != node.vrma_role->name) continue;
    if (expression.morph_target_binds.empty() && expression.material_binds == 0) return true;
    for (const VrmExpression::MorphTargetBind& bind : expression.morph_target_binds) {
      if (held.count({bind.node, Path::kWeights})) return true;
    }
  }
  return false;
}

// Morph weights made into VRMA expressions (pipeline/expressions_from_morphs.h).
bool MadeIntoExpressions(const CoverageNode& node, Path path, const Asset& output) {
  if (path != Path::kWeights) return false;
  return std::any_of(output.rig.nodes.begin(), output.rig.nodes.end(), [&node](const Node& n) {
    return n.vrma_role && !n.vrma_role->morph_source.empty() &&
           n.vrma_role->morph_source == node.name;
  });
}

// An eye's rotation a VRMA holds as its lookAt (pipeline/lookat_from_eyes.h).
bool MadeIntoLookAt(const CoverageNode& node, Path path, const Asset& output,
                    const std::set<ChannelKey>& held) {
  if (path != Path::kRotation || !node.human_bone ||
      (*node.human_bone != HumanBone::kLeftEye && *node.human_bone != HumanBone::kRightEye)) {
    return false;
  }
  for (size_t m = 0; m < output.rig.nodes.size(); ++m) {
    const std::optional<VrmaRole>& role = output.rig.nodes[m].vrma_role;
    if (role && role->kind == VrmaRole::Kind::kLookAt &&
        held.count({static_cast<int>(m), Path::kRotation})) {
      return true;
    }
  }
  return false;
}

// A VRMA's lookAt a model plays (pipeline/lookat_on_model.h): on its eyes, or for an expression
// lookAt in the weights the look expressions' binds name.
bool PlayedOnEyes(const CoverageNode& node, Path path, const Asset& output,
                  const std::set<ChannelKey>& held) {
  if (path != Path::kRotation || !node.vrma_role ||
      node.vrma_role->kind != VrmaRole::Kind::kLookAt) {
    return false;
  }
  if (output.vrm_look_at && output.vrm_look_at->type == VrmLookAt::Type::kExpression) {
    for (const VrmExpression& expression : output.vrm_expressions) {
      if (expression.name.rfind("look", 0) != 0) continue;  // lookUp, lookDown, lookLeft, lookRight
      for (const VrmExpression::MorphTargetBind& bind : expression.morph_target_binds) {
        if (held.count({bind.node, Path::kWeights})) return true;
      }
    }
    return false;
  }
  for (const HumanBone eye : {HumanBone::kLeftEye, HumanBone::kRightEye}) {
    const int m = HumanBoneNode(output.rig, eye);
    if (m >= 0 && held.count({m, Path::kRotation})) return true;
  }
  return false;
}

std::string BoneName(HumanBone bone) { return std::string(GetHumanBoneInfo(bone).vrm1); }

}  // namespace

InputCoverage DescribeInputCoverage(const Asset& input) {
  InputCoverage coverage;
  coverage.nodes.reserve(input.rig.nodes.size());
  for (const Node& node : input.rig.nodes) {
    coverage.nodes.push_back({node.name, node.parent, node.human_bone, node.vrma_role});
  }
  coverage.clips = input.clips.size();
  // Whether each channel moves, on every core for a large clip (it reads every key).
  std::vector<std::vector<char>> moves(input.clips.size());
  for (size_t c = 0; c < input.clips.size(); ++c) moves[c].resize(input.clips[c].channels.size());
  ForEachChannel(input.clips, [&moves](size_t c, size_t i, const Channel& channel) {
    moves[c][i] = Animated(channel);
  });
  std::set<ChannelKey> animated;
  std::map<ChannelKey, double> posed;
  for (size_t c = 0; c < input.clips.size(); ++c) {
    const Clip& clip = input.clips[c];
    coverage.channels += clip.channels.size();
    for (size_t i = 0; i < clip.channels.size(); ++i) {
      const Channel& channel = clip.channels[i];
      if (moves[c][i]) {
        animated.emplace(channel.node, channel.path);
        continue;
      }
      const double away = PoseAwayFromRest(
          channel, input.rig.nodes[static_cast<size_t>(channel.node)], input.rig.rest_pose_known);
      if (away > 0) {
        double& largest = posed[{channel.node, channel.path}];
        largest = std::max(largest, away);
      }
    }
  }
  for (const ChannelKey& key : animated) posed.erase(key);
  coverage.animated.assign(animated.begin(), animated.end());
  for (const auto& [key, away] : posed) coverage.posed.push_back({key.first, key.second, away});
  return coverage;
}

CoverageLoss MeasureCoverageLoss(const InputCoverage& input, const Asset& output,
                                 const Format& format, const WriteOptions& write,
                                 const CoverageCheck& check) {
  CoverageLoss loss;
  const size_t input_channels = input.channels;
  const std::vector<ChannelKey>& animated = input.animated;
  const std::set<ChannelKey> held = HeldChannels(output, format, write);
  if (held.empty()) {
    loss.partial = true;
    loss.summary = input.clips == 0
                       ? "the input holds no animation (no clip), so neither would the output"
                   : input_channels == 0
                       ? "the input's clips hold no channel, so the output would hold no animation"
                       : fmt::format(
                             "the {} output would hold no animation: none of the input's {} "
                             "channel(s) has a place in it",
                             format.id, input_channels);
    loss.fix = input_channels == 0 ? "convert a file that holds a clip"
                                   : "choose an output format that holds the input's channels";
    return loss;
  }

  // Input nodes whose motion a retargeted output still carries through a humanoid bone below
  // them (RetargetClips folds a rotation into the bones below, docs/retargeting.md).
  std::vector<bool> carried_below(input.nodes.size(), false);
  if (check.retargeted) {
    for (size_t n = 0; n < input.nodes.size(); ++n) {
      if (!input.nodes[n].human_bone) continue;
      const int m = Counterpart(input.nodes, output, static_cast<int>(n), check.same_nodes);
      if (m < 0 || !held.count({m, Path::kRotation})) continue;
      for (int p = input.nodes[n].parent; p >= 0; p = input.nodes[static_cast<size_t>(p)].parent) {
        carried_below[static_cast<size_t>(p)] = true;
      }
    }
  }

  std::vector<std::string> lost_channels;
  // Nodes without a humanoid bone whose rotation went to the bones below: the children play
  // right in world space, but the node's own orientation is gone, which a viewer comparing the
  // two files sees (the exit-0 sweep, docs/testing.md), so they are named too.
  std::vector<std::string> folded_other;
  std::set<HumanBone> animated_bones, kept_bones, folded_bones;
  // Whether the output plays an input channel: the same path of its counterpart, or as binds,
  // expressions, a lookAt or eyes.
  const auto kept_in_output = [&](const ChannelKey& key) {
    const CoverageNode& node = input.nodes[static_cast<size_t>(key.first)];
    const int m = Counterpart(input.nodes, output, key.first, check.same_nodes);
    return (m >= 0 && held.count({m, key.second})) || PlayedThroughBinds(node, output, held) ||
           MadeIntoExpressions(node, key.second, output) ||
           MadeIntoLookAt(node, key.second, output, held) ||
           PlayedOnEyes(node, key.second, output, held);
  };
  // A rotation passed on to the humanoid bones below (carried_below).
  const auto folded_below = [&](const ChannelKey& key) {
    return key.second == Path::kRotation && carried_below[static_cast<size_t>(key.first)];
  };
  for (const ChannelKey& key : animated) {
    const CoverageNode& node = input.nodes[static_cast<size_t>(key.first)];
    const bool kept = kept_in_output(key);
    const bool folded = !kept && folded_below(key);
    if (node.human_bone) {
      animated_bones.insert(*node.human_bone);
      if (kept) kept_bones.insert(*node.human_bone);
      if (folded) folded_bones.insert(*node.human_bone);
    } else if (folded) {
      folded_other.push_back(node.name);
    }
    if (!kept && !folded) lost_channels.push_back(ChannelName(input.nodes, key));
  }
  std::vector<std::string> lost_poses;
  std::map<std::string, double> lost_pose_largest;  // by unit
  for (const InputCoverage::Posed& pose : input.posed) {
    const ChannelKey key{pose.node, pose.path};
    if (kept_in_output(key) || folded_below(key)) continue;
    lost_poses.push_back(ChannelName(input.nodes, key));
    double& largest = lost_pose_largest[UnitOf(pose.path)];
    largest = std::max(largest, pose.away);
  }
  std::vector<std::string> lost_bones, lost_required;
  std::vector<std::string> folded_names;
  for (const HumanBone bone : animated_bones) {
    if (kept_bones.count(bone)) continue;
    if (folded_bones.count(bone)) {
      folded_names.push_back(BoneName(bone));
      continue;
    }
    lost_bones.push_back(BoneName(bone));
    if (GetHumanBoneInfo(bone).required_vrm1) lost_required.push_back(BoneName(bone));
  }

  const std::string where = fmt::format("in the {} output", format.id);
  if (check.humanoid_output && !lost_required.empty()) {
    loss.partial = true;
    loss.summary = fmt::format(
        "the input animates VRM 1.0 required humanoid bone(s) {} that have "
        "no place {}",
        NameList(lost_required), where);
  } else if (check.humanoid_output && lost_bones.size() * 2 > animated_bones.size()) {
    loss.partial = true;
    loss.summary =
        fmt::format("{} of the input's {} animated humanoid bone(s) have no place {}: {}",
                    lost_bones.size(), animated_bones.size(), where, NameList(lost_bones));
  } else if (!lost_channels.empty()) {
    loss.partial = lost_channels.size() * 2 > animated.size();
    loss.summary =
        fmt::format("{} of the input's {} animated channel(s) have no place {}: {}",
                    lost_channels.size(), animated.size(), where, NameList(lost_channels));
  }
  if (loss.partial) {
    loss.fix = check.humanoid_output
                   ? "give the input's nodes humanoid identities with --bone-map (animconv bones), "
                     "or choose an output format that is not humanoid (glb, three)"
                   : "choose an output format that holds the input's channels";
  }
  if (!loss.summary.empty() && !loss.partial) loss.details.push_back(loss.summary);
  if (!lost_poses.empty()) {
    std::string bounds;
    for (const auto& [unit, largest] : lost_pose_largest) {
      bounds += fmt::format("{}{:.3g} {}", bounds.empty() ? "" : ", ", largest, unit);
    }
    loss.details.push_back(fmt::format(
        "{} of the input's channel(s) hold a still pose away from the rest pose and have no place "
        "{}, so the output plays up to {} off there: {}",
        lost_poses.size(), where, bounds, NameList(lost_poses)));
  }
  if (!folded_names.empty()) {
    loss.details.push_back(fmt::format(
        "{} source bone(s) missing on the target passed their rotation to the bones below: {}",
        folded_names.size(), NameList(folded_names)));
  }
  if (!folded_other.empty()) {
    loss.details.push_back(fmt::format(
        "{} animated node(s) without a humanoid bone passed their rotation to the humanoid bones "
        "below (those play as before; the nodes themselves are not {}): {}",
        folded_other.size(), where, NameList(folded_other)));
  }
  return loss;
}

}  // namespace animconv
