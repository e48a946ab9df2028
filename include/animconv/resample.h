// Turning curves into keys other formats can hold.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "animconv/model.h"
#include "animconv/reduce.h"

namespace animconv {

struct CubicBakeReport {
  size_t channels = 0;     // cubic-spline channels baked to linear
  size_t cubic_keys = 0;   // their keys before
  size_t linear_keys = 0;  // their keys after
  // Per Path, the largest error of the linear (slerp for rotations) keys against the Hermite curve
  // measured while baking, in ValueError's units (radians for rotations).
  std::array<double, 4> max_error{};
  std::array<double, 4> tolerance{};  // per Path, what the chords were held to (same units)
  std::array<bool, 4> has_path{};     // which paths had a cubic channel
  // Per Path, the node of the channel with max_error (-1: none), so a bake over its tolerance
  // names where (the exit-0 rule: a warning names what plays differently).
  std::array<int, 4> worst_node{-1, -1, -1, -1};
};

// Replaces every cubic-spline channel with a linear one that plays, as a linear (slerp for
// rotations) consumer such as three.js interpolates it, within `tolerances` (the --reduce defaults:
// 0.1°, 0.1 mm, 0.1 % scale, 0.001 weight; ValueError measures them) of the glTF Hermite curve
// everywhere, not just at the keys. Each segment between two samples is halved until the chord
// stays within half the tolerance at 15 points inside it (the other half is left for float32
// files). The samples start at the channel's own key times, or, when `interval_seconds` is given,
// at a uniform grid from its first to its last key (the last key always included): every grid time
// is kept and keys are added between grid times only where the grid alone would be off. For
// formats without glTF's CUBICSPLINE (three.js JSON has none, three.js r187 src/constants.js),
// where writing the tangent-laden values as they are would be misread. Algorithm: docs/timing.md,
// "Cubic splines".
CubicBakeReport BakeCubicSplines(Asset& asset, std::optional<double> interval_seconds,
                                 const ReduceOptions& tolerances = ReduceOptions{});

// One channel of BakeCubicSplines: the linear channel that plays within `tolerance` (ValueError's
// units) of the cubic `channel`, keeping every time of `grid` (its key times, or a uniform grid
// from its first to its last key). `*max_error` gets the error reached (over `tolerance` only where
// the halving budget ran out). Also what `--interpolation linear` makes of a cubic channel.
Channel BakeCubicChannel(const Channel& channel, const std::vector<double>& grid, double tolerance,
                         double* max_error);

// The largest error (ValueError's units) of the linear (slerp) channel `played` against
// `original` (any interpolation) over played's keys' span, as players interpolate both: at
// original's keys inside each of played's segments (where a linear original bends) and at 15
// evenly spaced points in each (where a cubic one does). How far a --resample result plays from
// its input (timing.h).
double PlaybackError(const Channel& original, const Channel& played);

// A ValueError value (radians for rotations) in the units messages print, and that unit's name:
// "deg", "m", "ratio", "weight", as `animconv diff` prints them. One conversion for every
// message that reports an error (the cubic bake, --resample).
double ErrorInPrintedUnit(Path path, double error);
const char* PrintedUnit(Path path);

// A ReduceOptions tolerance in ValueError's units (radians for rotations).
double ToleranceOf(const ReduceOptions& tolerances, Path path);

// The largest error (ValueError: radians, metres, scale ratio, weight) of `channel`'s curve inside
// [t0, t1] against its chord there, the linear (slerp for rotations) interpolation of its values at
// t0 and t1 as a linear player would play two keys: measured at 15 evenly spaced points inside.
// The chord minus a cubic is a cubic vanishing at both ends, so that finds its peak to within
// 0.3 % (the peak is at most 1/32 of the span from a point, where the error is flat).
double ChordError(const Channel& channel, double t0, double t1);

// Halves [t0, t1] until every piece's ChordError is at most `target` (at most 2^12 pieces, and
// at most `*budget` halvings when given, each one spent from it: a jump the tolerance cannot
// follow still ends in bounded time) and appends the pieces' end times to `times`, t1 last.
// Returns the largest ChordError of the pieces: what playing the curve's values at t0, *times
// linearly is off by. Shared by BakeCubicSplines and DiffClips' adaptive sampling.
double AppendChordTimes(const Channel& channel, double t0, double t1, double target,
                        std::vector<double>* times, size_t* budget = nullptr);

// "3 cubic-spline channel(s) (12 keys) baked to 96 linear keys; max error 0.048 deg (tolerance
// 0.1), 4.1e-05 m (tolerance 0.0001)".
std::string DescribeCubicBake(const CubicBakeReport& report, const Rig& rig);

}  // namespace animconv
