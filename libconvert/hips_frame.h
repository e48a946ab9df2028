// The hips' parent frame in one clip, shared by --root-motion and --ground: both move the hips by
// a vector given in model space, which the hips translation holds in its parent's space.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "animconv/model.h"
#include "animconv/rest_pose.h"

namespace animconv {

std::vector<int> AncestorsOf(const Rig& rig, int node);

// The rig with each ancestor's constant channel value as its rest value (exporters key every
// bone, a glTF armature node too), and the two linear maps between the hips' parent space and
// model space. Throws Error(kUsage) naming `option` when an ancestor of the hips moves in the
// clip: the hips' motion and the ancestor's would have to be resampled together.
class HipsParentFrame {
 public:
  HipsParentFrame(const Rig& rig, const Clip& clip, int hips, const std::string& option);

  // A parent-space vector in model space (rotation and scale of the ancestors, no translation),
  // and back.
  Vec3 ToModel(const Vec3& v) const;
  Vec3 FromModel(const Vec3& v) const;
  // A parent-space position in model space.
  Vec3 PositionToModel(const Vec3& position) const;
  // The parent's rotation in model space, and whether every ancestor's scale is uniform: through
  // a non-uniform scale a rotation of the hips in model space is no rotation in their parent's.
  Quat ParentRotation() const;
  bool ParentScaleIsUniform() const;

 private:
  Rig rig_;
  int hips_;
  std::optional<RestPose> rest_;
};

}  // namespace animconv
