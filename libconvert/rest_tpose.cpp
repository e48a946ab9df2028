#include "libconvert/rest_tpose.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "animconv/humanoid.h"
#include "animconv/humanoid_pose.h"
#include "animconv/rest_pose.h"
#include "libconvert/body_frame.h"
#include "libconvert/vec3_math.h"

namespace animconv {
namespace {

// The arm and leg segments: a bone and the humanoid child its direction points to.
constexpr std::pair<HumanBone, HumanBone> kSegments[] = {
    {HumanBone::kLeftUpperArm, HumanBone::kLeftLowerArm},
    {HumanBone::kLeftLowerArm, HumanBone::kLeftHand},
    {HumanBone::kRightUpperArm, HumanBone::kRightLowerArm},
    {HumanBone::kRightLowerArm, HumanBone::kRightHand},
    {HumanBone::kLeftUpperLeg, HumanBone::kLeftLowerLeg},
    {HumanBone::kLeftLowerLeg, HumanBone::kLeftFoot},
    {HumanBone::kRightUpperLeg, HumanBone::kRightLowerLeg},
    {HumanBone::kRightLowerLeg, HumanBone::kRightFoot}};

// A segment's rest world direction and the T-pose's, unit length.
struct SegmentDirections {
  int node = -1;
  Vec3 rest{};
  Vec3 tpose{};
  double degrees = 0;
  Quat arc{};  // the shortest turn from `rest` to `tpose`
};

Vec3 Unit(const Vec3& v) {
  const double length = std::hypot(v[0], v[1], v[2]);
  return {v[0] / length, v[1] / length, v[2] / length};
}

// The shortest arc from unit `from` to unit `to`. Opposite directions have no shortest arc: the
// half turn is taken about `forward` made square to `from`, as an arm swung sideways.
Quat ShortestArc(const Vec3& from, const Vec3& to, const Vec3& forward) {
  const double dot = Dot(from, to);
  if (dot < -1 + 1e-12) {
    const double along = Dot(forward, from);
    Vec3 axis = {forward[0] - along * from[0], forward[1] - along * from[1],
                 forward[2] - along * from[2]};
    if (std::hypot(axis[0], axis[1], axis[2]) < 1e-6) axis = Cross(from, {0, 1, 0});
    axis = Unit(axis);
    return {axis[0], axis[1], axis[2], 0};
  }
  const Vec3 axis = Cross(from, to);
  return Normalized({axis[0], axis[1], axis[2], 1 + dot});
}

// The segments of `rig` whose both ends it has, apart, each with the turn to its T-pose
// direction: an arm along the body's left or right, a leg down the body.
std::vector<SegmentDirections> MeasureSegments(const Rig& rig) {
  std::vector<SegmentDirections> segments;
  if (!rig.rest_pose_known) return segments;
  const std::optional<BodyAxes> body = RestBodyAxes(rig);
  if (!body) return segments;
  const RestPose rest(rig);
  for (const auto& [bone, child] : kSegments) {
    const int from = HumanBoneNode(rig, bone);
    const int to = HumanBoneNode(rig, child);
    if (from < 0 || to < 0) continue;
    const Vec3 direction = Minus(rest.WorldPosition(to), rest.WorldPosition(from));
    if (std::hypot(direction[0], direction[1], direction[2]) < 1e-9) continue;
    // HumanoidTPosePosition's segment in the body's axes: its x is the left, its y the up.
    const Vec3 t = Unit(Minus(HumanoidTPosePosition(child), HumanoidTPosePosition(bone)));
    const Vec3 tpose = Unit({t[0] * body->left[0] + t[1] * body->up[0] + t[2] * body->forward[0],
                             t[0] * body->left[1] + t[1] * body->up[1] + t[2] * body->forward[1],
                             t[0] * body->left[2] + t[1] * body->up[2] + t[2] * body->forward[2]});
    const Vec3 unit = Unit(direction);
    segments.push_back(
        {from, unit, tpose, DegreesBetween(unit, tpose), ShortestArc(unit, tpose, body->forward)});
  }
  return segments;
}

void SortLargestFirst(std::vector<RestLimbAngle>& limbs) {
  std::stable_sort(limbs.begin(), limbs.end(), [](const RestLimbAngle& a, const RestLimbAngle& b) {
    return a.degrees > b.degrees;
  });
}

std::string NamedLimbs(const std::vector<RestLimbAngle>& limbs) {
  std::vector<std::string> named;
  for (const RestLimbAngle& limb : limbs) {
    named.push_back(fmt::format("{} {:.3g} deg", GetHumanBoneInfo(limb.bone).vrm1, limb.degrees));
  }
  return fmt::format("{}", fmt::join(named, ", "));
}

}  // namespace

TPoseSwing SwingToTPose(const Rig& rig, double threshold_degrees) {
  const size_t count = rig.nodes.size();
  TPoseSwing swing;
  swing.world.assign(count, Quat{0, 0, 0, 1});
  swing.swung.assign(count, false);
  // Each segment's own arc; a measured segment under the threshold keeps its rest (identity)
  // rather than its parent's arc, which would turn a straight forearm off with a lowered arm.
  std::vector<int> own(count, 0);  // 0: turns with its parent; 1: its own arc; -1: identity
  std::vector<Quat> arc(count, Quat{0, 0, 0, 1});
  // The feet stand flat in every rest pose (the VRM T-pose's soles on the floor): they keep their
  // rest rather than turn with a splayed leg, which tilted CMU's soles 20° (review of session 35).
  for (const HumanBone foot : {HumanBone::kLeftFoot, HumanBone::kRightFoot}) {
    const int node = HumanBoneNode(rig, foot);
    if (node >= 0) own[static_cast<size_t>(node)] = -1;
  }
  for (const SegmentDirections& segment : MeasureSegments(rig)) {
    const size_t n = static_cast<size_t>(segment.node);
    if (segment.degrees <= threshold_degrees) {
      own[n] = -1;
      continue;
    }
    own[n] = 1;
    arc[n] = segment.arc;
    swing.limbs.push_back({*rig.nodes[n].human_bone, segment.degrees});
  }
  SortLargestFirst(swing.limbs);
  if (swing.limbs.empty()) return swing;
  for (const size_t n : ParentsFirst(rig)) {
    const int parent = rig.nodes[n].parent;
    if (own[n] != 0) {
      swing.world[n] = arc[n];
      swing.swung[n] = own[n] > 0;
    } else if (parent >= 0) {
      swing.world[n] = swing.world[static_cast<size_t>(parent)];
      swing.swung[n] = swing.swung[static_cast<size_t>(parent)];
    }
  }
  return swing;
}

std::string LimbsSwungNote(const std::vector<RestLimbAngle>& limbs, const std::string& which) {
  if (limbs.empty()) return {};
  return fmt::format(
      "{} rest pose holds {} limb segment(s) away from the T-pose ({}): the motion is measured "
      "from the T-pose, so they play in the directions the input's limbs point",
      which, limbs.size(), NamedLimbs(limbs));
}

}  // namespace animconv
