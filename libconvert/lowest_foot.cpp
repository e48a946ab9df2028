#include "libconvert/lowest_foot.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>

#include "animconv/clip_poser.h"
#include "animconv/quaternion.h"
#include "animconv/sample.h"
#include "libconvert/parallel.h"

namespace animconv {
namespace {

// Samples per block of the search on every core (each block has its own poser).
constexpr size_t kBlockSamples = 4096;

void Consider(double height, int foot, double seconds, Lowest* lowest) {
  if (height < lowest->metres) *lowest = {height, foot, seconds};
}

// Foot f's height: the lowest of its sole points, or its joint's.
double FootHeight(ClipPoser& poser, int foot, const SolePoints* sole_points, size_t f) {
  if (!sole_points || (*sole_points)[f].empty()) return poser.Height(foot);
  double lowest = std::numeric_limits<double>::infinity();
  for (const Vec3& point : (*sole_points)[f]) lowest = std::min(lowest, poser.Height(foot, point));
  return lowest;
}

// How far foot f's sole points are from its joint, in its own frame (0: the joint itself).
double PointReach(const SolePoints* sole_points, size_t f) {
  double reach = 0;
  if (!sole_points) return reach;
  for (const Vec3& p : (*sole_points)[f]) {
    reach = std::max(reach, std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
  }
  return reach;
}

// The blocks' lowest points in time order: the first lowest, as one pass in order finds it.
Lowest FirstLowest(const std::vector<Lowest>& blocks) {
  Lowest lowest;
  for (const Lowest& block : blocks) {
    if (block.metres < lowest.metres) lowest = block;
  }
  return lowest;
}

}  // namespace

bool AnyFootAtOrBelowAtKeys(const Rig& rig, const Clip& clip, const std::vector<int>& feet,
                            const FootSamples& samples, double metres) {
  const size_t key_count = samples.keys.size();
  std::atomic<bool> found{false};
  ParallelFor((key_count + kBlockSamples - 1) / kBlockSamples, [&](size_t block) {
    ClipPoser poser(rig, clip);
    const size_t end = std::min(key_count, (block + 1) * kBlockSamples);
    for (size_t k = block * kBlockSamples; k < end && !found.load(std::memory_order_relaxed); ++k) {
      poser.Pose(samples.At(k * samples.between));
      for (const int foot : feet) {
        if (poser.Height(foot) <= metres) found.store(true, std::memory_order_relaxed);
      }
    }
  });
  return found.load();
}

Lowest FindLowestPosingEverySample(const Rig& rig, const Clip& clip, const std::vector<int>& feet,
                                   const FootSamples& samples, const SolePoints* sole_points) {
  const size_t count = samples.size();
  std::vector<Lowest> lowest_of((count + kBlockSamples - 1) / kBlockSamples);
  ParallelFor(lowest_of.size(), [&](size_t block) {
    ClipPoser poser(rig, clip);
    const size_t end = std::min(count, (block + 1) * kBlockSamples);
    for (size_t i = block * kBlockSamples; i < end; ++i) {
      const double seconds = samples.At(i);
      poser.Pose(seconds);
      for (size_t f = 0; f < feet.size(); ++f) {
        Consider(FootHeight(poser, feet[f], sole_points, f), feet[f], seconds, &lowest_of[block]);
      }
    }
  });
  return FirstLowest(lowest_of);
}

namespace {

// One node of a foot's chain, for the travel bound below.
struct ChainNode {
  int node = 0;
  const Channel* translation = nullptr;
  const Channel* rotation = nullptr;
  double scale = 1;  // the largest |component| of its (constant) scale: how much it stretches
};

// The chain from a root down to each foot, or nothing when a bound on how far a foot travels
// between two keys cannot be had from the keys alone: a step or cubic-spline channel (a jump, or
// an overshoot), or a scale channel, on a chain.
std::vector<std::vector<ChainNode>> TravelChains(const Rig& rig, const Clip& clip,
                                                 const std::vector<int>& feet) {
  std::vector<std::array<const Channel*, 3>> channels(rig.nodes.size());
  for (const Channel& channel : clip.channels) {
    if (channel.path != Path::kWeights) {
      channels[static_cast<size_t>(channel.node)][static_cast<int>(channel.path)] = &channel;
    }
  }
  std::vector<std::vector<ChainNode>> chains;
  for (const int foot : feet) {
    std::vector<ChainNode> chain;
    for (int n = foot; n >= 0; n = rig.nodes[static_cast<size_t>(n)].parent) {
      const auto& [t, r, s] = channels[static_cast<size_t>(n)];
      if (s || (t && t->interpolation != Interpolation::kLinear) ||
          (r && r->interpolation != Interpolation::kLinear)) {
        return {};
      }
      const Vec3& rest_scale = rig.nodes[static_cast<size_t>(n)].rest_scale;
      chain.push_back(
          {n, t, r,
           std::max({std::abs(rest_scale[0]), std::abs(rest_scale[1]), std::abs(rest_scale[2])})});
    }
    std::reverse(chain.begin(), chain.end());
    chains.push_back(std::move(chain));
  }
  return chains;
}

double Norm(const Vec3& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

// A node's translation and rotation at one key.
struct KeyLocal {
  Vec3 translation;
  Quat rotation;
};

// How far a foot can move between two keys, and how far from the origin it can be, from the
// chain's local values at both keys. Between two keys every chain node moves along a straight
// line and turns along one great arc (linear and slerp, within one segment of each channel: the
// keys are every channel's keys), so with σ the nodes' scales, Δt_j node j's translation over the
// interval, θ_j its turn and X_j the farthest its scaled frame puts the foot from it (the farther
// end's translations, since |lerp| ≤ max of the ends), the foot's path is at most
//   travel = Σ_j σ_0⋯σ_{j−1} (|Δt_j| + θ_j σ_j X_j),  X_j = τ_{j+1} + σ_{j+1} X_{j+1},  X_foot = 0,
// and its height between the keys at least (h(a) + h(b) − travel) / 2 (down from a, back up to b).
struct Travel {
  double travel = 0;
  double reach = 0;  // Σ_j σ_0⋯σ_{j−1} τ_j: the foot's distance from the origin is at most this
};

// `below`: scratch for X_j, reused from call to call (this runs per foot between every two keys).
// `point_reach`: how far the foot's sole points are from its joint in its own frame, X_foot (a
// point turning with the foot is one more node of the chain).
Travel TravelBound(const std::vector<ChainNode>& chain, const std::vector<KeyLocal>& at_a,
                   const std::vector<KeyLocal>& at_b, const std::vector<size_t>& slot,
                   double point_reach, std::vector<double>& below) {
  const size_t m = chain.size();
  // X_j from the foot up.
  below.assign(m, 0);
  below[m - 1] = point_reach;
  for (size_t j = m - 1; j-- > 0;) {
    const size_t next = slot[j + 1];
    const double farther = std::max(Norm(at_a[next].translation), Norm(at_b[next].translation));
    below[j] = farther + chain[j + 1].scale * below[j + 1];
  }
  Travel out;
  double stretch = 1;  // σ_0⋯σ_{j−1}
  for (size_t j = 0; j < m; ++j) {
    const size_t s = slot[j];
    const Vec3& ta = at_a[s].translation;
    const Vec3& tb = at_b[s].translation;
    const double moved = Norm({tb[0] - ta[0], tb[1] - ta[1], tb[2] - ta[2]});
    const double turned = AngleBetween(at_a[s].rotation, at_b[s].rotation);
    out.travel += stretch * (moved + turned * chain[j].scale * below[j]);
    out.reach += stretch * std::max(Norm(ta), Norm(tb));
    stretch *= chain[j].scale;
  }
  out.reach += stretch * point_reach;
  return out;
}

}  // namespace

FootSamples SampleFeet(const Clip& clip, size_t subdivisions, size_t max_samples) {
  // Channels mostly share their key times (every bone of a Unity CSV or a BVH): a list equal to
  // the one before is taken once (compared with that one only, so this stays linear in the
  // channels), and one list alone is sorted and unique already.
  std::vector<const std::vector<double>*> distinct;
  for (const Channel& channel : clip.channels) {
    if (channel.path == Path::kWeights) continue;
    if (distinct.empty() || *distinct.back() != channel.times_seconds) {
      distinct.push_back(&channel.times_seconds);
    }
  }
  FootSamples samples;
  for (const std::vector<double>* times : distinct) {
    samples.keys.insert(samples.keys.end(), times->begin(), times->end());
  }
  if (distinct.size() > 1) {
    std::sort(samples.keys.begin(), samples.keys.end());
    samples.keys.erase(std::unique(samples.keys.begin(), samples.keys.end()), samples.keys.end());
  }
  if (samples.keys.size() >= 2) {
    samples.between =
        std::max<size_t>(1, std::min<size_t>(subdivisions, max_samples / samples.keys.size()));
  }
  return samples;
}

// The keys first: their lowest height L bounds the answer from above. Then, between each pair of
// keys, a foot whose travel bound keeps it above L there (its heights at both ends, less half the
// travel, less a margin for rounding) is not posed: no sample there can be as low as the answer,
// so the first lowest is the one posing every sample finds. The rest is posed as before.
Lowest FindLowest(const Rig& rig, const Clip& clip, const std::vector<int>& feet,
                  const FootSamples& samples, const SolePoints* sole_points) {
  const std::vector<std::vector<ChainNode>> chains =
      samples.between > 1 ? TravelChains(rig, clip, feet) : std::vector<std::vector<ChainNode>>();
  if (chains.empty()) return FindLowestPosingEverySample(rig, clip, feet, samples, sole_points);
  const std::vector<double>& keys = samples.keys;
  const size_t key_count = keys.size();
  const size_t foot_count = feet.size();

  std::vector<double> reach(foot_count);
  for (size_t f = 0; f < foot_count; ++f) reach[f] = PointReach(sole_points, f);

  // The feet's heights at every key.
  std::vector<double> key_heights(key_count * foot_count);
  ParallelFor((key_count + kBlockSamples - 1) / kBlockSamples, [&](size_t block) {
    ClipPoser poser(rig, clip);
    for (size_t k = block * kBlockSamples; k < std::min(key_count, (block + 1) * kBlockSamples);
         ++k) {
      poser.Pose(samples.At(k * samples.between));
      for (size_t f = 0; f < foot_count; ++f) {
        key_heights[k * foot_count + f] = FootHeight(poser, feet[f], sole_points, f);
      }
    }
  });
  double keys_lowest = std::numeric_limits<double>::infinity();
  for (const double height : key_heights) keys_lowest = std::min(keys_lowest, height);

  // Each chain node once, in `slot` order, for the local values at the keys.
  std::vector<const ChainNode*> nodes;
  std::vector<std::vector<size_t>> slots(foot_count);
  std::vector<size_t> slot_of(rig.nodes.size(), static_cast<size_t>(-1));
  for (size_t f = 0; f < foot_count; ++f) {
    for (const ChainNode& node : chains[f]) {
      size_t& slot = slot_of[static_cast<size_t>(node.node)];
      if (slot == static_cast<size_t>(-1)) {
        slot = nodes.size();
        nodes.push_back(&node);
      }
      slots[f].push_back(slot);
    }
  }

  // Then the samples between keys, in blocks of whole intervals (the last block ends with the
  // last key), each foot only where it could reach the keys' lowest.
  const size_t intervals_per_block = std::max<size_t>(1, kBlockSamples / samples.between);
  const size_t intervals = key_count - 1;
  std::vector<Lowest> lowest_of((intervals + intervals_per_block - 1) / intervals_per_block);
  ParallelFor(lowest_of.size(), [&](size_t block) {
    ClipPoser poser(rig, clip);
    std::vector<std::array<ChannelCursor, 2>> cursors(nodes.size());
    const auto local_at = [&](double seconds, std::vector<KeyLocal>* out) {
      for (size_t n = 0; n < nodes.size(); ++n) {
        const Node& rest = rig.nodes[static_cast<size_t>(nodes[n]->node)];
        KeyLocal& local = (*out)[n];
        local.translation = rest.rest_translation;
        local.rotation = rest.rest_rotation;
        if (nodes[n]->translation) {
          cursors[n][0].Evaluate(*nodes[n]->translation, seconds, local.translation.data());
        }
        if (nodes[n]->rotation) {
          cursors[n][1].Evaluate(*nodes[n]->rotation, seconds, local.rotation.data());
        }
      }
    };
    std::vector<KeyLocal> at_a(nodes.size());
    std::vector<KeyLocal> at_b(nodes.size());
    const size_t first = block * intervals_per_block;
    const size_t end = std::min(intervals, first + intervals_per_block);
    Lowest& lowest = lowest_of[block];
    std::vector<bool> posed(foot_count);
    std::vector<double> below;
    local_at(keys[first], &at_a);
    for (size_t k = first; k < end; ++k) {
      local_at(keys[k + 1], &at_b);
      bool any = false;
      for (size_t f = 0; f < foot_count; ++f) {
        const double a = key_heights[k * foot_count + f];
        const double b = key_heights[(k + 1) * foot_count + f];
        const Travel travel = TravelBound(chains[f], at_a, at_b, slots[f], reach[f], below);
        // Rounding: the poser's heights and this bound are each within far less than 1e-9 of
        // the foot's distance from the origin, or of the travel.
        const double margin = 1e-9 * (1 + travel.reach + travel.travel);
        const double at_least = 0.5 * (a + b - travel.travel) - margin;
        posed[f] = !(at_least > keys_lowest);  // NaN: posed
        any = any || posed[f];
      }
      const double key_seconds = samples.At(k * samples.between);
      for (size_t f = 0; f < foot_count; ++f) {
        Consider(key_heights[k * foot_count + f], feet[f], key_seconds, &lowest);
      }
      for (size_t i = 1; any && i < samples.between; ++i) {
        const double seconds = samples.At(k * samples.between + i);
        poser.Pose(seconds);
        for (size_t f = 0; f < foot_count; ++f) {
          if (posed[f]) {
            Consider(FootHeight(poser, feet[f], sole_points, f), feet[f], seconds, &lowest);
          }
        }
      }
      std::swap(at_a, at_b);
    }
    if (end == intervals) {
      for (size_t f = 0; f < foot_count; ++f) {
        Consider(key_heights[intervals * foot_count + f], feet[f], keys.back(), &lowest);
      }
    }
  });
  return FirstLowest(lowest_of);
}

}  // namespace animconv
