// How far a rig's rest pose holds its limbs from the T-pose that retargeting takes every rest pose
// for (docs/retargeting.md, "Rest poses").
#pragma once

#include <string>
#include <vector>

#include "animconv/model.h"

namespace animconv {

// A limb segment (bone to its humanoid child) and the angle, in degrees, between its rest world
// direction and the same segment's in the humanoid T-pose (HumanoidTPosePosition) turned to
// `facing` (kUnknown counts as +Z).
struct RestLimbAngle {
  HumanBone bone;
  double degrees = 0;
};

// The arm and leg segments of `rig` (upper and lower arms and legs, each side) more than
// `threshold_degrees` from the T-pose, largest first; none for a rig without a rest pose.
std::vector<RestLimbAngle> LimbsOffTPose(const Rig& rig, Facing facing, double threshold_degrees);

// The warning for `limbs` of the rig `which` ("the input's", "the target's"), or "" for none.
std::string LimbsOffTPoseWarning(const std::vector<RestLimbAngle>& limbs, const std::string& which);

}  // namespace animconv
