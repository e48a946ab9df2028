// World-space rest transforms of a rig: what retargeting needs to move a rotation between a bone's
// local frame and the world-aligned humanoid frame (three-vrm VRMHumanoidRig, normalized vs raw).
#pragma once

#include <array>
#include <vector>

#include "animconv/model.h"

namespace animconv {

// The rig's nodes in an order where every parent comes before its children (a node list may hold
// a child first).
std::vector<size_t> ParentsFirst(const Rig& rig);

class RestPose {
 public:
  explicit RestPose(const Rig& rig);

  // World rotation of the node at rest: the product of the local rotations from the root down.
  // Scale is left out; humanoid bones have uniform positive scale (VRM 1.0 humanoid.md).
  const Quat& WorldRotation(int node) const { return world_rotation_[static_cast<size_t>(node)]; }
  // The world rotation of the node's scene-graph parent; identity for a root.
  Quat ParentWorldRotation(int node) const;
  Vec3 WorldPosition(int node) const;
  // A position in the node's parent space to world space, and back (full rest matrices).
  Vec3 ParentToWorld(int node, const Vec3& local) const;
  Vec3 WorldToParent(int node, const Vec3& world) const;
  // The node's full rest matrix to world space (column-major).
  const std::array<double, 16>& WorldMatrix(int node) const {
    return world_matrix_[static_cast<size_t>(node)];
  }

 private:
  const Rig& rig_;
  std::vector<Quat> world_rotation_;
  std::vector<std::array<double, 16>> world_matrix_;  // column-major, as glTF stores matrices
};

// Which way a humanoid rig faces at rest, from where its left and right limbs are: facing +Z with
// +Y up, a character's left side is at +X in right-handed space and at -X in left-handed space
// (UniGLTF axis conversion). kUnknown without a rest pose, without a left/right pair of upper legs,
// upper arms, feet or hands, or when the pair is not mostly apart along X (a character facing ±X).
Facing FacingFromRestPose(const Rig& rig, Handedness handedness);

}  // namespace animconv
