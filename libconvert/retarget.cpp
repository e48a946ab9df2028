#include "animconv/retarget.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "animconv/error.h"
#include "animconv/humanoid_pose.h"
#include "animconv/quaternion.h"
#include "animconv/rest_pose.h"
#include "animconv/sample.h"
#include "libconvert/body_frame.h"
#include "libconvert/parallel.h"
#include "libconvert/rest_heights.h"
#include "libconvert/rest_tpose.h"

namespace animconv {
namespace {

constexpr Quat kIdentity{0, 0, 0, 1};
// Beyond this a rest pose's facing off its body frame's axis is warned about (Retarget).
constexpr double kOffAxisDegrees = 10;

using NodeOfBone = std::array<int, kHumanBoneCount>;

NodeOfBone MapBones(const Rig& rig) {
  NodeOfBone nodes;
  nodes.fill(-1);
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    if (rig.nodes[n].human_bone) nodes[static_cast<size_t>(*rig.nodes[n].human_bone)] = int(n);
  }
  return nodes;
}

// A constant rotation on each side: q -> left · q · right.
struct Sandwich {
  Quat left = kIdentity;
  Quat right = kIdentity;
  Quat Product(const Quat& q) const { return Multiply(Multiply(left, q), right); }
  Quat Apply(const Quat& q) const { return Normalized(Product(q)); }
};

class Retargeter {
 public:
  Retargeter(const Asset& source, const Rig& target, Facing target_facing,
             const RetargetOptions& options, RetargetReport& report)
      : source_(source),
        target_(target),
        source_rest_(source.rig),
        target_rest_(target),
        source_bones_(MapBones(source.rig)),
        target_bones_(MapBones(target)),
        source_frame_(BodyFrame(source.rig, source.coordinates.facing, &source_frame_measured_)),
        target_frame_(BodyFrame(target, target_facing, &target_frame_measured_)),
        turn_(target_frame_.After(source_frame_.Inverse())),
        source_swing_(SwingToTPose(source.rig, kPosedLimbDegrees)),
        target_swing_(SwingToTPose(target, kPosedLimbDegrees)),
        options_(options),
        report_(report) {}

  const TPoseSwing& source_swing() const { return source_swing_; }
  // The rigs' body frames, and whether each rig's rest pose gave it (BodyFrame).
  const AxisTurn& source_frame() const { return source_frame_; }
  const AxisTurn& target_frame() const { return target_frame_; }
  bool source_frame_measured() const { return source_frame_measured_; }
  bool target_frame_measured() const { return target_frame_measured_; }
  const TPoseSwing& target_swing() const { return target_swing_; }

  // `owned`: `clip` itself, when its rotation channels may be taken (RetargetClipsConsuming).
  Clip Run(const Clip& clip, Clip* owned) {
    first_key_seconds_ = 0;
    bool keyed = false;
    for (const Channel& channel : clip.channels) {
      if (channel.times_seconds.empty()) continue;
      first_key_seconds_ = keyed ? std::min(first_key_seconds_, channel.times_seconds.front())
                                 : channel.times_seconds.front();
      keyed = true;
    }
    Clip out;
    out.name = clip.name;
    out.duration_seconds = clip.duration_seconds;
    std::vector<const Channel*> rotation(source_.rig.nodes.size(), nullptr);
    for (const Channel& channel : clip.channels) {
      if (channel.path == Path::kRotation) rotation[static_cast<size_t>(channel.node)] = &channel;
    }
    // Which source channels each target bone carries, in bone order; then every bone's keys,
    // which read every key of its channels, on every core for a large clip.
    std::set<const Channel*> used;
    std::vector<BonePlan> plans;
    for (size_t bone = 0; bone < kHumanBoneCount; ++bone) {
      if (target_bones_[bone] < 0) continue;
      if (auto plan = PlanBone(static_cast<HumanBone>(bone), rotation, used)) {
        plans.push_back(std::move(*plan));
      }
    }
    std::vector<HumanBone> held;
    const Alignment alignment = AlignTarget(plans, &held);
    // A bone without a channel whose rest the alignment turns is held there by a constant key:
    // a posed limb the input never moves (its channel dropped as equal to its rest) played in the
    // T-pose, 41-47° off (review of session 35).
    for (const HumanBone bone : held) plans.push_back(BonePlan{bone, {}, {}});
    std::stable_sort(plans.begin(), plans.end(),
                     [](const BonePlan& a, const BonePlan& b) { return a.bone < b.bone; });
    for (BonePlan& plan : plans) plan.to_target = FromNormalized(plan.bone, alignment);
    size_t keys = 0;
    std::map<const Channel*, int> parts_of;  // how many plans read each channel
    for (const BonePlan& plan : plans) {
      for (const auto& part : plan.parts) {
        keys += part.first->key_count();
        ++parts_of[part.first];
      }
    }
    if (owned != nullptr) {
      for (BonePlan& plan : plans) {
        const Channel* only = plan.parts.size() == 1 ? plan.parts[0].first : nullptr;
        if (only == nullptr || parts_of[only] != 1) continue;
        plan.taken = &owned->channels[static_cast<size_t>(only - clip.channels.data())];
      }
    }
    std::vector<Channel> bones(plans.size());
    ParallelFor(
        plans.size(), [&](size_t b) { bones[b] = RetargetBone(plans[b]); },
        keys >= kParallelKeys ? 0 : 1);
    for (Channel& channel : bones) {
      out.channels.push_back(std::move(channel));
      ++report_.bones;
    }
    for (const Channel& channel : clip.channels) {
      if (used.count(&channel)) continue;
      if (auto moved = MoveOtherChannel(channel)) {
        out.channels.push_back(std::move(*moved));
      } else {
        ++report_.dropped_channels;
      }
    }
    return out;
  }

 private:
  // Raw source local rotation -> normalised, +Z or the target's facing: the node's change from
  // rest in world axes, P·A·R⁻¹·P⁻¹. The product of these from the root down to a node is the
  // node's world rotation relative to its rest, W(t)·W(rest)⁻¹.
  Sandwich ToNormalized(int node) const {
    if (!source_.rig.rest_pose_known) return {};
    const Quat parent = source_rest_.ParentWorldRotation(node);
    const Quat rest = source_.rig.nodes[static_cast<size_t>(node)].rest_rotation;
    return {parent, Multiply(Conjugate(rest), Conjugate(parent))};
  }

  // The source bones whose rotations the target bone carries: itself, then every bone above it
  // up to (not including) the nearest one the target has. A bone the target lacks is folded
  // into its children this way (VRM how_to_transform_human_pose.md).
  std::vector<HumanBone> Segment(HumanBone bone) const {
    std::vector<HumanBone> segment = {bone};
    for (auto a = GetHumanBoneInfo(bone).parent; a && target_bones_[static_cast<size_t>(*a)] < 0;
         a = GetHumanBoneInfo(*a).parent) {
      segment.push_back(*a);
    }
    return segment;
  }

  // The source nodes between `node` and the nearest humanoid node above it, top down: joints a
  // humanoid has no name for (CMU's LowerBack, Neck1, LHipJoint; a Biovision Chest4). Their
  // rotation belongs to the humanoid bone below them, or the motion they carry is lost.
  std::vector<int> UnmappedAbove(int node) const {
    std::vector<int> nodes;
    for (int p = source_.rig.nodes[static_cast<size_t>(node)].parent;
         p >= 0 && !source_.rig.nodes[static_cast<size_t>(p)].human_bone;
         p = source_.rig.nodes[static_cast<size_t>(p)].parent) {
      nodes.push_back(p);
    }
    std::reverse(nodes.begin(), nodes.end());
    return nodes;
  }

  // What one target bone is made of: (channel, to-normalised) pairs from the top of its segment
  // down to the bone, and the way from normalised to the target's raw rotation.
  struct BonePlan {
    HumanBone bone;
    std::vector<std::pair<const Channel*, Sandwich>> parts;
    Sandwich to_target;
    // The one part's channel, when the bone may take its times and values (RetargetBone).
    Channel* taken = nullptr;
  };
  static constexpr size_t kParallelKeys = 25000;

  // What each target node's world holds beyond the normalised motion N, a constant turn C: its
  // world at a key is N·C·W' (W' its rest world rotation). C = S⁻¹·S', S the source bone's swing
  // from its rest to the T-pose (turned as N is), S' the target bone's (SwingToTPose): a limb the
  // source holds down at rest is down on the target when N is the identity, and where the target
  // holds one down, N acts on its T-pose. Identity for both rigs drawn in a T-pose. A node
  // without a channel of its own turns with its parent, unless it is a humanoid bone both rigs
  // have whose own C differs: `held` receives those, which need a constant key.
  // (docs/retargeting.md, "Rest poses")
  struct Alignment {
    std::vector<Quat> turn;  // C per target node
    std::vector<bool> any;   // C is not the identity
  };
  Alignment AlignTarget(const std::vector<BonePlan>& plans, std::vector<HumanBone>* held) const {
    Alignment alignment{std::vector<Quat>(target_.nodes.size(), kIdentity),
                        std::vector<bool>(target_.nodes.size(), false)};
    std::vector<int> source_of(target_.nodes.size(), -1);  // the source node a bone stands for
    std::vector<bool> planned(target_.nodes.size(), false);
    for (size_t bone = 0; bone < kHumanBoneCount; ++bone) {
      if (target_bones_[bone] >= 0) {
        source_of[static_cast<size_t>(target_bones_[bone])] = source_bones_[bone];
      }
    }
    for (const BonePlan& plan : plans) {
      const size_t n = static_cast<size_t>(target_bones_[static_cast<size_t>(plan.bone)]);
      planned[n] = true;
      if (source_of[n] < 0) source_of[n] = plan.parts.back().first->node;
    }
    for (const size_t n : ParentsFirst(target_)) {
      const int parent = target_.nodes[n].parent;
      Quat inherited = kIdentity;
      bool inherited_any = false;
      if (parent >= 0) {
        inherited = alignment.turn[static_cast<size_t>(parent)];
        inherited_any = alignment.any[static_cast<size_t>(parent)];
      }
      alignment.turn[n] = inherited;
      alignment.any[n] = inherited_any;
      const int s = source_of[n];
      if (s < 0) continue;
      const size_t source_node = static_cast<size_t>(s);
      const bool any = source_swing_.swung[source_node] || target_swing_.swung[n];
      Quat undo = Conjugate(source_swing_.world[source_node]);
      undo = turn_.Apply(undo);
      const Quat own = Multiply(undo, target_swing_.world[n]);
      if (!planned[n]) {
        if (!any && !inherited_any) continue;
        if (AngleBetween(Normalized(own), Normalized(inherited)) <= 1e-12) continue;
        held->push_back(*target_.nodes[n].human_bone);
      }
      alignment.turn[n] = own;
      alignment.any[n] = any;
    }
    return alignment;
  }

  // Normalised -> raw target local rotation: B = P'⁻¹·N·P'·R', and with the rest poses aligned
  // (AlignTarget) B = P'⁻¹·Cp⁻¹·N·C·P'·R', Cp the parent's C.
  Sandwich FromNormalized(HumanBone bone, const Alignment& alignment) const {
    const int node = target_bones_[static_cast<size_t>(bone)];
    const Quat parent = target_rest_.ParentWorldRotation(node);
    Sandwich sandwich{Conjugate(parent),
                      Multiply(parent, target_.nodes[static_cast<size_t>(node)].rest_rotation)};
    const int parent_node = target_.nodes[static_cast<size_t>(node)].parent;
    if (parent_node >= 0 && alignment.any[static_cast<size_t>(parent_node)]) {
      sandwich.left =
          Multiply(sandwich.left, Conjugate(alignment.turn[static_cast<size_t>(parent_node)]));
    }
    if (alignment.any[static_cast<size_t>(node)]) {
      sandwich.right = Multiply(alignment.turn[static_cast<size_t>(node)], sandwich.right);
    }
    return sandwich;
  }

  std::optional<BonePlan> PlanBone(HumanBone bone, const std::vector<const Channel*>& rotation,
                                   std::set<const Channel*>& used) {
    std::vector<std::pair<const Channel*, Sandwich>> parts;
    const std::vector<HumanBone> segment = Segment(bone);
    for (auto it = segment.rbegin(); it != segment.rend(); ++it) {
      const int node = source_bones_[static_cast<size_t>(*it)];
      if (node < 0) continue;
      for (const int between : UnmappedAbove(node)) {
        if (const Channel* channel = rotation[static_cast<size_t>(between)]) {
          parts.emplace_back(channel, ToNormalized(between));
          used.insert(channel);
        }
      }
      if (!rotation[static_cast<size_t>(node)]) continue;
      parts.emplace_back(rotation[static_cast<size_t>(node)], ToNormalized(node));
      used.insert(rotation[static_cast<size_t>(node)]);
      if (*it != bone) {
        folded_.insert(*it);
        report_.folded = folded_.size();
      }
    }
    if (parts.empty()) return std::nullopt;
    return BonePlan{bone, std::move(parts), {}};  // to_target: once every bone is planned
  }

  // The bone's channel: keyed at every key of its parts. Reads only; safe on any thread.
  Channel RetargetBone(const BonePlan& plan) const {
    const std::vector<std::pair<const Channel*, Sandwich>>& parts = plan.parts;
    Channel out;
    out.node = target_bones_[static_cast<size_t>(plan.bone)];
    out.path = Path::kRotation;
    out.width = 4;
    out.interpolation = Interpolation::kStep;
    for (const auto& part : parts) {
      if (part.first->interpolation != Interpolation::kStep) {
        out.interpolation = Interpolation::kLinear;
      }
    }
    // A part keyed at exactly the bone's times is read key by key: what its cursor would give
    // there (EvaluateInSegment copies a key's value at its own time), without the search.
    std::vector<const double*> keyed_alike(parts.size(), nullptr);
    if (plan.taken != nullptr) {
      // Its keys are the bone's, each read (in the block below) before it is written over.
      out.times_seconds = std::move(plan.taken->times_seconds);
      out.values = std::move(plan.taken->values);
      plan.taken->times_seconds.clear();
      plan.taken->values.clear();
      keyed_alike[0] = out.values.data();
    } else if (parts.empty()) {
      // Held at its aligned rest (AlignTarget's `held`): one key, the identity's image.
      out.interpolation = Interpolation::kLinear;
      out.times_seconds = {first_key_seconds_};
      out.values.assign(4, 0);
      StoreQuat(plan.to_target.Apply(kIdentity), out.values.data());
      return out;
    } else {
      for (const auto& part : parts) {
        out.times_seconds.insert(out.times_seconds.end(), part.first->times_seconds.begin(),
                                 part.first->times_seconds.end());
      }
      if (parts.size() > 1) {  // one channel's keys are sorted and unique already
        std::sort(out.times_seconds.begin(), out.times_seconds.end());
        out.times_seconds.erase(std::unique(out.times_seconds.begin(), out.times_seconds.end()),
                                out.times_seconds.end());
      }
      out.values.resize(out.times_seconds.size() * 4);
      for (size_t p = 0; p < parts.size(); ++p) {
        const Channel& channel = *parts[p].first;
        if (channel.times_seconds == out.times_seconds) keyed_alike[p] = channel.key_value(0);
      }
    }
    // Per key: the parts' normalised rotations multiplied in order, turned, then the target's
    // sandwich. Done for a block of keys one step at a time: each key's chain of products, square
    // roots and divisions is independent of the others', and a whole block per step lets the
    // processor work on several keys at once, where one key at a time waited on its own chain
    // (about 40 ns a key; issue 18). The same operations in the same order for every key: the same
    // bits as Apply key by key.
    constexpr size_t kBlockKeys = 16;
    std::array<Quat, kBlockKeys> part_rotation;
    std::array<Quat, kBlockKeys> bone_rotation;
    // The keys rise: each part goes on from where it was (EvaluateChannel's values, the same bits).
    std::vector<ChannelCursor> cursors(parts.size());
    const size_t keys = out.times_seconds.size();
    for (size_t first = 0; first < keys; first += kBlockKeys) {
      const size_t count = std::min(kBlockKeys, keys - first);
      bone_rotation.fill(kIdentity);
      for (size_t p = 0; p < parts.size(); ++p) {
        const Sandwich& to_normalized = parts[p].second;
        for (size_t j = 0; j < count; ++j) {
          if (keyed_alike[p] != nullptr) {
            part_rotation[j] = LoadQuat(keyed_alike[p] + (first + j) * 4);
          } else {
            cursors[p].Evaluate(*parts[p].first, out.times_seconds[first + j],
                                part_rotation[j].data());
          }
        }
        for (size_t j = 0; j < count; ++j)
          part_rotation[j] = to_normalized.Product(part_rotation[j]);
        for (size_t j = 0; j < count; ++j) part_rotation[j] = Normalized(part_rotation[j]);
        for (size_t j = 0; j < count; ++j) {
          bone_rotation[j] = Multiply(bone_rotation[j], part_rotation[j]);
        }
      }
      if (!turn_.IsIdentity()) {
        for (size_t j = 0; j < count; ++j) bone_rotation[j] = turn_.Apply(bone_rotation[j]);
      }
      for (size_t j = 0; j < count; ++j)
        bone_rotation[j] = plan.to_target.Product(bone_rotation[j]);
      for (size_t j = 0; j < count; ++j) {
        StoreQuat(Normalized(bone_rotation[j]), &out.values[(first + j) * 4]);
      }
    }
    return out;
  }

  // The scale of the hips translation (RetargetOptions::hips_scale), 1 with a note when a length
  // is missing or degenerate.
  double HipsTranslationScale() {
    if (options_.hips_scale == HipsScale::kNone) return 1;
    const RestMeasures source(source_.rig);
    const RestMeasures target(target_);
    double source_floor = 0;
    double from = source.HipsHeight(&source_floor);
    double to = target.HipsHeight();
    const char* what = "rest hips height";
    if (options_.hips_scale == HipsScale::kLegLength) {
      const std::optional<double> source_legs = source.LegLength();
      const std::optional<double> target_legs = target.LegLength();
      if (!source_legs || !target_legs) {
        report_.notes.push_back(fmt::format(
            "--hips-scale leg: the {} has no upper leg, lower leg and foot on either side; the "
            "hips translation is scaled by the hips heights instead",
            source_legs ? "target" : "source"));
      } else {
        from = *source_legs;
        to = *target_legs;
        what = "rest leg length";
        report_.hips_scale_basis = HipsScale::kLegLength;
      }
    }
    if (from <= 1e-3 || to <= 1e-3) {
      report_.notes.push_back(fmt::format("hips translation not scaled: a {} is {} m (≤ 1 mm)",
                                          what, std::min(from, to)));
      return 1;
    }
    report_.hips_scale = to / from;
    if (source_floor < 0 && report_.hips_scale_basis == HipsScale::kHipsHeight) {
      report_.source_feet_floor_metres = source_floor;
    }
    report_.source_length_metres = from;
    report_.target_length_metres = to;
    return to / from;
  }

  std::optional<Channel> MoveHipsTranslation(const Channel& channel) {
    const int source_hips = source_bones_[static_cast<size_t>(HumanBone::kHips)];
    const int target_hips = target_bones_[static_cast<size_t>(HumanBone::kHips)];
    if (target_hips < 0) return std::nullopt;
    const double scale = HipsTranslationScale();
    Channel out = channel;
    out.node = target_hips;
    // Cubic channels are rejected by the caller's contract, so every element is a position.
    for (size_t i = 0; i + 3 <= out.values.size(); i += 3) {
      Vec3 p = {out.values[i], out.values[i + 1], out.values[i + 2]};
      if (source_.rig.rest_pose_known) p = source_rest_.ParentToWorld(source_hips, p);
      p = turn_.Apply(p);
      p = {p[0] * scale, p[1] * scale, p[2] * scale};
      p = target_rest_.WorldToParent(target_hips, p);
      std::copy(p.begin(), p.end(), out.values.begin() + static_cast<std::ptrdiff_t>(i));
    }
    return out;
  }

  // Hips translation is retargeted; other humanoid channels (translation, scale) have no
  // meaning on another rig; non-humanoid channels go to a target node of the same name.
  std::optional<Channel> MoveOtherChannel(const Channel& channel) {
    const Node& node = source_.rig.nodes[static_cast<size_t>(channel.node)];
    if (node.human_bone) {
      if (*node.human_bone == HumanBone::kHips && channel.path == Path::kTranslation) {
        return MoveHipsTranslation(channel);
      }
      return std::nullopt;
    }
    for (size_t n = 0; n < target_.nodes.size(); ++n) {
      const Node& candidate = target_.nodes[n];
      if (candidate.name != node.name || candidate.human_bone) continue;
      if (channel.path == Path::kWeights &&
          candidate.morph_target_count != node.morph_target_count) {
        return std::nullopt;
      }
      Channel out = channel;
      out.node = static_cast<int>(n);
      ++report_.copied;
      return out;
    }
    return std::nullopt;
  }

  const Asset& source_;
  const Rig& target_;
  RestPose source_rest_;
  RestPose target_rest_;
  NodeOfBone source_bones_;
  NodeOfBone target_bones_;
  bool source_frame_measured_ = false;
  bool target_frame_measured_ = false;
  // Each rig's body frame (BodyFrame), and the turn from the source's world to the target's,
  // T = B'·B⁻¹: normalised rotations and the hips' positions go through it (the half turn about
  // +Y between ±Z facings; a quarter turn about X for a rig drawn Z-up).
  AxisTurn source_frame_;
  AxisTurn target_frame_;
  AxisTurn turn_;
  TPoseSwing source_swing_;
  TPoseSwing target_swing_;
  double first_key_seconds_ = 0;  // the clip's first key: a held bone's one key (Run)
  const RetargetOptions& options_;
  RetargetReport& report_;
  std::set<HumanBone> folded_;
};

}  // namespace

namespace {

std::vector<Clip> Retarget(const Asset& source, std::vector<Clip>* owned_clips, const Rig& target,
                           Facing target_facing, const RetargetOptions& options,
                           RetargetReport* report) {
  for (const Clip& clip : source.clips) {
    for (const Channel& channel : clip.channels) {
      if (channel.interpolation == Interpolation::kCubicSpline) {
        ThrowInternal("RetargetClips: bake cubic-spline channels first");
      }
    }
  }
  RetargetReport local;
  RetargetReport& out = report ? *report : local;
  Retargeter retargeter(source, target, target_facing, options, out);
  // A rest pose with limbs away from the T-pose is aligned to it (AlignTarget); the note names
  // them. Before, such a rest was taken for the T-pose: a mocap BVH standing arms down played its
  // arms 84 degrees off on a VRM with exit 0 (the review of session 34).
  for (const auto& [swing, which] :
       {std::pair<const TPoseSwing&, const char*>{retargeter.source_swing(), "the input's"},
        std::pair<const TPoseSwing&, const char*>{retargeter.target_swing(), "the target's"}}) {
    const std::string note = LimbsSwungNote(swing.limbs, which);
    if (!note.empty()) out.notes.push_back(note);
  }
  // A rig standing other than up +Y and facing ±Z is turned by its body frame; before, only the
  // ±Z facings were, and a BVH drawn Z-up played lying on its back with exit 0 (session 36).
  if (retargeter.source_frame_measured() || retargeter.target_frame_measured()) {
    out.notes.push_back(fmt::format(
        "the input's rest pose stands {}{}, the target's {}{}: the motion is turned from the one "
        "to the other",
        retargeter.source_frame().DescribeUpAndFacing(),
        retargeter.source_frame_measured() ? "" : " (its declared facing)",
        retargeter.target_frame().DescribeUpAndFacing(),
        retargeter.target_frame_measured() ? "" : " (its declared facing)"));
  }
  // Body frames are whole axes: a rig facing between two is turned by the nearer, and its motion
  // plays about axes that far off (docs/retargeting.md, "Up and facing").
  for (const auto& [rig, which] : {std::pair<const Rig&, const char*>{source.rig, "input's"},
                                   std::pair<const Rig&, const char*>{target, "target's"}}) {
    const std::optional<BodyAxes> axes = RestBodyAxes(rig);
    if (!axes) continue;
    if (LeftOffAxisDegrees(*axes) > kOffAxisDegrees) {
      out.warnings.push_back(fmt::format(
          "the {} rest pose faces {:.3g} deg off the nearest world axis (its left/right limbs "
          "apart along ({:.3f}, {:.3f}, {:.3f})): the motion is turned by that axis, so it turns "
          "about axes that far off and plays wrongly; turn the rig to face a world axis",
          which, LeftOffAxisDegrees(*axes), axes->left[0], axes->left[1], axes->left[2]));
    }
    if (RestTiltDegrees(rig, *axes) > kOffAxisDegrees) {
      out.warnings.push_back(fmt::format(
          "the {} rest pose leans {:.3g} deg off its up axis ({}), head and legs alike: the "
          "motion is turned by that axis, so it turns about axes that far off and plays wrongly; "
          "stand the rig upright along a world axis",
          which, RestTiltDegrees(rig, *axes), UpAxisOf(*axes).Name()));
    }
  }
  std::vector<Clip> clips;
  for (size_t c = 0; c < source.clips.size(); ++c) {
    clips.push_back(retargeter.Run(source.clips[c], owned_clips ? &(*owned_clips)[c] : nullptr));
  }
  // No note for out.folded: the conversion's coverage check (pipeline/coverage.cpp) warns about
  // the same bones by name, and a second, nameless line told the user the fact twice.
  if (out.dropped_channels > 0) {
    out.notes.push_back(fmt::format(
        "{} channel(s) have no place on the target (non-hips translation, scale, eyes, or nodes "
        "the target lacks) and were dropped",
        out.dropped_channels));
  }
  return clips;
}

}  // namespace

std::vector<Clip> RetargetClips(const Asset& source, const Rig& target, Facing target_facing,
                                const RetargetOptions& options, RetargetReport* report) {
  return Retarget(source, nullptr, target, target_facing, options, report);
}

std::vector<Clip> RetargetClipsConsuming(Asset& source, const Rig& target, Facing target_facing,
                                         const RetargetOptions& options, RetargetReport* report) {
  return Retarget(source, &source.clips, target, target_facing, options, report);
}

}  // namespace animconv
