#include "pipeline/hold_duration.h"

#include <fmt/format.h>

#include <algorithm>

namespace animconv {
namespace {

// A clip lasting past its last key by less than this ends there for any player (a 120 fps frame
// is 83 times longer), and a key that close after the last one is no key a float32 time tells
// apart (an FBX's 0.666667 s duration after its key at 2/3 s). The sweep's duration tolerance.
constexpr double kHeldSecondsAtLeast = 1e-4;

// The channel's last key time; -1 without keys.
double LastKeySeconds(const Channel& channel) {
  return channel.times_seconds.empty() ? -1 : channel.times_seconds.back();
}

// Appends a key at `seconds` holding the channel's last value.
void AppendHoldKey(Channel& channel, double seconds) {
  const size_t width = static_cast<size_t>(channel.width);
  const size_t stride = channel.interpolation == Interpolation::kCubicSpline ? 3 * width : width;
  const size_t last = channel.values.size() - stride;
  std::vector<double> key(channel.values.begin() + static_cast<std::ptrdiff_t>(last),
                          channel.values.end());
  if (channel.interpolation == Interpolation::kCubicSpline) {
    // [in-tangent, value, out-tangent]: the last key's out-tangent shaped no segment before; now
    // it starts the held one, which is flat only with both tangents zero.
    std::fill(channel.values.end() - static_cast<std::ptrdiff_t>(width), channel.values.end(), 0.0);
    std::fill(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(width), 0.0);
    std::fill(key.end() - static_cast<std::ptrdiff_t>(width), key.end(), 0.0);
  }
  channel.times_seconds.push_back(seconds);
  channel.values.insert(channel.values.end(), key.begin(), key.end());
}

}  // namespace

void HoldToDuration(Asset& asset, const Format& format, Diagnostics* diagnostics) {
  if (format.stores_duration) return;
  for (Clip& clip : asset.clips) {
    if (!clip.duration_seconds) continue;
    double last = -1;
    for (const Channel& channel : clip.channels) last = std::max(last, LastKeySeconds(channel));
    if (last < 0 || *clip.duration_seconds <= last + kHeldSecondsAtLeast) continue;
    for (Channel& channel : clip.channels) {
      if (LastKeySeconds(channel) != last) continue;
      AppendHoldKey(channel, *clip.duration_seconds);
      AddDiagnostic(diagnostics, Severity::kInfo,
                    fmt::format("clip '{}' lasts {:g} s, past its last key at {:g} s: a {} file "
                                "ends at its last key, so '{}.{}' holds its last value to {:g} s",
                                clip.name, *clip.duration_seconds, last, format.id,
                                asset.rig.nodes[static_cast<size_t>(channel.node)].name,
                                PathName(channel.path), *clip.duration_seconds));
      break;
    }
  }
}

}  // namespace animconv
