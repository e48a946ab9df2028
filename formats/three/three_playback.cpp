#include "formats/three/three_playback.h"

#include <fmt/format.h>

#include <algorithm>

#include "animconv/sample.h"
#include "animconv/timing.h"

namespace animconv {

void CutToThreeDuration(Clip& clip, std::vector<std::string>* notes) {
  if (!clip.duration_seconds) return;
  const double end = *clip.duration_seconds;
  double last = 0;
  for (const Channel& channel : clip.channels) {
    if (!channel.times_seconds.empty()) last = std::max(last, channel.times_seconds.back());
  }
  // Keys that are past the duration only by float32 rounding (three.js holds times in
  // Float32Arrays: 0.416667 is stored as 0.41666701) are at the end, not after it.
  const double rounding = std::max(kTimingMergeSeconds, end * 0x1p-23);
  if (!(last > end + rounding)) return;
  if (end > 0) {
    TrimClip(clip, TrimRange{0, end});
  } else {
    for (Channel& channel : clip.channels) {
      std::vector<double> value(static_cast<size_t>(channel.width));
      EvaluateChannel(channel, 0, value.data());
      channel.times_seconds = {0};
      channel.values = std::move(value);
      if (channel.interpolation == Interpolation::kCubicSpline) {
        channel.interpolation = Interpolation::kLinear;
      }
    }
  }
  clip.duration_seconds = end;
  notes->push_back(fmt::format(
      "clip '{}': keys after its duration ({} s; the last at {} s) were cut off there, as "
      "three.js never plays them",
      clip.name, end, last));
}

void ParentToThreeRoot(Rig& rig) {
  const auto root = std::find_if(rig.nodes.begin(), rig.nodes.end(),
                                 [](const Node& node) { return node.name.empty(); });
  if (root == rig.nodes.end()) return;
  const int root_index = static_cast<int>(root - rig.nodes.begin());
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    if (static_cast<int>(n) != root_index) rig.nodes[n].parent = root_index;
  }
}

}  // namespace animconv
