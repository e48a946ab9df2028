// Shared key times for compact glTF output (`convert --compress`, docs/formats/gltf.md "Compact
// output"): channels of one clip whose key times differ are put on the union of their times where
// that is estimated to take fewer bytes, so that one time accessor serves them all. After
// `--reduce` each channel keeps its own keys (RobotExpressive: 193 samplers, 130 time accessors).
//
// Exact: a key is only added on its channel's own curve, evaluated where it is added
// (EvaluateChannel), so the channel plays as before. That holds for step channels (the key holds
// the value held there) and linear ones (a point on a segment's line, or on its slerp arc for a
// rotation: both halves follow the same arc at the same speed). Cubic splines are left alone.
// Format-free and pure.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "animconv/model.h"

namespace animconv {

struct ShareKeyTimesOptions {
  // Times compared, merged and written as float32, as glTF stores them: two times one float32
  // holds are one key (glTF 2.0 §3.11: a sampler's times strictly increase).
  bool float32_times = true;
  // The estimated bytes of one more time accessor (its JSON with min and max, ~90 bytes, and its
  // share of a view); of one key time; and per key of each kind of value, as --compress usually
  // stores it (rotations as four 16-bit numbers, translations and scales as three 32-bit ones,
  // each morph weight as a 16-bit number). With these no output of bench/compress_vs_peers.sh
  // grew (docs/performance.md, "Float32 text, shared key times ...").
  double accessor_bytes = 100;
  double time_bytes = 4;
  double rotation_bytes = 8;
  double vector_bytes = 12;
  double weight_bytes = 2;
  // Clips with more distinct key-time sets than this are left as they are: the pairwise search
  // is quadratic in them per merge (a BVH of thousands of joints).
  size_t max_time_sets = 256;
};

struct ShareKeyTimesReport {
  size_t time_sets_before = 0;  // distinct key-time sets, summed over the clips
  size_t time_sets_after = 0;
  size_t channels_moved = 0;  // channels given keys from other channels' times
  size_t keys_added = 0;

  std::string Describe() const;
};

// `clip` with its channels on shared key times where that pays (above), or nullopt when no
// channel takes a key (the clip is then written as it is, not copied). Adds what it did to
// `report` when given.
std::optional<Clip> ShareKeyTimes(const Clip& clip, const ShareKeyTimesOptions& options,
                                  ShareKeyTimesReport* report = nullptr);

}  // namespace animconv
