// The search behind --ground and the retarget's foot-height notes (animconv/ground.h): the lowest
// world height any foot or toe joint reaches over a clip, at its keys and kGroundSubdivisions
// times between each pair.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "animconv/model.h"

namespace animconv {

// The times the feet are posed at: every key of the clip's node channels, and `between` - 1
// evenly spaced times between each pair of keys.
struct FootSamples {
  std::vector<double> keys;  // sorted, unique
  size_t between = 1;

  size_t size() const { return keys.empty() ? 0 : (keys.size() - 1) * between + 1; }
  // Sample `index`: key index / between, or a time after it (the key itself as keys[k] + 0).
  double At(size_t index) const {
    const size_t k = index / between;
    if (k + 1 >= keys.size()) return keys.back();
    return keys[k] + (keys[k + 1] - keys[k]) * static_cast<double>(index % between) /
                         static_cast<double>(between);
  }
};

// At most `max_samples` samples, never fewer than the keys themselves.
FootSamples SampleFeet(const Clip& clip, size_t subdivisions, size_t max_samples);

struct Lowest {
  double metres = std::numeric_limits<double>::infinity();
  int node = -1;
  double seconds = 0;
};

// The lowest height of `feet` (nodes of `rig`) over `samples`: the first in time, then in `feet`
// order, where several are as low, as posing every sample in order finds it. With `sole_points`
// (one list per foot, points in the foot's own frame; ground.h, RestSoles), a foot's height is
// the lowest of its points', or its joint's where its list is empty.
using SolePoints = std::vector<std::vector<Vec3>>;
Lowest FindLowest(const Rig& rig, const Clip& clip, const std::vector<int>& feet,
                  const FootSamples& samples, const SolePoints* sole_points = nullptr);
// Whether some foot of `feet` is at or below `metres` at one of the samples' keys; stops at the
// first one it finds (on every core). False says nothing of the samples between keys.
bool AnyFootAtOrBelowAtKeys(const Rig& rig, const Clip& clip, const std::vector<int>& feet,
                            const FootSamples& samples, double metres);
// The same by posing every sample (what FindLowest does where it cannot bound a foot's travel
// between keys; tests compare the two).
Lowest FindLowestPosingEverySample(const Rig& rig, const Clip& clip, const std::vector<int>& feet,
                                   const FootSamples& samples,
                                   const SolePoints* sole_points = nullptr);

}  // namespace animconv
