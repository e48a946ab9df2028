// The hips' heading for --root-yaw (docs/root_motion.md, "Heading"), and the key refinement that
// keeps a channel computed from another within a tolerance between its keys.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "animconv/model.h"

namespace animconv {

// The turn of a rotation about model +Y: the twist of its swing-twist decomposition about the
// vertical axis, in radians in (-pi, pi]. A half turn about a horizontal axis has no twist; 0.
double TwistAboutY(const Quat& rotation);
// The rotation by `radians` about +Y.
Quat TurnAboutY(double radians);
// `radians` wrapped into (-pi, pi].
double WrapRadians(double radians);

struct RefinedTimes {
  std::vector<double> seconds;
  // The largest `error` of the segments kept: at most the tolerance unless a segment was halved
  // `max_halvings` times or the key budget ran out.
  double largest_error = 0;
};

// The key times of a linear channel that follows a curve: `seeds` (sorted, distinct) with the
// midpoint inserted into every segment whose error(a, b) (how far the curve strays from the
// segment between its values at a and b, in the caller's unit) exceeds `tolerance`, until it
// holds, the segment has been halved `max_halvings` times, or the times number `max_keys`.
RefinedTimes RefineKeyTimes(const std::vector<double>& seeds,
                            const std::function<double(double, double)>& error, double tolerance,
                            int max_halvings, size_t max_keys);

}  // namespace animconv
