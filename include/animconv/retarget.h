// Moving humanoid motion from one rig to another through the normalised humanoid space
// (three-vrm VRMHumanoidRig, normalized vs raw, VRM 1.0 how_to_transform_human_pose.md).
// docs/retargeting.md explains the method.
//
// For a humanoid bone with rest local rotation R whose scene-graph parent has rest world rotation
// P (so its rest world rotation is W = P·R), a raw local rotation A becomes the normalised
// N = P·A·R⁻¹·P⁻¹ = W·R⁻¹·A·W⁻¹: the same turn expressed on world-aligned axes, identity meaning
// "in rest pose". The normalised space faces +Z (VRM 1.0 / VRMA). Onto a target bone (R', P') it
// goes back as B = P'⁻¹·N·P'·R'. Both are constant multiplications on each side of A, which
// commute with slerp, so transforming the keys is exact for linear and step channels.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "animconv/model.h"

namespace animconv {

// What the hips translation is scaled by (--hips-scale, docs/retargeting.md "Hips translation").
enum class HipsScale {
  // (target rest hips height) / (source rest hips height), as VRM Animation players do
  // (VRMC_vrm_animation 1.0 conventions; @pixiv/three-vrm-animation 3.5).
  kHipsHeight,
  // (target leg length) / (source leg length), the legs measured at rest from the upper leg
  // joint through the knee to the ankle, left and right averaged: the stride a body of other
  // proportions takes (a long torso or a short-legged character).
  kLegLength,
  kNone,  // the source's metres as they are
};

struct RetargetOptions {
  HipsScale hips_scale = HipsScale::kHipsHeight;
};

struct RetargetReport {
  size_t bones = 0;                  // target humanoid bones that received a rotation channel
  size_t folded = 0;                 // source bones the target lacks, passed on to their children
  size_t copied = 0;                 // non-humanoid channels copied to a same-named target node
  size_t dropped_channels = 0;       // channels with no place on the target
  std::optional<double> hips_scale;  // set when a hips translation was scaled
  // The rest lengths the scale is the ratio of (hips heights or leg lengths, metres), and which
  // (kLegLength falls back to kHipsHeight for a rig without legs, with a note).
  HipsScale hips_scale_basis = HipsScale::kHipsHeight;
  double source_length_metres = 0;
  double target_length_metres = 0;
  // Set when the source's rest hips height was measured from a foot or toe joint below the origin
  // (its height, negative), not from the origin as three-vrm measures a VRMA's: the scale differs
  // from what the origin would give, which ReportRetarget warns about.
  std::optional<double> source_feet_floor_metres;
  std::vector<std::string> notes;  // what a user should know, one sentence each
  // What plays off the source beyond the tolerances, printed as warnings: a rest pose facing
  // more than 10° off the world axis its body frame turns it by (docs/retargeting.md, "Up and
  // facing"). The posed limbs aligned to the T-pose are a note.
  std::vector<std::string> warnings;
};

// Retargets every clip of `source` onto `target`. The source must be right-handed with humanoid
// identities and no cubic-spline channels (BakeCubicSplines first; else Error(kInternal)); a source
// without a known rest pose is taken as normalised already (a VRM 0.x avatar's CSV: identity rest
// rotations). Facing kUnknown counts as +Z. The target rig needs a rest pose and humanoid
// identities. Rotation channels of target bones the source lacks are not written (the bone keeps
// its rest); a source bone the target lacks passes its rotation on to the target bones below it.
std::vector<Clip> RetargetClips(const Asset& source, const Rig& target, Facing target_facing,
                                const RetargetOptions& options, RetargetReport* report);
// The same, with the memory of the source's rotation channels where a target bone takes one of
// them alone, key for key: its times are moved and its values turned in place, not copied (a
// 50 MB clip's 81 MB of fresh output; issue 18). Those channels of `source`'s clips are left
// empty; its rig and everything else are as they were.
std::vector<Clip> RetargetClipsConsuming(Asset& source, const Rig& target, Facing target_facing,
                                         const RetargetOptions& options, RetargetReport* report);

}  // namespace animconv
