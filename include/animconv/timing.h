// Keyframe timing operations: trim, speed, offset, resample, interpolation conversion and loop.
// Pure functions on the model, in the spirit of glTF Transform's transforms: each operation has
// its options in TimingOptions with the defaults documented here and in docs/timing.md.
//
// Every value between keys is what EvaluateChannel (sample.h) returns: slerp on the short path
// for linear rotations, held values for step, the glTF Hermite with tangents per second for cubic
// splines. New keys are always sampled from the *original* curve, so an arc of 180 degrees or more
// spread over several keys keeps its path: output keys are closer together than the input's
// wherever new ones are added, and the pipeline's hemisphere alignment only flips signs between
// neighbours, which never changes the rotation a key stands for.
#pragma once

#include <array>
#include <cstddef>
#include <optional>

#include "animconv/model.h"

namespace animconv {

// Keys closer than this to a cut point, a grid point or another key merge into one. Float32
// times (glTF, three.js) near 10 s are about 1 microsecond apart, so closer keys could not be
// stored as distinct anyway.
constexpr double kTimingMergeSeconds = 1e-6;
// step -> linear: the hold before each change becomes a key this long before it (or half the key
// interval when that is shorter). 1 ms is far below one frame at any display rate.
constexpr double kStepHoldSeconds = 1e-3;
// cubic -> linear or step without --resample: samples at every key plus this uniform rate.
constexpr double kCubicSampleFps = 30;
// --loop-blend default: short enough not to change the motion's character, long enough that the
// correction is not a visible pop at 30 or 60 fps (3 or 6 frames).
constexpr double kDefaultLoopBlendSeconds = 0.1;
// The most numbers a resample or cubic conversion may produce over all channels (1 GiB of
// doubles), checked before allocating: `--resample 1e9` or keys at 1e300 s are usage errors.
constexpr double kMaxTimingValues = 134217728;

struct TrimRange {
  double start_seconds = 0;
  std::optional<double> end_seconds;  // unset: the end of each clip
};

struct LoopOptions {
  double blend_seconds = kDefaultLoopBlendSeconds;
};

// All unset: ApplyTiming changes nothing.
struct TimingOptions {
  // Keep [start, end] of each clip, in the input's seconds; the result starts at 0 (as glTF
  // Transform and three.js AnimationUtils.subclip do). Values at the cut points are interpolated.
  std::optional<TrimRange> trim;
  // Play this many times faster: times divided by it, cubic tangents (per second) multiplied.
  std::optional<double> speed;
  // Shift every key by this many seconds. Negative is allowed while no key moves before 0.
  std::optional<double> offset_seconds;
  // Sample every channel at k / fps (k = 0, 1, ...; one grid per clip, from 0) between its first
  // and last key, both kept. Step stays step, linear stays linear, cubic becomes linear; how far
  // the result plays from the input is measured (TimingReport::resample).
  std::optional<double> resample_fps;
  // kLinear or kStep for every channel (kCubicSpline is a usage error). Cubic -> linear bakes the
  // curve within the --reduce default tolerances (BakeCubicSplines' rule, resample.h); cubic ->
  // step samples it at its keys plus kCubicSampleFps.
  std::optional<Interpolation> interpolation;
  // Make each channel end on its first value (at the clip's end) without a pop.
  std::optional<LoopOptions> loop;
};

// How far resampled channels play from the input (ValueError's units: radians, metres, scale
// ratio, weight), per Path, with the node of the worst channel (-1: none). A grid that misses the
// input's keys cuts its corners and a linear grid cuts a cubic curve's bends: the exit-0 rule says
// the user hears of it (pipeline/convert.cpp warns over the --reduce tolerances).
struct PlaybackErrors {
  std::array<double, 4> max{};
  std::array<int, 4> worst_node{-1, -1, -1, -1};
  void Add(Path path, int node, double error);
};

struct TimingReport {
  size_t keys_before = 0;
  size_t keys_after = 0;
  PlaybackErrors resample;  // --resample: linear and cubic channels; step ones move < 1 frame
};

// Applies the set options to every clip in the order trim -> speed -> offset -> resample ->
// interpolation -> loop (docs/timing.md says why). Throws Error(kUsage) for options out of range
// (speed <= 0, fps <= 0, a trim outside a clip, a key moved before 0, ...) naming the option and
// the clip; the asset is then partly changed and must be dropped.
TimingReport ApplyTiming(Asset& asset, const TimingOptions& options);

// The single operations, on one clip; errors as above. `clip.duration_seconds`, when set, follows.
void TrimClip(Clip& clip, const TrimRange& range);
void ChangeSpeed(Clip& clip, double factor);
void OffsetClip(Clip& clip, double seconds);
void ResampleClip(Clip& clip, double fps, PlaybackErrors* errors = nullptr);
void ConvertInterpolation(Clip& clip, Interpolation target);
// A step channel as a linear one that keeps its shape: before each change of value, a key holding
// the old value kStepHoldSeconds earlier (or half the key interval when that is shorter), so the
// change becomes a 1 ms ramp. What --interpolation linear does, and what the pipeline does for a
// format whose players play STEP as linear (Format::plays_step: VRMA).
Channel StepToLinear(const Channel& channel);
// Over the last `blend_seconds` (at most the whole clip) each channel gets the difference between
// its first and last value added in, weighted by smoothstep from 0 to 1 (rotations: that much of
// the rotation from last to first, by slerp), so the motion keeps its velocity and the final key
// equals the first exactly. Cubic-spline channels are a usage error (resample them first).
void LoopClip(Clip& clip, double blend_seconds);

}  // namespace animconv
