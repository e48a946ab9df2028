// Which way a humanoid rig stands in its world: up, left and forward, measured on its rest pose
// or taken from its declared facing. Retargeting and diff turn one rig's world motion into
// another's by these frames (docs/retargeting.md, "Up and facing"), so a BVH drawn Z-up or a rig
// facing +X plays upright and forward on a Y-up, +Z-facing avatar.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>

#include "animconv/model.h"
#include "animconv/quaternion.h"

namespace animconv {

// A rig's body axes at rest, unit length: `up` the world axis (±X, ±Y, ±Z) nearest the line from
// the hips to the head (else the highest of neck, upper chest, chest and spine the rig has; +Y
// without one), `left` from the right limbs to the left ones (upper legs, else upper arms, feet,
// hands) made square to `up`, and `forward` = left × up (right-handed: left +X and up +Y face
// +Z, VRM 1.0's T-pose). `up` is a world axis, not the hips-to-head line itself: a torso leaning
// 30° forward at rest would otherwise count straight legs as posed (review of session 35).
struct BodyAxes {
  Vec3 up{};
  Vec3 left{};
  Vec3 forward{};
};
// nullopt without a rest pose, the hips, or a left/right pair apart across `up`.
std::optional<BodyAxes> RestBodyAxes(const Rig& rig);

// A rig's up as a signed world axis: RestBodyAxes's, +Y without one. Heights of feet and hips
// (--ground's floor, the retargeted hips and feet checks, RestMeasures) are taken along it.
struct UpAxis {
  size_t axis = 1;
  bool negative = false;
  double HeightOf(const Vec3& position) const {
    return negative ? -position[axis] : position[axis];
  }
  std::string Name() const;  // "+Y", "-Z"
};
UpAxis UpAxisOf(const BodyAxes& axes);
UpAxis RestUpAxis(const Rig& rig);

// How far, in degrees, the whole rest pose leans off its up axis: the smaller of the hips-to-head
// line's and the feet-to-hips line's angles to it (a torso leaning at rest over upright legs is
// the rig's own posture, not a tilted world). 0 without a rest pose, head or feet.
double RestTiltDegrees(const Rig& rig, const BodyAxes& axes);

// The angle, in degrees, between the body's left and the world axis nearest it: how far a rig
// faces off the axis BodyFrame turns it by.
double LeftOffAxisDegrees(const BodyAxes& axes);

// A proper rotation that only permutes and negates axes (determinant +1). It turns vectors and
// quaternions exactly: the identity keeps every bit, and the half turn about +Y negates x and z
// as the ±Z facings always have (VRM 0.x faces -Z, VRM 1.0 +Z).
class AxisTurn {
 public:
  AxisTurn() = default;  // the identity
  // The turn taking +X to `left`, +Y to `up` and +Z to left × up; both must be signed world axes
  // square to each other.
  static AxisTurn FromAxes(const Vec3& left, const Vec3& up);

  // Inline: the retarget turns every key of a 50 MB clip by it (issue 18). Each output axis reads
  // one input axis, times ±1 (the same bits as negating it).
  Vec3 Apply(const Vec3& v) const {
    return {v[from_[0]] * from_sign_[0], v[from_[1]] * from_sign_[1], v[from_[2]] * from_sign_[2]};
  }
  // T·q·T⁻¹: the rotation q (x, y, z, w) about the turned axis; a proper rotation turns the
  // vector part as a vector and keeps w.
  Quat Apply(const Quat& q) const {
    return {q[from_[0]] * from_sign_[0], q[from_[1]] * from_sign_[1], q[from_[2]] * from_sign_[2],
            q[3]};
  }
  AxisTurn Inverse() const;
  // This turn after `first`.
  AxisTurn After(const AxisTurn& first) const;
  bool IsIdentity() const;
  bool operator==(const AxisTurn& other) const;
  bool operator!=(const AxisTurn& other) const { return !(*this == other); }

  // The matrix, row-major: column i is where canonical axis i goes.
  std::array<int, 9> Matrix() const;
  // Where +Y and +Z go: a body frame's up ("+Z") and facing ("-Y"), and both in words
  // ("up +Z, facing -Y").
  std::string UpName() const;
  std::string FacingName() const;
  std::string DescribeUpAndFacing() const;
  // Whether +Y stays +Y (the frame of a rig standing up +Y, facing any way).
  bool KeepsUp() const { return axis_[1] == 1 && sign_[1] > 0; }
  // Whether it keeps +Y and takes +Z to ±Z: the frames a declared facing can give.
  bool KeepsUpAndFacingZ() const { return KeepsUp() && axis_[2] == 2; }

 private:
  // from_ and from_sign_ from axis_ and sign_ (Apply's form of the same turn).
  void IndexOutputs();

  // Canonical axis i goes to world axis axis_[i], negated when sign_[i] < 0.
  std::array<int, 3> axis_{0, 1, 2};
  std::array<int, 3> sign_{1, 1, 1};
  // World axis j takes canonical axis from_[j], times from_sign_[j].
  std::array<size_t, 3> from_{0, 1, 2};
  std::array<double, 3> from_sign_{1, 1, 1};
};

// The turn from the canonical body axes (left +X, up +Y, forward +Z) to `rig`'s world axes. The
// rest pose decides when it shows the rig standing other than up +Y and facing ±Z (a BVH drawn
// Z-up, a rig facing +X: each axis the world axis nearest the measured one); otherwise `facing`
// does (+Z, or -Z: the half turn about +Y), which callers take from the rest pose where it shows
// it and from the format or --source-facing where it does not. The identity for an unknown facing
// and no rest pose to measure. `measured`, when not null, is set to whether the rest pose decided.
AxisTurn BodyFrame(const Rig& rig, Facing facing, bool* measured = nullptr);

// The frame `rig`'s rest pose measures when it stands other than up +Y facing ±Z (the frames a
// facing cannot say), else nullopt: what `info` reports in place of a facing, and what lets a
// retarget go on without one.
std::optional<AxisTurn> RestFrameBeyondFacing(const Rig& rig);

}  // namespace animconv
