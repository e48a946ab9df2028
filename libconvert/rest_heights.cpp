#include "libconvert/rest_heights.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "animconv/humanoid_pose.h"
#include "animconv/quaternion.h"
#include "animconv/rest_pose.h"
#include "libconvert/body_frame.h"
#include "libconvert/rest_tpose.h"

namespace animconv {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double Distance(const Vec3& a, const Vec3& b) {
  return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

}  // namespace

RestMeasures::RestMeasures(const Rig& rig) : rig_(rig) {
  if (!rig.rest_pose_known) return;
  // Heights along the body's up (RestBodyAxes): +Y but for a rig drawn otherwise, whose hips
  // height was its depth (a BVH drawn Z-up, session 36).
  up_ = RestUpAxis(rig);
  const RestPose rest(rig);
  const TPoseSwing swing = SwingToTPose(rig, kPosedLimbDegrees);
  positions_.resize(rig.nodes.size());
  // A node below a swung one sits where its parent's swing carries its rest offset from the
  // parent; every other node where it is (the same bits: a rig in a T-pose measures as before).
  std::vector<bool> moved(rig.nodes.size(), false);
  for (const size_t n : ParentsFirst(rig)) {
    const Vec3 at = rest.WorldPosition(static_cast<int>(n));
    const int parent = rig.nodes[n].parent;
    if (parent < 0) {
      positions_[n] = at;
      continue;
    }
    const size_t p = static_cast<size_t>(parent);
    moved[n] = moved[p] || swing.swung[p];
    if (!moved[n]) {
      positions_[n] = at;
      continue;
    }
    const Vec3 from = rest.WorldPosition(parent);
    Vec3 offset = {at[0] - from[0], at[1] - from[1], at[2] - from[2]};
    if (swing.swung[p]) offset = Rotate(swing.world[p], offset);
    positions_[n] = {positions_[p][0] + offset[0], positions_[p][1] + offset[1],
                     positions_[p][2] + offset[2]};
  }
}

double RestMeasures::Height(const Vec3& position) const { return up_.HeightOf(position); }

std::optional<Vec3> RestMeasures::Position(HumanBone bone) const {
  if (!rig_.rest_pose_known) return HumanoidTPosePosition(bone);
  const int node = HumanBoneNode(rig_, bone);
  if (node < 0) return std::nullopt;
  return positions_[static_cast<size_t>(node)];
}

double RestMeasures::HipsHeight(double* floor_out) const {
  const std::optional<Vec3> hips = Position(HumanBone::kHips);
  double floor = 0;
  if (!rig_.vrm_humanoid) {
    for (const HumanBone foot : {HumanBone::kLeftFoot, HumanBone::kRightFoot, HumanBone::kLeftToes,
                                 HumanBone::kRightToes}) {
      if (const std::optional<Vec3> at = Position(foot)) floor = std::min(floor, Height(*at));
    }
  }
  if (floor_out != nullptr) *floor_out = floor;
  return hips ? Height(*hips) - floor : kNaN;
}

std::optional<double> RestMeasures::LegLength() const {
  double sum = 0;
  int sides = 0;
  for (const auto& leg :
       {std::array<HumanBone, 3>{HumanBone::kLeftUpperLeg, HumanBone::kLeftLowerLeg,
                                 HumanBone::kLeftFoot},
        std::array<HumanBone, 3>{HumanBone::kRightUpperLeg, HumanBone::kRightLowerLeg,
                                 HumanBone::kRightFoot}}) {
    const std::optional<Vec3> hip = Position(leg[0]);
    const std::optional<Vec3> knee = Position(leg[1]);
    const std::optional<Vec3> ankle = Position(leg[2]);
    if (!hip || !knee || !ankle) continue;
    sum += Distance(*hip, *knee) + Distance(*knee, *ankle);
    ++sides;
  }
  if (sides == 0) return std::nullopt;
  return sum / sides;
}

double RestMeasures::LegHeight() const {
  const std::optional<Vec3> hips = Position(HumanBone::kHips);
  double lowest = std::numeric_limits<double>::infinity();
  for (const HumanBone foot : {HumanBone::kLeftFoot, HumanBone::kRightFoot}) {
    if (const std::optional<Vec3> at = Position(foot)) lowest = std::min(lowest, Height(*at));
  }
  if (!std::isfinite(lowest)) {
    for (const HumanBone toes : {HumanBone::kLeftToes, HumanBone::kRightToes}) {
      if (const std::optional<Vec3> at = Position(toes)) lowest = std::min(lowest, Height(*at));
    }
  }
  return hips && std::isfinite(lowest) ? Height(*hips) - lowest : kNaN;
}

}  // namespace animconv
