// Root motion: the hips' travel over the ground, removed so a walk plays on the spot, or moved
// to a root node that carries it (docs/root_motion.md).
#pragma once

#include <string>

#include "animconv/model.h"

namespace animconv {

enum class RootMotionMode {
  kKeep,     // the clip as it is (the default)
  kInPlace,  // the hips' travel over the ground removed
  kExtract,  // the travel moved to the rig's root node, the hips keep the rest of their motion
};

struct RootMotionOptions {
  RootMotionMode mode = RootMotionMode::kKeep;
  // extract: the name of the root node created when the hips have no parent to carry it.
  std::string created_root_name = "root";
};

struct RootMotionReport {
  int clips_changed = 0;
  // The farthest the hips got from their start over the ground, in any clip (metres of the
  // model).
  double largest_travel_metres = 0;
  // extract: the node that carries the travel, and whether it was created for it.
  std::string root_name;
  bool root_created = false;
};

// The travel of a clip at time t is the hips' world position at t minus their world position at
// the clip's first hips key, projected onto the ground (model space: x and z, +Y is up); height
// is motion, not travel, and stays. What Mixamo's root motion tools and game engines extract
// from the pelvis, frame by frame: the hips' side-to-side sway over the ground travels too.
//
// kInPlace subtracts the travel from the hips translation: every joint's world pose at t is the
// source's moved back by the travel at t. kExtract also adds it to the translation of the hips'
// topmost ancestor (a glTF/FBX armature node), or, when the hips are a root themselves (BVH,
// VRMA, Unity CSV rigs), of a new root node `created_root_name` made their parent (the rig's node
// list changes, so the asset's source document is dropped); the world pose of every joint stays
// the source's. Both are affine maps of the hips' key values (and tangents), so linear, cubic and
// step channels play exactly the travel removed, between keys as at them.
//
// Throws Error(kUsage) when the rig has no humanoid hips, or an ancestor of the hips moves in a
// clip (its motion and the hips' would have to be resampled together).
RootMotionReport ApplyRootMotion(Asset& asset, const RootMotionOptions& options);

}  // namespace animconv
