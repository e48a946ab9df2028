// Changes of basis between coordinate conventions. Every axis conversion in the project is a
// signed axis permutation applied here, never a special case in a reader or writer.
//
// For a signed permutation matrix M (new = M * old):
//   position / translation  t' = M t
//   rotation quaternion     (v', w') = (det(M) * M v, w)   i.e. the matrix M R M^-1
//   scale                   s'[i] = s[j] where M maps old axis j to new axis i (signs drop)
// Unity -> glTF mirrors (UniGLTF axis inverters (ReverseZ / ReverseX)): reverse Z gives (-x,-y,z,w)
// and (x,y,-z); reverse X gives (x,-y,-z,w) and (-x,y,z). Each is its own inverse.
#pragma once

#include <array>
#include <string_view>

#include "animconv/model.h"

namespace animconv {

// new axis i = sign[i] * old axis source[i]
struct AxisMap {
  std::array<int, 3> source{0, 1, 2};
  std::array<int, 3> sign{1, 1, 1};

  int determinant() const;
};

// How to cross between left- and right-handed data (`--mirror`).
enum class Mirror {
  kNone,  // relabel only: keep the numbers, change the recorded handedness
  kX,     // reverse X: VRM 1.0 / VRMA convention, keeps a Unity +Z front at +Z
  kZ,     // reverse Z: UniGLTF default and VRM 0.x, sends a Unity +Z front to -Z
};

Mirror ParseMirror(std::string_view text);  // "none" | "x" | "z"; throws Error(kUsage)
const char* MirrorName(Mirror mirror);
AxisMap MirrorAxisMap(Mirror mirror);

Vec3 TransformVector(const AxisMap& map, const Vec3& v);
Quat TransformRotation(const AxisMap& map, const Quat& q);

// Applies the map to rest poses and to every translation, rotation and scale channel (cubic
// tangents included: the map is linear). Updates handedness and facing.
void ChangeBasis(Asset& asset, const AxisMap& map);

// Multiplies every length by `factor` (> 0): rest translations and translation channels, cubic
// tangents included. Rotations and scales are unitless. Uniform scaling of the whole scene is the
// conjugation S M S^-1 of every local matrix, which leaves rotation and scale untouched.
void ScaleLengths(Asset& asset, double factor);

// Brings the asset to `target` handedness using `mirror` when it differs; no-op otherwise.
void ConvertHandedness(Asset& asset, Handedness target, Mirror mirror);

}  // namespace animconv
