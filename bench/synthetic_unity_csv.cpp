// The synthetic walk. Everything is double precision and uses only + - * / and std::sin /
// std::cos, then printf "%.3f", so the bytes do not depend on the machine (the build also turns
// off floating-point contraction for this file: an FMA would change the last bits).
//
// Space: Unity's, left-handed, +Y up, +Z forward, +X to the character's right. Rest pose: identity
// for every bone (a VRM 0.x avatar in T-pose: legs point -Y, left arm -X, right arm +X), so the
// local rotation is the pose itself. In this space Rx(+a) turns +Y towards +Z, Ry(+a) turns +Z
// towards +X and Rz(+a) turns +X towards +Y. Hence: a leg or a hanging arm swings forward with a
// negative X angle, a knee bends with a positive one, the left arm lowers with +Z (the right with
// -Z), left fingers curl with +Z (right with -Z).
//
// Time t (s), gait phase p = 2 pi t / 1.1, turn angle psi = 2 pi t / 12. Angles below in degrees.
// The left side is written out; each right bone is the left formula at phase p + pi, mirrored
// through the X = 0 plane, (x, y, z, w) -> (x, -y, -z, w).
//
//   hips         Ry(psi) Ry(5 sin p) Rz(3 cos p) Rx(3)    turn + pelvis yaw, hip drop, lean
//   spine        Ry(-2 sin p) Rx(2)
//   chest        Ry(-4 sin p)                             shoulders counter-rotate
//   neck         Ry(1.5 sin p) Rx(-sin 2p)
//   head         Ry(2.5 sin p) Rx(3 sin 2p)               bob twice per cycle
//   upper leg    Rx(-(8 + 22 sin p))                      forward when sin p > 0
//   lower leg    Rx(5 + 27.5 (1 + cos p))                 knee 5..60, most in mid swing
//   foot         Rx(-0.6 (upper leg + lower leg angles))  sole kept roughly level
//   toes         Rx(-4 (1 - sin p))                       bend up at push-off
//   shoulder     Ry(-3 sin p)
//   upper arm    Rx(18 sin p) Rz(72)                      hangs, swings opposite to the leg
//   lower arm    Ry(20 - 10 sin p)                        elbow 10..30
//   hand         Rx(5 sin(p - 0.5)) Rz(6)
//   thumb        Ry(-12) Rz(6), Ry(-10), Ry(-8)           constant
//   fingers      Rz(proximal), Rz(intermediate), Rz(distal), constant curls
//                index 10/15/10, middle 12/18/12, ring 14/20/14, little 16/22/16
//   eyes, jaw, upper chest: absent (0,0,0,0)
//
// With psi running through 360 degrees every 12 s, the hips quaternion's w passes through zero at
// t = 6 s (mod 12); each quaternion is printed with w >= 0 (as many exporters do), so the printed
// hips signs jump there and a reader must realign hemispheres.
#include "bench/synthetic_unity_csv.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "animconv/humanoid.h"

namespace animconv::bench {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDegrees = kPi / 180.0;

using Q = SyntheticQuat;

Q Mul(const Q& a, const Q& b) {  // Hamilton product a * b (apply b first), x,y,z,w layout
  return {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
          a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
          a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
          a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}

// Axis-angle about a principal axis: (axis * sin(a/2), cos(a/2)).
Q Rx(double degrees) {
  const double half = degrees * kDegrees / 2;
  return {std::sin(half), 0, 0, std::cos(half)};
}
Q Ry(double degrees) {
  const double half = degrees * kDegrees / 2;
  return {0, std::sin(half), 0, std::cos(half)};
}
Q Rz(double degrees) {
  const double half = degrees * kDegrees / 2;
  return {0, 0, std::sin(half), std::cos(half)};
}
Q RyRadians(double radians) { return {0, std::sin(radians / 2), 0, std::cos(radians / 2)}; }

Q MirrorX(const Q& q) { return {q[0], -q[1], -q[2], q[3]}; }

Q Canonical(const Q& q) {
  if (q[3] < 0) return {-q[0], -q[1], -q[2], -q[3]};
  return q;
}

// HumanBodyBones values (animconv/humanoid.h). Left/right pairs: right = left + 1 for the
// limbs, right = left + 15 for the fingers.
enum : int {
  kHips = 0,
  kLeftUpperLeg = 1,
  kLeftLowerLeg = 3,
  kLeftFoot = 5,
  kSpine = 7,
  kChest = 8,
  kNeck = 9,
  kHead = 10,
  kLeftShoulder = 11,
  kLeftUpperArm = 13,
  kLeftLowerArm = 15,
  kLeftHand = 17,
  kLeftToes = 19,
  kLeftEye = 21,
  kRightEye = 22,
  kJaw = 23,
  kLeftThumbProximal = 24,
  kRightThumbProximal = 39,
  kUpperChest = 54,
};

static_assert(kLeftToes == static_cast<int>(HumanBone::kLeftToes) &&
              kJaw == static_cast<int>(HumanBone::kJaw) &&
              kLeftThumbProximal == static_cast<int>(HumanBone::kLeftThumbProximal) &&
              kRightThumbProximal == static_cast<int>(HumanBone::kRightThumbProximal) &&
              kUpperChest == static_cast<int>(HumanBone::kUpperChest) && kHumanBoneCount == 55);

// Writes the left-side bones for gait phase p into `pose` at the left indices.
void LeftSide(double p, std::array<Q, 55>& pose) {
  const double s = std::sin(p);
  const double c = std::cos(p);
  const double thigh = -(8 + 22 * s);
  const double knee = 5 + 27.5 * (1 + c);
  pose[kLeftUpperLeg] = Rx(thigh);
  pose[kLeftLowerLeg] = Rx(knee);
  pose[kLeftFoot] = Rx(-0.6 * (thigh + knee));
  pose[kLeftToes] = Rx(-4 * (1 - s));
  pose[kLeftShoulder] = Ry(-3 * s);
  pose[kLeftUpperArm] = Mul(Rx(18 * s), Rz(72));
  pose[kLeftLowerArm] = Ry(20 - 10 * s);
  pose[kLeftHand] = Mul(Rx(5 * std::sin(p - 0.5)), Rz(6));
  pose[kLeftThumbProximal] = Mul(Ry(-12), Rz(6));
  pose[kLeftThumbProximal + 1] = Ry(-10);
  pose[kLeftThumbProximal + 2] = Ry(-8);
  static const double kCurl[4][3] = {{10, 15, 10}, {12, 18, 12}, {14, 20, 14}, {16, 22, 16}};
  for (int finger = 0; finger < 4; ++finger) {
    for (int joint = 0; joint < 3; ++joint) {
      pose[kLeftThumbProximal + 3 + finger * 3 + joint] = Rz(kCurl[finger][joint]);
    }
  }
}

}  // namespace

std::array<SyntheticQuat, 55> SyntheticWalkPose(double seconds) {
  const double p = 2 * kPi * seconds / kWalkCycleSeconds;
  const double psi = 2 * kPi * seconds / kTurnSeconds;
  std::array<Q, 55> pose{};  // all 0,0,0,0 until set

  pose[kHips] = Mul(Mul(RyRadians(psi), Ry(5 * std::sin(p))), Mul(Rz(3 * std::cos(p)), Rx(3)));
  pose[kSpine] = Mul(Ry(-2 * std::sin(p)), Rx(2));
  pose[kChest] = Ry(-4 * std::sin(p));
  pose[kNeck] = Mul(Ry(1.5 * std::sin(p)), Rx(-std::sin(2 * p)));
  pose[kHead] = Mul(Ry(2.5 * std::sin(p)), Rx(3 * std::sin(2 * p)));

  LeftSide(p, pose);
  std::array<Q, 55> right{};
  LeftSide(p + kPi, right);
  for (const int left : {kLeftUpperLeg, kLeftLowerLeg, kLeftFoot, kLeftShoulder, kLeftUpperArm,
                         kLeftLowerArm, kLeftHand, kLeftToes}) {
    pose[left + 1] = MirrorX(right[left]);
  }
  for (int left = kLeftThumbProximal; left < kRightThumbProximal; ++left) {
    pose[left + 15] = MirrorX(right[left]);
  }

  for (int b = 0; b < 55; ++b) {
    if (b == kLeftEye || b == kRightEye || b == kJaw || b == kUpperChest) {
      pose[b] = {0, 0, 0, 0};
    } else {
      pose[b] = Canonical(pose[b]);
    }
  }
  return pose;
}

void AppendUnityCsvRow(const std::array<SyntheticQuat, 55>& pose, std::string* out) {
  char buffer[64];
  for (const Q& q : pose) {
    for (const double value : q) {
      int length = std::snprintf(buffer, sizeof buffer, "%.3f,", value);
      // Unity's Mono formats a negative number that rounds to zero without its sign ("0.000"),
      // unlike printf and .NET Core 3.0+ ("-0.000").
      if (length == 7 && std::memcmp(buffer, "-0.000,", 7) == 0) {
        out->append(buffer + 1, 6);
      } else {
        out->append(buffer, static_cast<size_t>(length));
      }
    }
  }
  out->push_back('\n');
}

std::string SyntheticUnityCsv(size_t rows, double interval_seconds) {
  std::string csv;
  csv.reserve(rows * 1500);
  for (size_t r = 0; r < rows; ++r) {
    AppendUnityCsvRow(SyntheticWalkPose(static_cast<double>(r) * interval_seconds), &csv);
  }
  return csv;
}

}  // namespace animconv::bench
