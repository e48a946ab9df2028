#include "animconv/ground.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "animconv/clip_poser.h"
#include "animconv/error.h"
#include "libconvert/hips_frame.h"
#include "libconvert/parallel.h"

namespace animconv {
namespace {

// Enough samples for a 100,000-frame BVH at kGroundSubdivisions; longer clips get fewer
// subdivisions, never fewer than the keys themselves.
constexpr size_t kMaxSamples = size_t{1} << 20;

std::vector<double> SampleTimes(const Clip& clip) {
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
  std::vector<double> keys;
  for (const std::vector<double>* times : distinct) {
    keys.insert(keys.end(), times->begin(), times->end());
  }
  if (distinct.size() > 1) {
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  }
  if (keys.size() < 2) return keys;
  const size_t between =
      std::max<size_t>(1, std::min<size_t>(kGroundSubdivisions, kMaxSamples / keys.size()));
  std::vector<double> times;
  times.reserve((keys.size() - 1) * between + 1);
  for (size_t k = 0; k + 1 < keys.size(); ++k) {
    for (size_t i = 0; i < between; ++i) {
      times.push_back(keys[k] + (keys[k + 1] - keys[k]) * static_cast<double>(i) /
                                    static_cast<double>(between));
    }
  }
  times.push_back(keys.back());
  return times;
}

struct Lowest {
  double metres = std::numeric_limits<double>::infinity();
  int node = -1;
  double seconds = 0;
};

// The lowest foot or toe point at `times`, the first (in time, then in `feet` order) where several
// are as low. A long clip is searched in blocks of times on every core, each with its own poser;
// the blocks' results are taken in order, so the answer is the one-core search's.
Lowest FindLowest(const Rig& rig, const Clip& clip, const std::vector<int>& feet,
                  const std::vector<double>& times) {
  constexpr size_t kBlockSamples = 4096;
  const size_t blocks = (times.size() + kBlockSamples - 1) / kBlockSamples;
  std::vector<Lowest> lowest_of(blocks);
  ParallelFor(blocks, [&](size_t block) {
    ClipPoser poser(rig, clip);
    Lowest& lowest = lowest_of[block];
    const size_t end = std::min(times.size(), (block + 1) * kBlockSamples);
    for (size_t i = block * kBlockSamples; i < end; ++i) {
      poser.Pose(times[i]);
      for (const int foot : feet) {
        const double height = poser.Height(foot);
        if (height < lowest.metres) lowest = {height, foot, times[i]};
      }
    }
  });
  Lowest lowest;
  for (const Lowest& block : lowest_of) {
    if (block.metres < lowest.metres) lowest = block;
  }
  return lowest;
}

Channel& HipsTranslation(Clip& clip, const Node& hips_node, int hips) {
  const auto found = std::find_if(
      clip.channels.begin(), clip.channels.end(),
      [&](const Channel& c) { return c.node == hips && c.path == Path::kTranslation; });
  if (found != clip.channels.end()) return *found;
  // The hips held at their rest translation over the clip's time span, which the offset moves.
  double first = std::numeric_limits<double>::infinity();
  for (const Channel& channel : clip.channels) first = std::min(first, channel.times_seconds[0]);
  const double last = clip.duration();
  Channel channel;
  channel.node = hips;
  channel.path = Path::kTranslation;
  channel.width = 3;
  channel.times_seconds = last > first ? std::vector<double>{first, last} : std::vector{first};
  for (size_t k = 0; k < channel.times_seconds.size(); ++k) {
    channel.values.insert(channel.values.end(), hips_node.rest_translation.begin(),
                          hips_node.rest_translation.end());
  }
  clip.channels.push_back(std::move(channel));
  return clip.channels.back();
}

}  // namespace

std::optional<LowestFootPoint> MeasureLowestFootPoint(const Rig& rig, const Clip& clip) {
  const std::vector<int> feet = FootAndToeNodes(rig);
  const std::vector<double> times = SampleTimes(clip);
  if (feet.empty() || times.empty()) return std::nullopt;
  const Lowest lowest = FindLowest(rig, clip, feet, times);
  return LowestFootPoint{lowest.metres, rig.nodes[static_cast<size_t>(lowest.node)].name,
                         lowest.seconds, times.size()};
}

GroundReport ApplyGround(Asset& asset) {
  const int hips = HumanBoneNode(asset.rig, HumanBone::kHips);
  const std::vector<int> feet = FootAndToeNodes(asset.rig);
  if (hips < 0 || feet.empty()) {
    ThrowUsage(fmt::format(
        "--ground needs the humanoid hips and at least one foot or toe bone: the rig has {} "
        "(animconv bones lists the humanoid mapping; --bone-map names them)",
        hips < 0 ? "no hips" : "no feet"));
  }
  GroundReport report;
  for (Clip& clip : asset.clips) {
    const std::vector<double> times = SampleTimes(clip);
    if (times.empty()) continue;
    const Lowest before = FindLowest(asset.rig, clip, feet, times);
    const HipsParentFrame frame(asset.rig, clip, hips, "--ground");
    const Vec3 offset = frame.FromModel({0, -before.metres, 0});
    Channel& channel = HipsTranslation(clip, asset.rig.nodes[static_cast<size_t>(hips)], hips);
    for (size_t k = 0; k < channel.key_count(); ++k) {
      double* value = channel.key_value(k);
      for (size_t c = 0; c < 3; ++c) value[c] += offset[c];
    }
    GroundedClip grounded;
    grounded.clip = clip.name;
    grounded.lowest_before_metres = before.metres;
    grounded.lowest_node = asset.rig.nodes[static_cast<size_t>(before.node)].name;
    grounded.lowest_seconds = before.seconds;
    grounded.shift_metres = -before.metres;
    grounded.lowest_after_metres = FindLowest(asset.rig, clip, feet, times).metres;
    grounded.samples = times.size();
    report.clips.push_back(std::move(grounded));
  }
  return report;
}

}  // namespace animconv
