// A node's local transform as a glm matrix (column-major, as glTF stores it): T·R·S and back.
// Shared by the rest-pose math and the readers that get matrices (Assimp).
#pragma once

#include <glm/mat4x4.hpp>

#include "animconv/model.h"

namespace animconv {

glm::dmat4 TrsMatrix(const Vec3& translation, const Quat& rotation, const Vec3& scale);

// TRS of a matrix; a mirroring matrix puts its reflection into the X scale, and shear (which FBX
// pivots could in theory make) is dropped.
void DecomposeMatrix(const glm::dmat4& matrix, Vec3* translation, Quat* rotation, Vec3* scale);

}  // namespace animconv
