// A clip's world pose on its own rig at any time (retargeting's hips check, --ground).
#pragma once

#include <array>
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
  const glm::dmat4& World(int node);
  double Height(int node) { return World(node)[3][1]; }

 private:
  const Rig& rig_;
  std::vector<std::array<const Channel*, 3>> channels_;  // translation, rotation, scale
  std::vector<std::array<ChannelCursor, 3>> cursors_;    // the same
  double seconds_ = 0;
  std::vector<bool> done_;
  std::vector<glm::dmat4> world_;
  std::vector<int> path_;  // World's chain of nodes still to pose, from `node` up
};

}  // namespace animconv
