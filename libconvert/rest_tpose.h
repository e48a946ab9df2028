// How far a rig's rest pose holds its limbs from the T-pose, and the turn that takes them to it:
// retargeting and diff measure motion from the T-pose (docs/retargeting.md, "Rest poses").
#pragma once

#include <string>
#include <vector>

#include "animconv/model.h"
#include "animconv/quaternion.h"

namespace animconv {

// A limb segment (bone to its humanoid child) and the angle, in degrees, between its rest world
// direction and the same segment's in the humanoid T-pose (HumanoidTPosePosition) taken in the
// body's own rest axes: up the world axis nearest the hips-to-head line (+Y without a torso
// bone), left towards the left limbs (an arm along the body's left or right, a leg down it).
struct RestLimbAngle {
  HumanBone bone;
  double degrees = 0;
};

// A limb segment this far from the T-pose at rest is posed (A-pose arms at 35-45 degrees, arms
// down at 84), not drawn so (a rig's own bent elbow or splayed legs stay under it).
constexpr double kPosedLimbDegrees = 10;

// The turn, in world axes, from each node's rest orientation to its orientation in the T-pose:
// for an arm or leg segment more than `threshold_degrees` off the T-pose, the shortest arc from
// its rest direction to the T-pose's (arms raised sideways, legs closed; the bone's roll about
// itself kept); every other node turns with its parent (a hand with its forearm, the fingers with
// the hand), a root not at all, and the feet (and so the toes) not at all: feet stand flat.
// Identity everywhere for a rig without a rest pose, or without the hips and a left/right pair
// to give the body's axes.
struct TPoseSwing {
  std::vector<Quat> world;           // per node
  std::vector<bool> swung;           // per node: `world` is not the identity
  std::vector<RestLimbAngle> limbs;  // the segments swung, largest first
};
TPoseSwing SwingToTPose(const Rig& rig, double threshold_degrees);

// The note for `limbs` of the rig `which` ("the input's", "the target's"), or "" for none.
std::string LimbsSwungNote(const std::vector<RestLimbAngle>& limbs, const std::string& which);

}  // namespace animconv
