// Small vector helpers for the rest-pose measures (body_frame.cpp, rest_tpose.cpp): one place for
// them rather than a copy in each file.
#pragma once

#include <cmath>

#include "animconv/model.h"

namespace animconv {

inline Vec3 Minus(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

inline Vec3 Cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

inline double Dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// The angle between two vectors of any length, in degrees (atan2 of |a × b| and a · b: exact
// near 0 and 180, where acos is not).
inline double DegreesBetween(const Vec3& a, const Vec3& b) {
  const Vec3 cross = Cross(a, b);
  return std::atan2(std::hypot(cross[0], cross[1], cross[2]), Dot(a, b)) * 57.29577951308232;
}

}  // namespace animconv
