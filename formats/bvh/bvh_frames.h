// BVH's one `Frame Time`: which grid the clip is written on, and how far that plays from the
// clip (docs/formats/bvh.md, "Writing", "Frames").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "animconv/model.h"

namespace animconv {

// Without --fps/--interval, a clip whose keys are not on one uniform grid is sampled at its
// densest key rate, rounded to whole frames per second and held to this range: 30 fps keeps
// slow key sets from losing their curves, 120 fps (mocap's highest common rate) keeps 1 ms step
// holds from asking for 1000 fps.
constexpr double kBvhMinDefaultFps = 30;
constexpr double kBvhMaxDefaultFps = 120;
// A clip without two keys in any channel (a pose) is one frame, stated at this rate.
constexpr double kBvhPoseFps = 30;

struct BvhFrames {
  double interval_seconds = 0;
  std::string interval_text;  // as written after "Frame Time:", reading back as interval_seconds
  size_t count = 0;
  // True when every key of `channels` is a frame time: the frames are the keys themselves.
  bool on_key_grid = false;
  // The interval of the coarsest grid from 0 that holds every key, whatever was requested: what a
  // warning advises when the frames are elsewhere (--fps 24 for 24 fps keys, not "higher").
  std::optional<double> key_grid_seconds;
  double Time(size_t frame) const { return static_cast<double>(frame) * interval_seconds; }
};

// `requested` (--interval/--fps) when given; else the keys' own grid when all keys of
// `channels` lie on one k·interval grid from 0 (within 1e-6 s, or the float32 precision of
// times past 2 s) at the rate of their smallest gap or a whole multiple of it up to
// kBvhMaxDefaultFps; else the default rate above.
// Frames run from 0 to the first frame at or after the clip's duration.
BvhFrames ChooseBvhFrames(const Clip& clip, const std::vector<const Channel*>& channels,
                          std::optional<double> requested);

// The time `channel` is sampled at for a frame at `seconds`: for a step channel, its next key's
// time where that is within the grid tolerance above (float32 key times, and the written Frame
// Time's last digits, put a key on a frame a hair after it); else `seconds`. Sampled at the
// frame's own time, a step channel still held its old value there: a step at 1 s was missed by
// frame 30 at 30 x 0.03333333333 s, and the BVH ended 60 degrees from the clip's last pose
// (review 4).
double FrameSampleSeconds(const Channel& channel, double seconds);

}  // namespace animconv
