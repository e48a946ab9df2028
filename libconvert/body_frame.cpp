#include "libconvert/body_frame.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "animconv/humanoid.h"
#include "animconv/rest_pose.h"
#include "libconvert/vec3_math.h"

namespace animconv {
namespace {

// The world axis, with its sign, nearest `v` (the first of equals: x before y before z).
Vec3 NearestAxis(const Vec3& v) {
  size_t axis = 0;
  for (size_t i = 1; i < 3; ++i) {
    if (std::abs(v[i]) > std::abs(v[axis])) axis = i;
  }
  Vec3 unit{0, 0, 0};
  unit[axis] = v[axis] < 0 ? -1 : 1;
  return unit;
}

// The index and sign of a signed world axis.
std::pair<int, int> AxisOf(const Vec3& unit) {
  for (int i = 0; i < 3; ++i) {
    if (unit[static_cast<size_t>(i)] != 0) return {i, unit[static_cast<size_t>(i)] < 0 ? -1 : 1};
  }
  return {0, 1};
}

std::string SignedAxisName(int axis, int sign) {
  return fmt::format("{}{}", sign < 0 ? '-' : '+', "XYZ"[axis]);
}

}  // namespace

std::optional<BodyAxes> RestBodyAxes(const Rig& rig) {
  if (!rig.rest_pose_known) return std::nullopt;
  const int hips = HumanBoneNode(rig, HumanBone::kHips);
  if (hips < 0) return std::nullopt;
  const RestPose rest(rig);
  const Vec3 base = rest.WorldPosition(hips);
  Vec3 up{0, 1, 0};
  for (const HumanBone top : {HumanBone::kHead, HumanBone::kNeck, HumanBone::kUpperChest,
                              HumanBone::kChest, HumanBone::kSpine}) {
    const int node = HumanBoneNode(rig, top);
    if (node < 0) continue;
    const Vec3 v = Minus(rest.WorldPosition(node), base);
    if (std::hypot(v[0], v[1], v[2]) > 1e-9) {
      up = NearestAxis(v);
      break;
    }
  }
  constexpr std::pair<HumanBone, HumanBone> kSides[] = {
      {HumanBone::kLeftUpperLeg, HumanBone::kRightUpperLeg},
      {HumanBone::kLeftUpperArm, HumanBone::kRightUpperArm},
      {HumanBone::kLeftFoot, HumanBone::kRightFoot},
      {HumanBone::kLeftHand, HumanBone::kRightHand}};
  for (const auto& [left_bone, right_bone] : kSides) {
    const int left = HumanBoneNode(rig, left_bone);
    const int right = HumanBoneNode(rig, right_bone);
    if (left < 0 || right < 0) continue;
    Vec3 apart = Minus(rest.WorldPosition(left), rest.WorldPosition(right));
    const double along = Dot(apart, up);
    apart = {apart[0] - along * up[0], apart[1] - along * up[1], apart[2] - along * up[2]};
    const double length = std::hypot(apart[0], apart[1], apart[2]);
    if (length < 1e-9) continue;
    const Vec3 side = {apart[0] / length, apart[1] / length, apart[2] / length};
    return BodyAxes{up, side, Cross(side, up)};
  }
  return std::nullopt;
}

std::string UpAxis::Name() const {
  return SignedAxisName(static_cast<int>(axis), negative ? -1 : 1);
}

UpAxis UpAxisOf(const BodyAxes& axes) {
  const auto [axis, sign] = AxisOf(axes.up);
  return {static_cast<size_t>(axis), sign < 0};
}

UpAxis RestUpAxis(const Rig& rig) {
  const std::optional<BodyAxes> axes = RestBodyAxes(rig);
  return axes ? UpAxisOf(*axes) : UpAxis();
}

double RestTiltDegrees(const Rig& rig, const BodyAxes& axes) {
  const int hips = HumanBoneNode(rig, HumanBone::kHips);
  const int head = HumanBoneNode(rig, HumanBone::kHead);
  const int left = HumanBoneNode(rig, HumanBone::kLeftFoot);
  const int right = HumanBoneNode(rig, HumanBone::kRightFoot);
  if (!rig.rest_pose_known || hips < 0 || head < 0 || left < 0 || right < 0) return 0;
  const RestPose rest(rig);
  const Vec3 at_hips = rest.WorldPosition(hips);
  const Vec3 l = rest.WorldPosition(left);
  const Vec3 r = rest.WorldPosition(right);
  const Vec3 feet = {(l[0] + r[0]) / 2, (l[1] + r[1]) / 2, (l[2] + r[2]) / 2};
  const Vec3 torso = Minus(rest.WorldPosition(head), at_hips);
  const Vec3 legs = Minus(at_hips, feet);
  if (std::hypot(torso[0], torso[1], torso[2]) < 1e-9 ||
      std::hypot(legs[0], legs[1], legs[2]) < 1e-9) {
    return 0;
  }
  return std::min(DegreesBetween(torso, axes.up), DegreesBetween(legs, axes.up));
}

double LeftOffAxisDegrees(const BodyAxes& axes) {
  return DegreesBetween(axes.left, NearestAxis(axes.left));
}

AxisTurn AxisTurn::FromAxes(const Vec3& left, const Vec3& up) {
  AxisTurn turn;
  const Vec3 forward = Cross(left, up);
  const Vec3 images[3] = {left, up, forward};
  for (size_t i = 0; i < 3; ++i) {
    const auto [axis, sign] = AxisOf(images[i]);
    turn.axis_[i] = axis;
    turn.sign_[i] = sign;
  }
  turn.IndexOutputs();
  return turn;
}

void AxisTurn::IndexOutputs() {
  for (size_t i = 0; i < 3; ++i) {
    from_[static_cast<size_t>(axis_[i])] = i;
    from_sign_[static_cast<size_t>(axis_[i])] = sign_[i];
  }
}

AxisTurn AxisTurn::Inverse() const {
  AxisTurn inverse;
  for (size_t i = 0; i < 3; ++i) {
    inverse.axis_[static_cast<size_t>(axis_[i])] = static_cast<int>(i);
    inverse.sign_[static_cast<size_t>(axis_[i])] = sign_[i];
  }
  inverse.IndexOutputs();
  return inverse;
}

AxisTurn AxisTurn::After(const AxisTurn& first) const {
  AxisTurn both;
  for (size_t i = 0; i < 3; ++i) {
    const size_t middle = static_cast<size_t>(first.axis_[i]);
    both.axis_[i] = axis_[middle];
    both.sign_[i] = first.sign_[i] * sign_[middle];
  }
  both.IndexOutputs();
  return both;
}

std::array<int, 9> AxisTurn::Matrix() const {
  std::array<int, 9> m{};
  for (size_t i = 0; i < 3; ++i) m[static_cast<size_t>(axis_[i]) * 3 + i] = sign_[i];
  return m;
}

bool AxisTurn::IsIdentity() const { return *this == AxisTurn(); }

bool AxisTurn::operator==(const AxisTurn& other) const {
  return axis_ == other.axis_ && sign_ == other.sign_;
}

std::string AxisTurn::UpName() const { return SignedAxisName(axis_[1], sign_[1]); }

std::string AxisTurn::FacingName() const { return SignedAxisName(axis_[2], sign_[2]); }

std::string AxisTurn::DescribeUpAndFacing() const {
  return fmt::format("up {}, facing {}", UpName(), FacingName());
}

std::optional<AxisTurn> RestFrameBeyondFacing(const Rig& rig) {
  bool measured = false;
  const AxisTurn frame = BodyFrame(rig, Facing::kUnknown, &measured);
  if (!measured || frame.KeepsUpAndFacingZ()) return std::nullopt;
  return frame;
}

AxisTurn BodyFrame(const Rig& rig, Facing facing, bool* measured) {
  if (measured != nullptr) *measured = false;
  std::optional<AxisTurn> rest;
  if (const std::optional<BodyAxes> axes = RestBodyAxes(rig)) {
    rest = AxisTurn::FromAxes(NearestAxis(axes->left), axes->up);
  }
  // Up +Y and facing ±Z: the facing the caller knows (measured where the rest pose shows it,
  // FacingFromRestPose, or given by --source-facing), as before there were body frames.
  if (rest && (!rest->KeepsUpAndFacingZ() || facing == Facing::kUnknown)) {
    if (measured != nullptr) *measured = true;
    return *rest;
  }
  if (facing == Facing::kMinusZ) return AxisTurn::FromAxes({-1, 0, 0}, {0, 1, 0});
  return AxisTurn();
}

}  // namespace animconv
