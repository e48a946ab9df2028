// Quaternion helpers on the x,y,z,w arrays of the model (see model.h). Double precision throughout.
#pragma once

#include <cmath>

#include "animconv/model.h"

namespace animconv {

// The small ones are inline: the retarget and the feet's poses call them millions of times a
// long clip (the same arithmetic, in the same order, wherever they are compiled).
inline double Dot(const Quat& a, const Quat& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}
inline double Length(const Quat& q) { return std::sqrt(Dot(q, q)); }
// Unit quaternion in the direction of q; q must have non-zero length.
inline Quat Normalized(const Quat& q) {
  const double length = Length(q);
  return {q[0] / length, q[1] / length, q[2] / length, q[3] / length};
}
inline Quat Negated(const Quat& q) { return {-q[0], -q[1], -q[2], -q[3]}; }
// Hamilton product: the rotation `b` followed by `a` (three.js a.multiply(b), glm a * b).
inline Quat Multiply(const Quat& a, const Quat& b) {
  return {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
          a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
          a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
          a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}
// The inverse of a unit quaternion.
inline Quat Conjugate(const Quat& q) { return {-q[0], -q[1], -q[2], q[3]}; }
// Rotates v by the unit quaternion q.
Vec3 Rotate(const Quat& q, const Vec3& v);
// Spherical interpolation on the short path (the second argument is negated when dot < 0, as
// three.js Quaternion.slerpFlat and glTF 2.0 Appendix C do). alpha 0 and 1 return the keys exactly.
Quat SlerpShortest(const Quat& a, const Quat& b, double alpha);
// SlerpShortest in two steps, for many alphas between the same two keys (a clip sampled finely):
// the arc between the keys (its angle's acos and sine) once, then each point along it. The same
// arithmetic, so the same bits, as SlerpShortest.
struct SlerpArc {
  double sign = 1;   // -1 where the second key is negated for the short path
  double theta = 0;  // the angle between the keys as 4-vectors; 0: near-parallel, nlerp
  double sine = 0;   // sin(theta)
};
SlerpArc ArcBetween(const Quat& a, const Quat& b);
Quat SlerpAlong(const SlerpArc& arc, const Quat& a, const Quat& b, double alpha);
// Rotation angle between two unit quaternions in radians, in [0, pi] (q and -q are the same).
double AngleBetween(const Quat& a, const Quat& b);
// Whether AngleBetween(a, b) > `radians`, for many checks against one limit (a reducer's spans):
// the same answer as comparing AngleBetween's value, but without its atan2 unless the two are
// within a relative 1e-9 of each other (the angle's quarter against the limit's, through tan²).
class AngleLimit {
 public:
  explicit AngleLimit(double radians);
  bool ExceededBy(const Quat& a, const Quat& b) const;

 private:
  double radians_;
  double tan_squared_ = -1;  // tan²(radians / 4); negative: no shortcut (a limit of pi or more)
};

// Inline: the retarget reads and writes every key of a clip through them.
inline Quat LoadQuat(const double* xyzw) { return {xyzw[0], xyzw[1], xyzw[2], xyzw[3]}; }
inline void StoreQuat(const Quat& q, double* xyzw) {
  for (size_t i = 0; i < 4; ++i) xyzw[i] = q[i];
}

// Renormalises every rotation key value in double precision (for cubic splines, the value
// elements only; tangents are left as they are). Keys already unit to 1e-12 keep their bits;
// zero-length keys (readers reject them) are left untouched. Returns the number changed.
size_t NormalizeRotationKeys(Channel& channel);
// Flips key signs so that dot(q[k], q[k+1]) >= 0: every player then interpolates the short way.
// Step and linear channels only; cubic splines keep their signs (their tangents depend on them).
// Returns the number of keys flipped.
size_t AlignHemispheres(Channel& channel);

struct RotationNormalization {
  size_t keys_renormalized = 0;
  size_t keys_flipped = 0;
};

// Both of the above on every rotation channel: what every interpolating consumer (three.js,
// glTF) needs. Readers keep rotations as the file has them, so a same-format round trip is exact;
// the conversion pipeline applies this before every writer that needs unit quaternions.
RotationNormalization NormalizeRotations(Asset& asset);

}  // namespace animconv
