// The lengths that size a humanoid rig for the hips translation, measured once for retargeting
// and diff alike (docs/retargeting.md, "Hips translation"): on the rest pose with its posed limbs
// in the T-pose (SwingToTPose), since that is the pose the motion is measured from. A mocap rig
// standing with splayed legs is as tall as its straightened legs make it.
#pragma once

#include <optional>
#include <vector>

#include "animconv/model.h"
#include "libconvert/body_frame.h"

namespace animconv {

class RestMeasures {
 public:
  // A rig without a rest pose is measured on the humanoid T-pose (HumanoidTPosePosition).
  explicit RestMeasures(const Rig& rig);

  // The world position of a humanoid bone in that pose; nullopt when the rig lacks it.
  std::optional<Vec3> Position(HumanBone bone) const;

  // The hips height above the floor the rig stands on. The floor is the origin, unless a foot or
  // toe joint is below it: a mocap skeleton drawn around its hips (CMU BVHs: root OFFSET 0, feet
  // at -17 units) stands on no floor at rest, and its hips height is measured from the feet, so
  // the scale does not depend on where the rest pose was drawn. A VRM or VRMA rig
  // (Rig::vrm_humanoid) is measured from the origin whatever its feet do: three-vrm scales a
  // VRMA's hips translation by the rest hips' world y (restHipsPosition.y,
  // normalizedRestPose.hips). `floor` receives the floor used. NaN without hips.
  double HipsHeight(double* floor = nullptr) const;

  // The leg length: upper leg joint to knee to ankle, the mean of the sides that have all three;
  // nullopt when neither has.
  std::optional<double> LegLength() const;

  // The hips' height above the lowest ankle (the toes where a rig has no feet): the rig's size
  // whichever way its rest pose was drawn (standing on the origin, or around its hips). Ankles,
  // not toes: the same skeleton written as a BVH keeps its toes only as a foot's End Site, which
  // is no joint. NaN without hips or feet.
  double LegHeight() const;

 private:
  // A position's height: its coordinate along the rest body's up axis (+Y unless the rest pose
  // stands otherwise, RestBodyAxes).
  double Height(const Vec3& position) const;

  const Rig& rig_;
  UpAxis up_;
  std::vector<Vec3> positions_;  // per node; empty without a rest pose
};

}  // namespace animconv
