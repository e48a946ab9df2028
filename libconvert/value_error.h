// The error of one channel value against another: the one metric `--reduce` bounds and `diff`
// reports, so that a diff of a reduced clip measures exactly what the reduction kept within its
// tolerances (docs/timing.md, docs/cli.md `diff`).
#pragma once

#include <cstddef>

#include "animconv/model.h"

namespace animconv {

// Scales smaller than this (in absolute value) are compared by difference, not ratio (ValueError).
inline constexpr double kScaleRatioFloor = 1e-3;

// The error of `value` against `reference` for `path`: the angle between two rotations in radians
// (both must be unit quaternions; AngleBetween), the distance between two translations, the largest
// scale ratio off 1, |b / a - 1| (where |a| < kScaleRatioFloor: |b - a| / kScaleRatioFloor, since a
// ratio to a near-zero scale is noise), the largest weight difference. Morph target counts may
// differ: a target one side lacks weighs 0 there. Translations and scales have 3 components.
double ValueError(Path path, const double* reference, size_t reference_width, const double* value,
                  size_t value_width);

}  // namespace animconv
