#include "libconvert/rest_tpose.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "animconv/humanoid.h"
#include "animconv/humanoid_pose.h"
#include "animconv/rest_pose.h"

namespace animconv {
namespace {

constexpr double kDegreesPerRadian = 57.29577951308232;

Vec3 Minus(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

double AngleDegrees(const Vec3& a, const Vec3& b) {
  const double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const double cross =
      std::hypot(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
  return std::atan2(cross, dot) * kDegreesPerRadian;
}

}  // namespace

std::vector<RestLimbAngle> LimbsOffTPose(const Rig& rig, Facing facing, double threshold_degrees) {
  std::vector<RestLimbAngle> limbs;
  if (!rig.rest_pose_known) return limbs;
  static constexpr std::pair<HumanBone, HumanBone> kSegments[] = {
      {HumanBone::kLeftUpperArm, HumanBone::kLeftLowerArm},
      {HumanBone::kLeftLowerArm, HumanBone::kLeftHand},
      {HumanBone::kRightUpperArm, HumanBone::kRightLowerArm},
      {HumanBone::kRightLowerArm, HumanBone::kRightHand},
      {HumanBone::kLeftUpperLeg, HumanBone::kLeftLowerLeg},
      {HumanBone::kLeftLowerLeg, HumanBone::kLeftFoot},
      {HumanBone::kRightUpperLeg, HumanBone::kRightLowerLeg},
      {HumanBone::kRightLowerLeg, HumanBone::kRightFoot}};
  const RestPose rest(rig);
  for (const auto& [bone, child] : kSegments) {
    const int from = HumanBoneNode(rig, bone);
    const int to = HumanBoneNode(rig, child);
    if (from < 0 || to < 0) continue;
    const Vec3 direction = Minus(rest.WorldPosition(to), rest.WorldPosition(from));
    if (std::hypot(direction[0], direction[1], direction[2]) < 1e-9) continue;
    Vec3 tpose = Minus(HumanoidTPosePosition(child), HumanoidTPosePosition(bone));
    if (facing == Facing::kMinusZ) tpose = {-tpose[0], tpose[1], -tpose[2]};  // turned about Y
    const double degrees = AngleDegrees(direction, tpose);
    if (degrees > threshold_degrees) limbs.push_back({bone, degrees});
  }
  std::stable_sort(limbs.begin(), limbs.end(), [](const RestLimbAngle& a, const RestLimbAngle& b) {
    return a.degrees > b.degrees;
  });
  return limbs;
}

std::string LimbsOffTPoseWarning(const std::vector<RestLimbAngle>& limbs,
                                 const std::string& which) {
  if (limbs.empty()) return {};
  std::vector<std::string> named;
  for (const RestLimbAngle& limb : limbs) {
    named.push_back(fmt::format("{} {:.3g} deg", GetHumanBoneInfo(limb.bone).vrm1, limb.degrees));
  }
  return fmt::format(
      "{} rest pose holds {} limb segment(s) away from the T-pose ({}): retargeting takes a rest "
      "pose for the T-pose, so these limbs play up to {:.3g} deg off their direction on the "
      "target; give the rig a T-pose rest pose (re-export it so) to retarget it right",
      which, limbs.size(), fmt::join(named, ", "), limbs.front().degrees);
}

}  // namespace animconv
