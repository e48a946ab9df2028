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

// --root-yaw: a rotation of the hips keyed from another stays within this of the exact turn
// between its keys (a tenth of --reduce's default), and a root translation within this.
constexpr double kRootYawToleranceDegrees = 0.01;
constexpr double kRootYawToleranceMetres = 1e-5;

struct RootMotionOptions {
  RootMotionMode mode = RootMotionMode::kKeep;
  // extract: the name of the root node created when the hips have no parent to carry it.
  std::string created_root_name = "root";
  // --root-yaw (in-place and extract): the hips' turn about +Y from their first rotation key is
  // removed (in place) or moved to the root (extract) with the travel.
  bool remove_yaw = false;
};

struct RootMotionReport {
  int clips_changed = 0;
  // The farthest the hips got from their start over the ground, in any clip (metres of the
  // model).
  double largest_travel_metres = 0;
  // extract: the node that carries the travel, and whether it was created for it.
  std::string root_name;
  bool root_created = false;
  // --root-yaw: the largest turn from the start in any clip; the keys added so that the channels
  // computed from the hips' rotation play it within the tolerances above between keys; and the
  // largest error measured there (over both only when the refinement ran out, see below).
  double largest_turn_degrees = 0;
  size_t yaw_keys_added = 0;
  double largest_yaw_error_degrees = 0;
  double largest_root_error_metres = 0;
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
// remove_yaw adds the heading: the turn θ(t) about model +Y of the hips' world rotation since
// their first rotation key (the twist about +Y of W(t)·W(first)⁻¹). Every joint's world pose at t
// becomes the source's turned back by θ(t) about the vertical through the hips' start and moved
// back by the travel (in place; the hips keep facing their first heading), or the root carries
// that turn and travel (extract; the world poses stay the source's). Exact at the hips' rotation
// keys; a channel computed from the hips' rotation (theirs, the root's) gets keys at the
// midpoints of each segment where it strays from the exact turn by more than the tolerances
// above (checked at a quarter, a half and three quarters), halved up to 10 times and to at most
// 16 × the clip's keys + 4096: the report gives the largest error left. Step rotations keep their
// keys (exact); cubic ones become linear keys within the tolerance.
//
// Throws Error(kUsage) when the rig has no humanoid hips, or an ancestor of the hips moves in a
// clip (its motion and the hips' would have to be resampled together), or, with remove_yaw, an
// ancestor's scale is not uniform.
RootMotionReport ApplyRootMotion(Asset& asset, const RootMotionOptions& options);

}  // namespace animconv
