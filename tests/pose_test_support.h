// Forward kinematics for tests: world orientations of a rig's nodes under a clip, computed
// directly from the hierarchy (independent of libconvert/retarget's formulas).
#pragma once

#include <functional>
#include <vector>

#include "animconv/model.h"

namespace animconv::testing {

// World rotation of each node at `seconds`; animated nodes take the clip's rotation.
std::vector<Quat> PoseWorldRotations(const Rig& rig, const Clip& clip, double seconds);

// World-space turn of the bone's node away from its rest orientation: D = W_pose · W_rest⁻¹.
// What retargeting must preserve. Fails the test when the rig lacks the bone.
Quat WorldDelta(const Rig& rig, const Clip& clip, double seconds, HumanBone bone);

// A clip turning every node of `rig` by `rotation()` at 0, 0.5 and 1 s (called node by node, key
// by key).
Clip ClipOfRotations(const Rig& rig, const std::function<Quat()>& rotation);

// A one-second clip turning every node of `rig` at random (seeded), keyed at 0, 0.5 and 1 s:
// within about 40 degrees of the rest, as a body moves.
Clip RandomTurnsClip(const Rig& rig, unsigned seed);

// Every node's world position at `seconds` under the asset's first clip: the rig posed with each
// channel's value put in as the node's rest value, then RestPose (no scale channels).
std::vector<Vec3> WorldPositions(const Asset& asset, double seconds);

// A body of 17 humanoid bones (hips, spine, chest, neck, head, both arms to the hands, both legs
// to the feet): enough for body axes, posed limbs and folding.
std::vector<HumanBone> SeventeenBoneBody();

// True when the rig maps `bone`.
bool HasBone(const Rig& rig, HumanBone bone);

}  // namespace animconv::testing
