#include "animconv/ground.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "animconv/error.h"
#include "libconvert/hips_frame.h"
#include "libconvert/lowest_foot.h"

namespace animconv {
namespace {

// Enough samples for a 100,000-frame BVH at kGroundSubdivisions; longer clips get fewer
// subdivisions, never fewer than the keys themselves.
constexpr size_t kMaxSamples = size_t{1} << 20;

FootSamples SampleTimes(const Clip& clip) {
  return SampleFeet(clip, kGroundSubdivisions, kMaxSamples);
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
  const FootSamples times = SampleTimes(clip);
  if (feet.empty() || times.size() == 0) return std::nullopt;
  const Lowest lowest = FindLowest(rig, clip, feet, times);
  return LowestFootPoint{lowest.metres, rig.nodes[static_cast<size_t>(lowest.node)].name,
                         lowest.seconds, times.size()};
}

bool FeetReachDown(const Rig& rig, const Clip& clip, double metres) {
  const std::vector<int> feet = FootAndToeNodes(rig);
  const FootSamples times = SampleTimes(clip);
  if (feet.empty() || times.size() == 0) return false;
  if (AnyFootAtOrBelowAtKeys(rig, clip, feet, times, metres)) return true;
  return FindLowest(rig, clip, feet, times).metres <= metres;
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
    const FootSamples times = SampleTimes(clip);
    if (times.size() == 0) continue;
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
