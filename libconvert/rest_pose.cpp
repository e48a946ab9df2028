#include "animconv/rest_pose.h"

#include <glm/gtc/type_ptr.hpp>
#include <utility>
#include <vector>

#include "animconv/quaternion.h"
#include "animconv/transform.h"

namespace animconv {
namespace {

glm::dmat4 LocalMatrix(const Node& node) {
  return TrsMatrix(node.rest_translation, node.rest_rotation, node.rest_scale);
}

glm::dmat4 Load(const std::array<double, 16>& m) { return glm::make_mat4(m.data()); }

}  // namespace

std::vector<size_t> ParentsFirst(const Rig& rig) {
  // Parents may come after their children in the node list: each chain is resolved on demand.
  std::vector<size_t> order;
  order.reserve(rig.nodes.size());
  std::vector<bool> placed(rig.nodes.size(), false);
  std::vector<size_t> chain;
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    chain.clear();
    for (int a = static_cast<int>(n); a >= 0 && !placed[static_cast<size_t>(a)];
         a = rig.nodes[static_cast<size_t>(a)].parent) {
      chain.push_back(static_cast<size_t>(a));
      placed[static_cast<size_t>(a)] = true;
    }
    order.insert(order.end(), chain.rbegin(), chain.rend());
  }
  return order;
}

RestPose::RestPose(const Rig& rig)
    : rig_(rig), world_rotation_(rig.nodes.size()), world_matrix_(rig.nodes.size()) {
  for (const size_t n : ParentsFirst(rig)) {
    const Node& node = rig.nodes[n];
    Quat rotation = node.rest_rotation;
    glm::dmat4 matrix = LocalMatrix(node);
    if (node.parent >= 0) {
      const size_t parent = static_cast<size_t>(node.parent);
      rotation = Normalized(Multiply(world_rotation_[parent], rotation));
      matrix = Load(world_matrix_[parent]) * matrix;
    }
    world_rotation_[n] = rotation;
    const double* values = glm::value_ptr(matrix);
    std::copy(values, values + 16, world_matrix_[n].begin());
  }
}

Quat RestPose::ParentWorldRotation(int node) const {
  const int parent = rig_.nodes[static_cast<size_t>(node)].parent;
  return parent < 0 ? Quat{0, 0, 0, 1} : WorldRotation(parent);
}

Vec3 RestPose::WorldPosition(int node) const {
  const auto& m = world_matrix_[static_cast<size_t>(node)];
  return {m[12], m[13], m[14]};
}

Vec3 RestPose::ParentToWorld(int node, const Vec3& local) const {
  const int parent = rig_.nodes[static_cast<size_t>(node)].parent;
  if (parent < 0) return local;
  const glm::dvec4 world = Load(world_matrix_[static_cast<size_t>(parent)]) *
                           glm::dvec4(local[0], local[1], local[2], 1);
  return {world.x, world.y, world.z};
}

Vec3 RestPose::WorldToParent(int node, const Vec3& world) const {
  const int parent = rig_.nodes[static_cast<size_t>(node)].parent;
  if (parent < 0) return world;
  const glm::dvec4 local = glm::inverse(Load(world_matrix_[static_cast<size_t>(parent)])) *
                           glm::dvec4(world[0], world[1], world[2], 1);
  return {local.x, local.y, local.z};
}

Facing FacingFromRestPose(const Rig& rig, Handedness handedness) {
  if (!rig.rest_pose_known) return Facing::kUnknown;
  constexpr std::pair<HumanBone, HumanBone> kPairs[] = {
      {HumanBone::kLeftUpperLeg, HumanBone::kRightUpperLeg},
      {HumanBone::kLeftUpperArm, HumanBone::kRightUpperArm},
      {HumanBone::kLeftFoot, HumanBone::kRightFoot},
      {HumanBone::kLeftHand, HumanBone::kRightHand},
  };
  const RestPose rest(rig);
  for (const auto& [left_bone, right_bone] : kPairs) {
    int left = -1, right = -1;
    for (size_t n = 0; n < rig.nodes.size(); ++n) {
      if (rig.nodes[n].human_bone == left_bone) left = static_cast<int>(n);
      if (rig.nodes[n].human_bone == right_bone) right = static_cast<int>(n);
    }
    if (left < 0 || right < 0) continue;
    const Vec3 a = rest.WorldPosition(left), b = rest.WorldPosition(right);
    const double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    // Mostly apart along X: |dx| > 2 * the rest of the distance, i.e. within ~27° of the X axis.
    if (dx * dx <= 4 * (dy * dy + dz * dz) || dx == 0) return Facing::kUnknown;
    const bool left_at_plus_x = dx > 0;
    return left_at_plus_x == (handedness == Handedness::kRight) ? Facing::kPlusZ : Facing::kMinusZ;
  }
  return Facing::kUnknown;
}

}  // namespace animconv
