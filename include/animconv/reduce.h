// Error-bounded keyframe reduction (`convert --reduce`): removes keys while every channel stays
// within a tolerance in physical units of its ORIGINAL curve, measured at every original key and
// between keys. Format-free and pure. Algorithm and guarantees: docs/timing.md, "Reduction".
#pragma once

#include <array>
#include <optional>
#include <string>

#include "animconv/model.h"

namespace animconv {

struct ReduceOptions {
  // Angle between the reduced and the original rotation (gltfpack's 0.1°).
  double rotation_degrees = 0.1;
  // Euclidean distance between the reduced and the original translation, in the node's parent
  // space (0.1 mm, gltfpack's).
  double translation_metres = 1e-4;
  // max over axes of |reduced / original - 1| (0.1 %, gltfpack's).
  double scale_ratio = 1e-3;
  // Absolute difference of every morph weight (gltfpack's 0.001).
  double weight = 1e-3;
  // --reduce-hierarchical D (0.1 m when given without a value): additionally, a point D metres
  // from any joint moves by at most `translation_metres` in world space, counting the errors of
  // all its ancestors (the ozz-animation / ACL virtual-point metric). Each joint gets a share of
  // that budget; see docs/timing.md. Unset: every channel is bounded on its own only.
  std::optional<double> hierarchical_distance_metres;
  // Bound each node's rotation in model space, not only its own channel: a rotation channel's
  // tolerance is rotation_degrees shared equally by the animated rotations on its chain from the
  // root, itself included (a model-space rotation composes them, and the angles of composed
  // errors add up at most). What `animconv diff` measures between rigs whose rest frames differ,
  // as a retargeted output's do; the convert pipeline sets it for those (docs/timing.md).
  bool model_space_rotations = false;
  // Remove a constant channel whose value equals the node's rest value within the tolerance (only
  // when the rig's rest pose is known; weights are never removed, the model has no rest weights).
  bool drop_rest_constant = true;
};

struct PathReduction {
  size_t channels = 0;
  size_t keys_before = 0;
  size_t keys_after = 0;
};

struct ReduceReport {
  std::array<PathReduction, 4> paths;  // indexed by Path
  size_t channels_collapsed = 0;       // constant: one key left
  size_t channels_removed = 0;         // constant and equal to the rest pose: gone
  size_t cubic_channels_kept = 0;      // cubic splines are left as they are
  // Clips whose every channel equals the rest pose: one channel kept at its first and last keys,
  // so that the clip is still written (a glTF animation needs a channel) and lasts as long.
  size_t clips_kept_at_rest = 0;

  size_t keys_before() const;
  size_t keys_after() const;
};

// Reduces every step and linear channel of every clip in place. Kept keys keep their exact times
// and values (a reducer only removes keys), so a clip's explicit duration is set to what it was
// before when channels get shorter. Cubic-spline channels are left unchanged (their tangents are
// fitted to the keys around them; bake them to linear first, e.g. with --resample).
ReduceReport Reduce(Asset& asset, const ReduceOptions& options);

// "keys 1200 -> 310 (25.8 %): rotation 900 -> 250, ...; 3 channel(s) collapsed to one key, ..."
std::string DescribeReduction(const ReduceReport& report);

}  // namespace animconv
