#include "animconv/clip_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "animconv/resample.h"
#include "animconv/sample.h"
#include "animconv/transform.h"
#include "libconvert/clip_diff_internal.h"
#include "libconvert/clip_select.h"
#include "libconvert/three_node_name.h"
#include "libconvert/value_error.h"

namespace animconv {
namespace diff_detail {

// The node of `rig` with `own`'s node's humanoid bone, else -1.
int MatchHumanBone(const Rig& rig, const Node& node) {
  if (!node.human_bone) return -1;
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    if (rig.nodes[n].human_bone == node.human_bone) return static_cast<int>(n);
  }
  return -1;
}

bool HasUnnamedNodes(const Rig& rig) {
  return std::any_of(rig.nodes.begin(), rig.nodes.end(),
                     [](const Node& node) { return node.generated_name; });
}

// How many nodes of `rig` three.js names `sanitized` once it sanitises their names.
size_t CountSanitized(const Rig& rig, const std::string& sanitized) {
  return static_cast<size_t>(std::count_if(rig.nodes.begin(), rig.nodes.end(), [&](const Node& n) {
    return SanitizeNodeName(n.name) == sanitized;
  }));
}

// Whether two nodes of `rig` have one name once three.js sanitises them.
bool NamesRepeat(const Rig& rig) {
  std::vector<std::string> names;
  names.reserve(rig.nodes.size());
  for (const Node& node : rig.nodes) names.push_back(SanitizeNodeName(node.name));
  std::sort(names.begin(), names.end());
  return std::adjacent_find(names.begin(), names.end()) != names.end();
}

// The node of `rig` whose three.js object has the name of node `index` of `own`'s, else -1.
int MatchObjectName(const Rig& rig, const Rig& own, int index) {
  const std::string object = ThreeObjectNames(own)[static_cast<size_t>(index)];
  const std::vector<std::string> objects = ThreeObjectNames(rig);
  const auto found = std::find(objects.begin(), objects.end(), object);
  return found == objects.end() ? -1 : static_cast<int>(found - objects.begin());
}

// The node of `rig` named like node `index` of `own` (exactly, else as three.js sanitises names).
// Names need not be unique (RobotExpressive has a joint and a mesh node both called "Head"): where
// a name repeats on either side the nodes are told apart as three.js tells them apart, by the
// unique names GLTFLoader gives their objects in scene order ("Head", "Head_1"), which a three.js
// clip of the glTF names its tracks after; else the k-th node of a name matches the k-th node of
// that name in `rig`, else the first.
int MatchName(const Rig& rig, const Rig& own, int index) {
  const Node& node = own.nodes[static_cast<size_t>(index)];
  const std::string sanitized = SanitizeNodeName(node.name);
  if (CountSanitized(own, sanitized) > 1 || CountSanitized(rig, sanitized) > 1) {
    const int by_object = MatchObjectName(rig, own, index);
    if (by_object >= 0) return by_object;
  }
  size_t occurrence = 0;
  for (int n = 0; n < index; ++n) occurrence += own.nodes[static_cast<size_t>(n)].name == node.name;
  int first = -1;
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    if (rig.nodes[n].name != node.name) continue;
    if (first < 0) first = static_cast<int>(n);
    if (occurrence-- == 0) return static_cast<int>(n);
  }
  if (first >= 0) return first;
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    if (SanitizeNodeName(rig.nodes[n].name) == sanitized) return static_cast<int>(n);
  }
  // A glTF node without a name is named after its mesh in three.js (its track "mesh_0" or
  // "inner_box"), which the other side's generated "node_2" does not show; a repeated name took a
  // suffix ("Head_1"), which the other side's own "Head_1" may be.
  if (!HasUnnamedNodes(own) && !HasUnnamedNodes(rig) && !NamesRepeat(own) && !NamesRepeat(rig)) {
    return -1;
  }
  return MatchObjectName(rig, own, index);
}

// A VRM Animation's expression and lookAt nodes are their role: three-vrm-animation plays an
// expression node's track as the weight of the expression it is listed under, whatever the node is
// called, and the lookAt node's as the gaze. Two expressions are the same by name (preset or custom
// is three-vrm's call by the name too).
bool SameRole(const VrmaRole& x, const VrmaRole& y) {
  const bool look_x = x.kind == VrmaRole::Kind::kLookAt;
  const bool look_y = y.kind == VrmaRole::Kind::kLookAt;
  return look_x == look_y && (look_x || x.name == y.name);
}

bool HasRoles(const Rig& rig) {
  return std::any_of(rig.nodes.begin(), rig.nodes.end(),
                     [](const Node& node) { return node.vrma_role.has_value(); });
}

// The node of `rig` that stands for node `index` of `own`: between two rigs with VRMA roles, a
// role node's by role; the same name, else the same humanoid bone. A name both rigs give different
// humanoid bones loses to the bone: "leftThumbProximal" is Unity's first thumb joint and VRM 1.0's
// second (docs/cli.md, humanoid names), so a Unity-named clip and its .vrma pair by bone, not by
// the shared word.
int MatchNode(const Rig& rig, const Rig& own, int index) {
  const Node& node = own.nodes[static_cast<size_t>(index)];
  // Between two rigs with roles a role node pairs by its role only (swapping which nodes are
  // `happy` and `aa` swaps what plays), and a node without one never with a role node.
  const bool roles = HasRoles(rig) && HasRoles(own);
  if (roles && node.vrma_role) {
    for (size_t n = 0; n < rig.nodes.size(); ++n) {
      const std::optional<VrmaRole>& role = rig.nodes[n].vrma_role;
      if (role && SameRole(*role, *node.vrma_role)) return static_cast<int>(n);
    }
    return -1;
  }
  int by_name = MatchName(rig, own, index);
  if (roles && by_name >= 0 && rig.nodes[static_cast<size_t>(by_name)].vrma_role) by_name = -1;
  if (by_name >= 0) {
    const std::optional<HumanBone>& other = rig.nodes[static_cast<size_t>(by_name)].human_bone;
    if (node.human_bone && other && *other != *node.human_bone) {
      const int by_bone = MatchHumanBone(rig, node);
      if (by_bone >= 0) return by_bone;
    }
    return by_name;
  }
  return MatchHumanBone(rig, node);
}

bool MatchedByName(const Rig& a, int na, const Rig& b, int nb) {
  const std::string& name_a = a.nodes[static_cast<size_t>(na)].name;
  const std::string& name_b = b.nodes[static_cast<size_t>(nb)].name;
  if (name_a == name_b || SanitizeNodeName(name_a) == SanitizeNodeName(name_b)) return true;
  if (!HasUnnamedNodes(a) && !HasUnnamedNodes(b) && !NamesRepeat(a) && !NamesRepeat(b)) {
    return false;
  }
  return ThreeObjectNames(a)[static_cast<size_t>(na)] ==
         ThreeObjectNames(b)[static_cast<size_t>(nb)];
}

void SetFromErrors(const std::vector<double>& times, const std::vector<double>& errors,
                   ChannelDiff* diff) {
  for (size_t s = 0; s < errors.size(); ++s) {
    if (s == 0 || errors[s] > diff->max) {
      diff->max = errors[s];
      diff->time_of_max_seconds = times[s];
    }
  }
  diff->samples = errors.size();
  diff->p99 = Percentile99(errors);
}

// Files keep their quaternions as written (a Unity CSV is off unit length by up to 0.002); the
// length carries no rotation, so it must not count as error.
Channel Renormalized(const Channel& channel) {
  Channel copy = channel;
  if (copy.path == Path::kRotation) NormalizeRotationKeys(copy);
  return copy;
}

// ValueError, the metric --reduce bounds, in the units diff reports (degrees for rotations).
double DiffError(Path path, const std::vector<double>& a, const std::vector<double>& b) {
  if (path == Path::kRotation) {
    const Quat unit_a = Normalized(LoadQuat(a.data()));
    const Quat unit_b = Normalized(LoadQuat(b.data()));
    return ValueError(path, unit_a.data(), 4, unit_b.data(), 4) * kDegreesPerRadian;
  }
  return ValueError(path, a.data(), a.size(), b.data(), b.size());
}

// The nearest-rank 99th percentile, in integers so that 100 samples give the 99th exactly.
double Percentile99(std::vector<double> errors) {
  if (errors.empty()) return 0;
  const size_t index = (99 * errors.size() + 99) / 100 - 1;
  std::nth_element(errors.begin(), errors.begin() + static_cast<std::ptrdiff_t>(index),
                   errors.end());
  return errors[index];
}

}  // namespace diff_detail

namespace {

using namespace diff_detail;  // NOLINT(build/namespaces): this file's own helpers

const char* const kUnits[] = {"deg", "m", "ratio", "weight"};

// Peaks refined per rotation channel (RefinePeaks): a few golden section searches each, so even
// a clip of thousands of channels adds little to the keys' samples.
constexpr size_t kRefinedPeaks = 8;

// One side of a comparison: a channel to evaluate, or a constant value when the clip lacks it.
struct Side {
  const Channel* channel = nullptr;
  std::vector<double> constant;

  // The value at `seconds`, or its limit from the left (`before`, EvaluateChannelBefore).
  std::vector<double> At(double seconds, bool before = false) const {
    if (!channel) return constant;
    std::vector<double> value(static_cast<size_t>(channel->width));
    if (before) {
      EvaluateChannelBefore(*channel, seconds, value.data());
    } else {
      EvaluateChannel(*channel, seconds, value.data());
    }
    return value;
  }
};

// Compares two sides over `times`; appends every sample's error to `all_errors`. Where a step side
// jumps, the error at that time is the larger of the values' and their left limits' (what a player
// shows just before the key); two rotations' largest samples are refined (RefinePeaks).
void Measure(Path path, const Side& a, const Side& b, std::vector<double> times, ChannelDiff* diff,
             std::vector<double>* all_errors) {
  const std::vector<double> jumps = JumpTimes({a.channel, b.channel});
  std::vector<double> errors;
  errors.reserve(times.size());
  for (const double t : times) {
    double error = DiffError(path, a.At(t), b.At(t));
    if (IsJump(jumps, t)) error = std::max(error, DiffError(path, a.At(t, true), b.At(t, true)));
    errors.push_back(error);
  }
  // Between samples translations, scales and weights (linear, or cubic within its chord bound)
  // differ by at most their ends' difference: a distance between two straight lines is convex,
  // a ratio of two is monotonic. Two rotations' angle is neither.
  if (path == Path::kRotation) {
    RefinePeaks([&](double t) { return DiffError(path, a.At(t), b.At(t)); }, kRefinedPeaks, &times,
                &errors, &diff->adaptive_samples);
  }
  SetFromErrors(times, errors, diff);
  all_errors->insert(all_errors->end(), errors.begin(), errors.end());
}

UnitDiff Summarize(const std::vector<const ChannelDiff*>& channels, std::vector<double> errors) {
  UnitDiff unit;
  unit.channels = channels.size();
  unit.samples = errors.size();
  unit.p99 = Percentile99(std::move(errors));
  for (const ChannelDiff* channel : channels) {
    if (channel->max > unit.max) {
      unit.max = channel->max;
      unit.worst_node = channel->node;
      unit.time_of_max_seconds = channel->time_of_max_seconds;
    }
  }
  return unit;
}

void MeasureHierarchical(const Asset& a, const Clip& ca, const Asset& b, const Clip& cb,
                         const DiffOptions& options, ClipDiff* diff) {
  // Both clips are posed on one skeleton, so the error is the clips' and not the rigs': a Unity
  // CSV has no rest pose (zero-length bones) and would otherwise differ from its glTF by the
  // bone lengths. A's skeleton, or B's when only B knows its rest pose.
  const Rig& skeleton = a.rig.rest_pose_known || !b.rig.rest_pose_known ? a.rig : b.rig;
  std::vector<double> key_times;
  std::vector<const Channel*> channels;
  for (const Clip* clip : {&ca, &cb}) {
    for (const Channel& channel : clip->channels) {
      key_times.insert(key_times.end(), channel.times_seconds.begin(), channel.times_seconds.end());
      if (channel.path != Path::kWeights) channels.push_back(&channel);
    }
  }
  const std::vector<double> times =
      AdaptiveTimes(SampleTimes(std::move(key_times), options.samples_between_keys), channels,
                    options.cubic_chord_fraction, &diff->hierarchical_adaptive_samples);
  const double distance = *options.hierarchical_distance_metres;
  const Poser pose_a(skeleton, a.rig, ca);
  const Poser pose_b(skeleton, b.rig, cb);
  // Where a step channel jumps, the poses just before count too (their left limits).
  const std::vector<double> jumps = JumpTimes(channels);
  std::vector<std::vector<double>> errors(skeleton.nodes.size());
  for (const double t : times) {
    const bool jump = IsJump(jumps, t);
    for (const bool before : {false, true}) {
      if (before && !jump) continue;
      const std::vector<glm::dmat4> world_a = pose_a.PoseAt(t, nullptr, before);
      const std::vector<glm::dmat4> world_b = pose_b.PoseAt(t, nullptr, before);
      for (size_t n = 0; n < skeleton.nodes.size(); ++n) {
        double error = 0;
        for (size_t axis = 0; axis < 3; ++axis) {
          glm::dvec4 point(0, 0, 0, 1);
          point[static_cast<glm::length_t>(axis)] = distance;
          const glm::dvec4 in_a = world_a[n] * point;
          const glm::dvec4 in_b = world_b[n] * point;
          error = std::max(error, ValueError(Path::kTranslation, &in_a[0], 3, &in_b[0], 3));
        }
        if (before) {
          errors[n].back() = std::max(errors[n].back(), error);
        } else {
          errors[n].push_back(error);
        }
      }
    }
  }
  std::vector<double> all_errors;
  for (size_t n = 0; n < skeleton.nodes.size(); ++n) {
    ChannelDiff node;
    node.node = skeleton.nodes[n].name;
    node.unit = "m";
    node.samples = errors[n].size();
    for (size_t s = 0; s < errors[n].size(); ++s) {
      if (s == 0 || errors[n][s] > node.max) {
        node.max = errors[n][s];
        node.time_of_max_seconds = times[s];
      }
    }
    node.p99 = Percentile99(errors[n]);
    all_errors.insert(all_errors.end(), errors[n].begin(), errors[n].end());
    diff->hierarchical.push_back(std::move(node));
  }
  std::vector<const ChannelDiff*> nodes;
  for (const ChannelDiff& node : diff->hierarchical) nodes.push_back(&node);
  diff->hierarchical_overall = Summarize(nodes, std::move(all_errors));
}

// What a player shows of the node when no channel animates it: its rest TRS, and for weights the
// mesh's default weights (glTF mesh.weights, which GLTFLoader sets as the morph influences), else
// 0. RestValue's zeros compared a clip that leaves a mesh at its 0.7 default with one holding 0 as
// the same.
std::vector<double> ShownAtRest(const Node& node, Path path) {
  if (path == Path::kWeights &&
      node.morph_default_weights.size() == static_cast<size_t>(node.morph_target_count)) {
    return node.morph_default_weights;
  }
  return RestValue(node, path);
}

// Whether the pair is a VRM Animation expression: a translation channel of an expression node
// (Node::vrma_role), whose x is the expression's weight (VRMC_vrm_animation; three-vrm-animation
// reads x alone, unclamped, linear even from a STEP sampler, and leaves an expression without a
// track at 0).
bool IsExpressionPair(const Asset& a, const Asset& b, const ChannelPair& pair) {
  if ((pair.a ? *pair.a : *pair.b).path != Path::kTranslation) return false;
  const auto expression = [](const Rig& rig, int n) {
    if (n < 0) return false;
    const std::optional<VrmaRole>& role = rig.nodes[static_cast<size_t>(n)].vrma_role;
    return role && role->kind != VrmaRole::Kind::kLookAt;
  };
  return expression(a.rig, pair.node_a) || expression(b.rig, pair.node_b);
}

// An expression node's translation channel as the one weight it plays. A STEP track plays linear:
// three-vrm-animation makes a NumberKeyframeTrack of it without its interpolation (as `convert`
// reads it onto a model, pipeline/vrm_expression_binds.cpp).
Channel ExpressionWeight(const Channel& translation) {
  Channel weight = translation;
  weight.path = Path::kWeights;
  if (weight.interpolation == Interpolation::kStep) weight.interpolation = Interpolation::kLinear;
  weight.width = 1;
  weight.values.clear();
  for (size_t i = 0; i < translation.values.size(); i += 3) {
    weight.values.push_back(translation.values[i]);
  }
  return weight;
}

BoneDiff& BoneFor(const std::string& node, std::vector<BoneDiff>* bones) {
  for (BoneDiff& bone : *bones) {
    if (bone.node == node) return bone;
  }
  bones->emplace_back();
  bones->back().node = node;
  return bones->back();
}

}  // namespace

ClipDiff DiffClips(const Asset& a, const Clip& ca, const Asset& b, const Clip& cb,
                   const DiffOptions& options) {
  if (a.coordinates.handedness != b.coordinates.handedness) {
    ThrowUsage("the clips to compare differ in handedness; convert one first (ConvertHandedness)");
  }
  if (options.samples_between_keys < 0) ThrowUsage("samples between keys must be 0 or more");
  if (!(options.cubic_chord_fraction >= 0))
    ThrowUsage("the cubic chord fraction must be 0 or more");
  ClipDiff diff;
  diff.clip_a = ca.name;
  diff.clip_b = cb.name;
  diff.duration_difference_seconds = cb.duration() - ca.duration();

  // Pairs first, so that the space can be chosen from every compared node before measuring.
  std::vector<ChannelPair> pairs;
  std::vector<bool> b_used(cb.channels.size(), false);
  for (const Channel& channel_a : ca.channels) {
    const int node_b = MatchNode(b.rig, a.rig, channel_a.node);
    const Channel* channel_b = nullptr;
    for (size_t c = 0; c < cb.channels.size() && node_b >= 0 && !channel_b; ++c) {
      if (!b_used[c] && cb.channels[c].node == node_b && cb.channels[c].path == channel_a.path) {
        b_used[c] = true;
        channel_b = &cb.channels[c];
      }
    }
    pairs.push_back({&channel_a, channel_b, channel_a.node, node_b});
  }
  PairMorphChannels(a, b, cb, &pairs, &b_used);
  for (size_t c = 0; c < cb.channels.size(); ++c) {
    if (b_used[c]) continue;
    const Channel& channel_b = cb.channels[c];
    pairs.push_back({nullptr, &channel_b, MatchNode(a.rig, b.rig, channel_b.node), channel_b.node});
  }
  const SpaceChoice space = ChooseSpace(a, b, pairs, options.space);
  diff.space = space.space;
  diff.space_reason = space.reason;
  diff.translation_scale = space.translation_scale;
  diff.turn_b = !space.turn_b.IsIdentity();
  diff.turn_b_matrix = space.turn_b.Matrix();

  std::map<std::string, std::vector<double>> unit_errors;
  std::vector<ChannelDiff> world;
  if (space.space == DiffSpace::kWorld) {
    MeasureWorld(a, ca, b, cb, pairs, options, space, &world, &unit_errors, &diff.adaptive_samples);
  }
  for (size_t p = 0; p < pairs.size(); ++p) {
    const ChannelPair& pair = pairs[p];
    const Channel* channel_a = pair.a;
    const Channel* channel_b = pair.b;
    const int node_a = pair.node_a;
    const int node_b = pair.node_b;
    const Channel& any = channel_a ? *channel_a : *channel_b;
    ChannelDiff channel;
    const bool expression = IsExpressionPair(a, b, pair);
    const Path measured = expression ? Path::kWeights : any.path;
    if (space.space == DiffSpace::kWorld && !ComparedAsValues(a, b, pair)) {
      channel = std::move(world[p]);
    } else {
      channel.path = any.path;
      channel.unit = PrintedUnit(measured);
      // The missing side holds the other rig's rest value, else this rig's own.
      const Node& rest_node = channel_a ? (node_b >= 0 ? b.rig.nodes[static_cast<size_t>(node_b)]
                                                       : a.rig.nodes[static_cast<size_t>(node_a)])
                                        : (node_a >= 0 ? a.rig.nodes[static_cast<size_t>(node_a)]
                                                       : b.rig.nodes[static_cast<size_t>(node_b)]);
      std::vector<double> key_times;
      Channel prepared_a;
      Channel prepared_b;
      if (channel_a)
        prepared_a = expression ? ExpressionWeight(*channel_a) : Renormalized(*channel_a);
      if (channel_b)
        prepared_b = expression ? ExpressionWeight(*channel_b) : Renormalized(*channel_b);
      if (any.path == Path::kWeights && channel_a && channel_b) {
        AlignMorphTargets(&a.rig.nodes[static_cast<size_t>(node_a)],
                          &b.rig.nodes[static_cast<size_t>(node_b)], &prepared_a, &prepared_b);
      }
      const int width = channel_a ? prepared_a.width : prepared_b.width;
      // The other rig's node may have another morph target count: compare against zeros then.
      std::vector<double> rest =
          expression ? std::vector<double>{0} : ShownAtRest(rest_node, any.path);
      rest.resize(static_cast<size_t>(width), 0.0);
      Side side_a;
      Side side_b;
      if (channel_a) {
        side_a.channel = &prepared_a;
        key_times = channel_a->times_seconds;
      } else {
        side_a.constant = rest;
      }
      if (channel_b) {
        side_b.channel = &prepared_b;
        key_times.insert(key_times.end(), channel_b->times_seconds.begin(),
                         channel_b->times_seconds.end());
      } else {
        side_b.constant = rest;
      }
      const std::vector<double> times =
          AdaptiveTimes(SampleTimes(std::move(key_times), options.samples_between_keys),
                        {side_a.channel ? side_a.channel : side_b.channel,
                         side_b.channel ? side_b.channel : side_a.channel},
                        options.cubic_chord_fraction, &channel.adaptive_samples);
      Measure(measured, side_a, side_b, times, &channel, &unit_errors[channel.unit]);
      diff.adaptive_samples += channel.adaptive_samples;
    }
    channel.node = node_a >= 0 ? a.rig.nodes[static_cast<size_t>(node_a)].name
                               : b.rig.nodes[static_cast<size_t>(node_b)].name;
    if (node_b >= 0) channel.node_b = b.rig.nodes[static_cast<size_t>(node_b)].name;
    channel.path = any.path;
    channel.unit = PrintedUnit(measured);
    channel.only_in_a = !channel_b;
    channel.only_in_b = !channel_a;
    const std::string name = fmt::format("{}.{}", channel.node, PathName(channel.path));
    if (channel.only_in_a) diff.only_in_a.push_back(name);
    if (channel.only_in_b) diff.only_in_b.push_back(name);
    diff.channels.push_back(std::move(channel));
  }

  for (const char* unit : kUnits) {
    std::vector<const ChannelDiff*> channels;
    for (const ChannelDiff& channel : diff.channels) {
      if (channel.unit == unit) channels.push_back(&channel);
    }
    diff.overall[unit] = Summarize(channels, std::move(unit_errors[unit]));
  }
  for (const ChannelDiff& channel : diff.channels) {
    BoneDiff& bone = BoneFor(channel.node, &diff.bones);
    double* slot = channel.unit == PrintedUnit(Path::kRotation)      ? &bone.rotation_deg
                   : channel.unit == PrintedUnit(Path::kTranslation) ? &bone.translation_m
                   : channel.unit == PrintedUnit(Path::kScale)       ? &bone.scale_ratio
                                                                     : &bone.weight;
    *slot = std::max(*slot, channel.max);
  }
  if (options.hierarchical_distance_metres) {
    MeasureHierarchical(a, ca, b, cb, options, &diff);
    for (const ChannelDiff& node : diff.hierarchical) {
      for (BoneDiff& bone : diff.bones) {
        if (bone.node == node.node) bone.hierarchical_m = node.max;
      }
    }
  }
  return diff;
}

}  // namespace animconv
