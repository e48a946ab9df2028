// A clip's world pose on its own rig at any time (retargeting's hips check, --ground).
#pragma once

#include <array>
#include <cstddef>
#include <glm/mat4x4.hpp>
#include <vector>

#include "animconv/model.h"
#include "animconv/sample.h"

namespace animconv {

// World transforms of a clip's nodes at one time: each node's rest TRS with the clip's channels
// evaluated over it, multiplied down from the roots (parents may follow children in the list).
// Nodes are computed when asked for, once per Pose. Posed at rising times (frame after frame),
// each channel goes on from where it was (ChannelCursor).
class ClipPoser {
 public:
  ClipPoser(const Rig& rig, const Clip& clip);

  void Pose(double seconds);
  // The node's world matrix: TrsMatrix(translation, rotation, scale) multiplied down the chain.
  const glm::dmat4& World(int node);
  // The node's height along the rig's up: World(node)[3][1], the same bits, for a rig standing up
  // +Y (the rest pose's up axis otherwise: a BVH drawn Z-up, docs/retargeting.md "Up and
  // facing"), from the matrices' 12 affine entries alone (a quarter of the arithmetic; the feet's
  // lowest point poses 300,000 frames of a long clip twice).
  double Height(int node);
  // The height of a point given in the node's own frame (its world matrix applied to it).
  double Height(int node, const Vec3& local);

 private:
  // Columns: the three axes, then the translation (a 4x4 whose last row is 0, 0, 0, 1).
  struct Affine {
    double column[4][3];
  };
  // One node's local translation, rotation and scale from its channels at seconds_.
  void Local(size_t node, Vec3* translation, Quat* rotation, Vec3* scale);
  // Poses `node` and its ancestors up to the first that `done` holds, from the top down:
  // compose(node, parent, translation, rotation, scale) for each, which is then done.
  template <typename Compose>
  void PoseDown(int node, std::vector<bool>& done, Compose compose);

  const Rig& rig_;
  size_t up_axis_ = 1;  // the rig's up (RestUpAxis), which Height measures along
  bool up_negative_ = false;
  std::vector<std::array<const Channel*, 3>> channels_;  // translation, rotation, scale
  std::vector<std::array<ChannelCursor, 3>> cursors_;    // the same
  double seconds_ = 0;
  std::vector<bool> done_;  // world_ holds the node at seconds_
  std::vector<Affine> world_;
  std::vector<bool> exact_done_;  // exact_ holds the node at seconds_
  std::vector<glm::dmat4> exact_;
  std::vector<int> path_;  // the chain of nodes still to pose, from the node asked for up
};

}  // namespace animconv
