// A generated rest pose for humanoid rigs that came without one (a Unity CSV has rotations
// only), so what we write plays in any viewer.
#pragma once

#include <vector>

#include "animconv/model.h"

namespace animconv {

// Gives every humanoid node the translation of a VRM T-pose (VRMC_vrm_animation 1.0 conventions:
// arms along ±X, palms down, thumbs 45° between X and the front, soles on Y = 0) of a 1.70 m adult,
// facing +Z or, for Facing::kMinusZ, -Z (turned 180° about Y). Rest rotations and scales become
// identity, so a local rotation of the clip is the pose relative to the T-pose, as in VRM 0.x.
// Non-humanoid nodes keep their values. Proportions: docs/formats/gltf.md. Sets
// rig.rest_pose_known.
void ApplyHumanoidTPose(Rig& rig, Facing facing);

// Makes each humanoid node a child of the node of its nearest humanoid ancestor in the VRM 1.0
// parent map (VRM 1.0 humanoid spec: the thumbs renamed from VRM 0.x), skipping bones the rig
// lacks; other nodes keep their parents.
void LinkHumanoidParents(Rig& rig);

// A rig of exactly these bones, named with their VRM 1.0 names, standing in the T-pose above.
Rig MakeHumanoidTPoseRig(const std::vector<HumanBone>& bones, Facing facing);

// World position (metres, facing +Z, the character's left at +X) of a bone in that T-pose.
Vec3 HumanoidTPosePosition(HumanBone bone);

}  // namespace animconv
