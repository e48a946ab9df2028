#include "animconv/reduce.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "animconv/quaternion.h"
#include "libconvert/value_error.h"

namespace animconv {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Where the reduced curve is compared with the original between two original keys. For
// translations, weights and scale both curves are linear in time between original keys, so the
// distance (convex) and the ratio (linear-fractional, monotone) peak at original keys and the keys
// alone are exact; slerp curves are not linear, so rotations are also checked inside every
// original segment. The error there is second order in the angles; three points are plenty.
constexpr double kRotationFractions[] = {0.25, 0.5, 0.75};

struct Tolerances {
  double rotation_radians = 0;
  double translation = 0;
  double scale = 0;
  double weight = 0;

  double For(Path path) const {
    switch (path) {
      case Path::kRotation:
        return rotation_radians;
      case Path::kTranslation:
        return translation;
      case Path::kScale:
        return scale;
      case Path::kWeights:
        return weight;
    }
    return 0;
  }
};

// The original curve at every original key and at the checked points between keys.
struct OriginalCurve {
  Path path = Path::kRotation;
  size_t width = 0;
  std::vector<double> keys;        // key values, rotations normalised
  std::vector<double> times;       // sample times
  std::vector<double> values;      // sample values, `width` each
  std::vector<size_t> key_sample;  // the sample index of each original key

  const double* Key(size_t key) const { return keys.data() + key * width; }
  const double* Sample(size_t sample) const { return values.data() + sample * width; }
};

OriginalCurve SampleOriginal(const Channel& channel) {
  OriginalCurve curve;
  curve.path = channel.path;
  curve.width = static_cast<size_t>(channel.width);
  const size_t count = channel.key_count();
  for (size_t k = 0; k < count; ++k) {
    const double* value = channel.key_value(k);
    if (channel.path == Path::kRotation && Length(LoadQuat(value)) > 0) {
      const Quat unit = Normalized(LoadQuat(value));
      curve.keys.insert(curve.keys.end(), unit.begin(), unit.end());
    } else {
      curve.keys.insert(curve.keys.end(), value, value + curve.width);
    }
  }
  const bool between =
      channel.path == Path::kRotation && channel.interpolation == Interpolation::kLinear;
  for (size_t k = 0; k < count; ++k) {
    curve.key_sample.push_back(curve.times.size());
    curve.times.push_back(channel.times_seconds[k]);
    curve.values.insert(curve.values.end(), curve.Key(k), curve.Key(k) + curve.width);
    if (!between || k + 1 == count) continue;
    const Quat a = LoadQuat(curve.Key(k));
    const Quat b = LoadQuat(curve.Key(k + 1));
    const double t0 = channel.times_seconds[k];
    const double t1 = channel.times_seconds[k + 1];
    const SlerpArc arc = ArcBetween(a, b);  // SlerpShortest's, once for the three
    for (const double fraction : kRotationFractions) {
      const Quat q = SlerpAlong(arc, a, b, fraction);
      curve.times.push_back(t0 + (t1 - t0) * fraction);
      curve.values.insert(curve.values.end(), q.begin(), q.end());
    }
  }
  return curve;
}

// Whether every sample is within `tolerance` of the constant `value`.
bool AllWithin(const OriginalCurve& curve, const double* value, double tolerance) {
  for (size_t s = 0; s < curve.times.size(); ++s) {
    if (ValueError(curve.path, curve.Sample(s), curve.width, value, curve.width) > tolerance) {
      return false;
    }
  }
  return true;
}

// Whether interpolating from key `first` straight to key `last` stays within `tolerance` of the
// original at every sample in between: the whole span is checked against the original each time,
// so errors cannot add up across dropped keys.
bool SpanFits(const OriginalCurve& curve, size_t first, size_t last, double tolerance) {
  const double t0 = curve.times[curve.key_sample[first]];
  const double t1 = curve.times[curve.key_sample[last]];
  const double* a = curve.Key(first);
  const double* b = curve.Key(last);
  if (curve.path == Path::kRotation) {
    // SlerpShortest's arc once per span, and the angle compared without its atan2 where that is
    // clear: the same bits and the same answers, several times faster on a dense clip.
    const Quat from = LoadQuat(a);
    const Quat to = LoadQuat(b);
    const SlerpArc arc = ArcBetween(from, to);
    const AngleLimit limit(tolerance);
    for (size_t s = curve.key_sample[first] + 1; s < curve.key_sample[last]; ++s) {
      const double alpha = (curve.times[s] - t0) / (t1 - t0);
      if (limit.ExceededBy(LoadQuat(curve.Sample(s)), SlerpAlong(arc, from, to, alpha))) {
        return false;
      }
    }
    return true;
  }
  std::vector<double> reduced(curve.width);
  for (size_t s = curve.key_sample[first] + 1; s < curve.key_sample[last]; ++s) {
    const double alpha = (curve.times[s] - t0) / (t1 - t0);
    for (size_t i = 0; i < curve.width; ++i) reduced[i] = a[i] + (b[i] - a[i]) * alpha;
    if (ValueError(curve.path, curve.Sample(s), curve.width, reduced.data(), curve.width) >
        tolerance) {
      return false;
    }
  }
  return true;
}

// Greedy forward extension: from each kept key, the farthest key the span still fits to, found by
// doubling then bisecting. Every accepted span was checked in full, so the result is within the
// tolerance even where fitting is not monotone in the span's end (bisection may then stop short,
// which costs keys, never accuracy).
std::vector<size_t> KeepLinear(const OriginalCurve& curve, double tolerance) {
  const size_t count = curve.key_sample.size();
  std::vector<size_t> kept = {0};
  size_t first = 0;
  while (first + 1 < count) {
    size_t good = first + 1;  // a span to the next key always fits: it is the original
    size_t bad = count;       // the first end found not to fit; count = none found
    for (size_t step = 2;; step *= 2) {
      const size_t probe = std::min(first + step, count - 1);
      if (probe <= good) break;
      if (!SpanFits(curve, first, probe, tolerance)) {
        bad = probe;
        break;
      }
      good = probe;
    }
    while (bad < count && bad - good > 1) {
      const size_t middle = good + (bad - good) / 2;
      (SpanFits(curve, first, middle, tolerance) ? good : bad) = middle;
    }
    kept.push_back(good);
    first = good;
  }
  return kept;
}

// A step curve holds each kept key until the next: a key can go only when it is within the
// tolerance of the value being held, which keeps step semantics and measures against the original.
std::vector<size_t> KeepStep(const OriginalCurve& curve, double tolerance) {
  std::vector<size_t> kept = {0};
  for (size_t k = 1; k < curve.key_sample.size(); ++k) {
    if (ValueError(curve.path, curve.Key(k), curve.width, curve.Key(kept.back()), curve.width) >
        tolerance) {
      kept.push_back(k);
    }
  }
  return kept;
}

void KeepOnly(Channel& channel, const std::vector<size_t>& kept) {
  const size_t width = static_cast<size_t>(channel.width);
  std::vector<double> times;
  std::vector<double> values;
  for (const size_t k : kept) {
    times.push_back(channel.times_seconds[k]);
    values.insert(values.end(), channel.key_value(k), channel.key_value(k) + width);
  }
  channel.times_seconds = std::move(times);
  channel.values = std::move(values);
}

// The largest absolute component over a node's keys of `path` in the clip, at least `floor`.
double LargestKeyComponent(const Clip& clip, int node, Path path, double floor) {
  double largest = floor;
  for (const Channel& channel : clip.channels) {
    if (channel.node != node || channel.path != path) continue;
    for (size_t k = 0; k < channel.key_count(); ++k) {
      for (int i = 0; i < channel.width; ++i) {
        largest = std::max(largest, std::fabs(channel.key_value(k)[i]));
      }
    }
  }
  return largest;
}

double LongestTranslation(const Clip& clip, const Node& node, int index) {
  double longest =
      std::hypot(node.rest_translation[0], node.rest_translation[1], node.rest_translation[2]);
  for (const Channel& channel : clip.channels) {
    if (channel.node != index || channel.path != Path::kTranslation) continue;
    for (size_t k = 0; k < channel.key_count(); ++k) {
      const double* t = channel.key_value(k);
      longest = std::max(longest, std::hypot(t[0], t[1], t[2]));
    }
  }
  return longest;
}

// The rig's nodes with every parent before its children (a parent may follow its children in the
// node list), breadth-first from the roots, and each node's children: for the passes over the
// chains below, iterative because rigs can be deep (docs/reliability.md, "Limits").
struct RootsFirst {
  explicit RootsFirst(const std::vector<Node>& nodes) : children(nodes.size()) {
    for (size_t n = 0; n < nodes.size(); ++n) {
      if (nodes[n].parent >= 0) {
        children[static_cast<size_t>(nodes[n].parent)].push_back(n);
      } else {
        order.push_back(n);
      }
    }
    for (size_t i = 0; i < order.size(); ++i) {
      order.insert(order.end(), children[order[i]].begin(), children[order[i]].end());
    }
  }
  std::vector<std::vector<size_t>> children;
  std::vector<size_t> order;
};

// Per-node tolerances for the hierarchical bound. A point D from joint c moves, to first order, by
// the sum over c and its ancestors a of (rotation error + scale error) × (distance from a to the
// point) + translation error × a's parent world scale. Distances are bounded by bone lengths
// (the longest of the rest and every key, times the parent's world scale) plus D times the
// joint's world scale, world scale by the largest scale component.
// The position budget E = translation_metres is split so that every root-to-leaf chain sums to at
// most E: a joint gets E / (animated joints on the longest chain through it), shared equally by
// its animated paths.
std::vector<Tolerances> HierarchicalTolerances(const Asset& asset, const Clip& clip,
                                               const Tolerances& base, double distance) {
  const std::vector<Node>& nodes = asset.rig.nodes;
  const size_t count = nodes.size();
  std::vector<int> animated_paths(count, 0);
  for (const Path path : {Path::kTranslation, Path::kRotation, Path::kScale}) {
    std::vector<bool> seen(count, false);
    for (const Channel& channel : clip.channels) {
      if (channel.path == path) seen[static_cast<size_t>(channel.node)] = true;
    }
    for (size_t n = 0; n < count; ++n) animated_paths[n] += seen[n] ? 1 : 0;
  }
  const RootsFirst walk(nodes);
  const std::vector<std::vector<size_t>>& children = walk.children;
  const std::vector<size_t>& order = walk.order;
  std::vector<double> world_scale(count, 1);
  std::vector<double> parent_scale(count, 1);
  std::vector<int> animated_above(count, 0);  // animated joints from the root to the node
  for (const size_t n : order) {
    const int parent = nodes[n].parent;
    parent_scale[n] = parent < 0 ? 1 : world_scale[static_cast<size_t>(parent)];
    const double rest_scale =
        std::max({std::fabs(nodes[n].rest_scale[0]), std::fabs(nodes[n].rest_scale[1]),
                  std::fabs(nodes[n].rest_scale[2])});
    world_scale[n] =
        parent_scale[n] * LargestKeyComponent(clip, static_cast<int>(n), Path::kScale, rest_scale);
    animated_above[n] = (parent < 0 ? 0 : animated_above[static_cast<size_t>(parent)]) +
                        (animated_paths[n] > 0 ? 1 : 0);
  }
  // Bottom-up: the farthest virtual point below a joint and the most animated joints below it.
  // A virtual point sits D along its joint's own axes, so D times the joint's world scale away in
  // object space: ACL's convention, what `diff --hierarchical` measures and where a skinned vertex
  // of a scaled joint goes.
  std::vector<double> reach(count);
  for (size_t n = 0; n < count; ++n) reach[n] = distance * world_scale[n];
  std::vector<int> animated_below(count, 0);  // including the node itself
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const size_t n = *it;
    int below = 0;
    for (const size_t child : children[n]) {
      const double bone =
          LongestTranslation(clip, nodes[child], static_cast<int>(child)) * parent_scale[child];
      reach[n] = std::max(reach[n], bone + reach[child]);
      below = std::max(below, animated_below[child]);
    }
    animated_below[n] = below + (animated_paths[n] > 0 ? 1 : 0);
  }
  std::vector<Tolerances> tolerances(count, base);
  for (size_t n = 0; n < count; ++n) {
    if (animated_paths[n] == 0) continue;
    const int chain = animated_above[n] + animated_below[n] - 1;
    const double budget = base.translation / chain / animated_paths[n];
    Tolerances& t = tolerances[n];
    t.rotation_radians = std::min(t.rotation_radians, budget / reach[n]);
    t.scale = std::min(t.scale, budget / reach[n]);
    if (parent_scale[n] > 0) t.translation = std::min(t.translation, budget / parent_scale[n]);
  }
  return tolerances;
}

// ReduceOptions::model_space_rotations: each node's rotation tolerance at most the base one over
// the number of rotation channels on the longest root-to-leaf chain through it, so that along any
// chain the shares add up to the base tolerance at most.
void ShareRotationsAlongChains(const Asset& asset, const Clip& clip, double rotation_radians,
                               std::vector<Tolerances>& tolerances) {
  const std::vector<Node>& nodes = asset.rig.nodes;
  const size_t count = nodes.size();
  std::vector<int> rotated(count, 0);
  for (const Channel& channel : clip.channels) {
    if (channel.path == Path::kRotation) rotated[static_cast<size_t>(channel.node)] = 1;
  }
  const RootsFirst walk(nodes);
  const std::vector<std::vector<size_t>>& children = walk.children;
  const std::vector<size_t>& order = walk.order;
  // Top-down, then bottom-up.
  std::vector<int> above(count, 0);  // rotated nodes from the root to the node, itself included
  for (const size_t n : order) {
    const int parent = nodes[n].parent;
    above[n] = (parent < 0 ? 0 : above[static_cast<size_t>(parent)]) + rotated[n];
  }
  std::vector<int> below(count, 0);  // the most rotated nodes below it on one chain, itself too
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    int deepest = 0;
    for (const size_t child : children[*it]) deepest = std::max(deepest, below[child]);
    below[*it] = deepest + rotated[*it];
  }
  for (size_t n = 0; n < count; ++n) {
    const int chain = above[n] + below[n] - rotated[n];
    if (chain > 1) {
      tolerances[n].rotation_radians =
          std::min(tolerances[n].rotation_radians, rotation_radians / chain);
    }
  }
}

enum class Outcome { kReduced, kCollapsed, kRemoved, kCubic };

Outcome ReduceChannel(Channel& channel, const Node& node, bool rest_known, const Tolerances& t,
                      const ReduceOptions& options) {
  if (channel.interpolation == Interpolation::kCubicSpline) return Outcome::kCubic;
  const double tolerance = t.For(channel.path);
  const OriginalCurve curve = SampleOriginal(channel);
  if (options.drop_rest_constant && rest_known && channel.path != Path::kWeights) {
    std::vector<double> rest = RestValue(node, channel.path);
    if (channel.path == Path::kRotation) StoreQuat(Normalized(LoadQuat(rest.data())), rest.data());
    if (AllWithin(curve, rest.data(), tolerance)) return Outcome::kRemoved;
  }
  if (AllWithin(curve, curve.Key(0), tolerance)) {
    KeepOnly(channel, {0});
    return Outcome::kCollapsed;
  }
  KeepOnly(channel, channel.interpolation == Interpolation::kStep ? KeepStep(curve, tolerance)
                                                                  : KeepLinear(curve, tolerance));
  return Outcome::kReduced;
}

}  // namespace

size_t ReduceReport::keys_before() const {
  size_t sum = 0;
  for (const PathReduction& path : paths) sum += path.keys_before;
  return sum;
}

size_t ReduceReport::keys_after() const {
  size_t sum = 0;
  for (const PathReduction& path : paths) sum += path.keys_after;
  return sum;
}

ReduceReport Reduce(Asset& asset, const ReduceOptions& options) {
  ReduceReport report;
  const Tolerances base{options.rotation_degrees * kPi / 180, options.translation_metres,
                        options.scale_ratio, options.weight};
  for (Clip& clip : asset.clips) {
    const double duration = clip.duration();
    std::vector<Tolerances> tolerances =
        options.hierarchical_distance_metres
            ? HierarchicalTolerances(asset, clip, base, *options.hierarchical_distance_metres)
            : std::vector<Tolerances>(asset.rig.nodes.size(), base);
    if (options.model_space_rotations) {
      ShareRotationsAlongChains(asset, clip, base.rotation_radians, tolerances);
    }
    std::vector<Channel> kept;
    Channel* first_removed = nullptr;
    for (Channel& channel : clip.channels) {
      PathReduction& path = report.paths[static_cast<size_t>(channel.path)];
      path.channels += 1;
      path.keys_before += channel.key_count();
      const size_t node = static_cast<size_t>(channel.node);
      switch (ReduceChannel(channel, asset.rig.nodes[node], asset.rig.rest_pose_known,
                            tolerances[node], options)) {
        case Outcome::kRemoved:
          report.channels_removed += 1;
          if (!first_removed) first_removed = &channel;
          continue;
        case Outcome::kCollapsed:
          report.channels_collapsed += 1;
          break;
        case Outcome::kCubic:
          report.cubic_channels_kept += 1;
          break;
        case Outcome::kReduced:
          break;
      }
      path.keys_after += channel.key_count();
      kept.push_back(std::move(channel));
    }
    if (kept.empty() && first_removed) {
      // Every channel equals the rest pose: a clip with no channel is not written at all (a glTF
      // animation needs one), and a player that loads the file for its clip (three-vrm-animation's
      // vrmAnimations[0]) finds none. One channel stays, at its first and last keys, so the clip
      // is written and lasts as long as it did.
      Channel& channel = *first_removed;
      const size_t last = channel.key_count() - 1;
      KeepOnly(channel, last > 0 ? std::vector<size_t>{0, last} : std::vector<size_t>{0});
      report.channels_removed -= 1;
      report.clips_kept_at_rest += 1;
      report.paths[static_cast<size_t>(channel.path)].keys_after += channel.key_count();
      kept.push_back(std::move(channel));
    }
    clip.channels = std::move(kept);
    // Collapsed and removed channels end early; the clip still lasts as long as it did.
    if (clip.duration() != duration) clip.duration_seconds = duration;
  }
  return report;
}

std::string DescribeReduction(const ReduceReport& report) {
  const size_t before = report.keys_before();
  const size_t after = report.keys_after();
  std::string text = fmt::format(
      "keys {} -> {} ({:.1f} %)", before, after,
      before ? 100.0 * static_cast<double>(after) / static_cast<double>(before) : 100.0);
  const char* separator = ": ";
  for (size_t p = 0; p < report.paths.size(); ++p) {
    const PathReduction& path = report.paths[p];
    if (path.channels == 0) continue;
    text += fmt::format("{}{} {} -> {}", separator, PathName(static_cast<Path>(p)),
                        path.keys_before, path.keys_after);
    separator = ", ";
  }
  text += fmt::format("; {} channel(s) collapsed to one key, {} removed (equal to the rest pose)",
                      report.channels_collapsed, report.channels_removed);
  if (report.clips_kept_at_rest) {
    text += fmt::format(
        ", {} clip(s) wholly at the rest pose kept with one channel at its first and last keys",
        report.clips_kept_at_rest);
  }
  if (report.cubic_channels_kept) {
    text +=
        fmt::format(", {} cubic-spline channel(s) left as they are", report.cubic_channels_kept);
  }
  return text;
}

}  // namespace animconv
