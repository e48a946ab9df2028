// Turning curves into keys other formats can hold.
#pragma once

#include <optional>

#include "animconv/model.h"

namespace animconv {

// Replaces every cubic-spline channel with a linear one: sampled at its own key times, or, when
// `interval_seconds` is given, on a uniform grid from its first to its last key (the last key
// always included). For formats without glTF's CUBICSPLINE (three.js JSON has none, formats.md
// §1.4), where writing the tangent-laden values as they are would be misread. Returns the number
// of channels converted.
size_t BakeCubicSplines(Asset& asset, std::optional<double> interval_seconds);

}  // namespace animconv
