#include "animconv/transform.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "animconv/quaternion.h"

namespace animconv {

glm::dmat4 TrsMatrix(const Vec3& t, const Quat& r, const Vec3& s) {
  return glm::translate(glm::dmat4(1.0), glm::dvec3(t[0], t[1], t[2])) *
         glm::mat4_cast(glm::dquat(r[3], r[0], r[1], r[2])) *
         glm::scale(glm::dmat4(1.0), glm::dvec3(s[0], s[1], s[2]));
}

void DecomposeMatrix(const glm::dmat4& m, Vec3* translation, Quat* rotation, Vec3* scale) {
  *translation = {m[3][0], m[3][1], m[3][2]};
  glm::dvec3 axes[3] = {glm::dvec3(m[0]), glm::dvec3(m[1]), glm::dvec3(m[2])};
  Vec3 s = {glm::length(axes[0]), glm::length(axes[1]), glm::length(axes[2])};
  // A mirroring matrix: put the reflection into one scale axis so the rest is a rotation.
  if (glm::determinant(glm::dmat3(m)) < 0) s[0] = -s[0];
  for (int i = 0; i < 3; ++i) {
    if (s[static_cast<size_t>(i)] != 0) axes[i] /= s[static_cast<size_t>(i)];
  }
  const glm::dquat q = glm::quat_cast(glm::dmat3(axes[0], axes[1], axes[2]));
  *rotation = Normalized(Quat{q.x, q.y, q.z, q.w});
  *scale = s;
}

}  // namespace animconv
