#include "pipeline/step_channels.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "animconv/resample.h"
#include "libconvert/text.h"
#include "libconvert/value_error.h"

namespace animconv {
namespace {

// "node.path, ..." for the first ten of `names`, "and N more" for the rest.
std::string ChannelList(const std::vector<std::string>& names) { return ListFirst(names, 10); }

std::string ChannelName(const Asset& asset, const Channel& channel) {
  return fmt::format("{}.{}", asset.rig.nodes[static_cast<size_t>(channel.node)].name,
                     PathName(channel.path));
}

}  // namespace

// Step channels keep their values under --resample and --interpolation linear, but their changes
// move: to the next grid time (up to one frame later), or into a 1 ms ramp (docs/timing.md). A
// player sampling between shows the old value or a blend, so exit 0 comes with a warning naming
// the channels (the exit-0 sweep holds timing options to the same rule).
void WarnStepTiming(const Asset& asset, const TimingOptions& timing, Diagnostics* diagnostics) {
  const bool resample = timing.resample_fps.has_value();
  const bool to_linear = timing.interpolation == Interpolation::kLinear;
  if (!resample && !to_linear) return;
  std::vector<std::string> names;
  for (const Clip& clip : asset.clips) {
    for (const Channel& channel : clip.channels) {
      if (channel.interpolation != Interpolation::kStep || channel.key_count() < 2) continue;
      names.push_back(ChannelName(asset, channel));
    }
  }
  if (names.empty()) return;
  if (resample) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("--resample {}: {} step channel(s) change at the next grid time, up "
                              "to {:.4g} s later than in the input: {}",
                              *timing.resample_fps, names.size(), 1 / *timing.resample_fps,
                              ChannelList(names)));
  } else {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("--interpolation linear: {} step channel(s) ramp over {:g} ms before "
                              "each change instead of jumping: {}",
                              names.size(), kStepHoldSeconds * 1000, ChannelList(names)));
  }
}

// A format whose players play STEP as linear (Format::plays_step false: three-vrm-animation 3.5
// rebuilds a VRMA's rotation and expression tracks without their interpolation, so a step one
// glided from key to key, up to 105 degrees off): every step channel becomes what
// --interpolation linear makes of it, a hold key 1 ms before each change. A frame drawn within
// that ramp shows a blend, which `diff` measures, so the channels that change are named in a
// warning with the way to keep the jumps.
void StepChannelsToLinear(Asset& asset, const Format& format, Diagnostics* diagnostics) {
  std::vector<std::string> names;
  std::array<double, 4> largest{};  // the largest change per Path, in ValueError's units
  for (Clip& clip : asset.clips) {
    for (Channel& channel : clip.channels) {
      if (channel.interpolation != Interpolation::kStep) continue;
      Channel linear = StepToLinear(channel);
      if (linear.key_count() > channel.key_count()) names.push_back(ChannelName(asset, channel));
      const size_t width = static_cast<size_t>(channel.width);
      // An expression's weight is its node's translation.x (VrmaRole): a weight, not metres.
      const std::optional<VrmaRole>& role =
          asset.rig.nodes[static_cast<size_t>(channel.node)].vrma_role;
      const bool weight = role && role->kind != VrmaRole::Kind::kLookAt;
      double& most = largest[static_cast<size_t>(weight ? Path::kWeights : channel.path)];
      for (size_t k = 1; k < channel.key_count(); ++k) {
        most =
            std::max(most, weight ? std::abs(channel.key_value(k)[0] - channel.key_value(k - 1)[0])
                                  : ValueError(channel.path, channel.key_value(k - 1), width,
                                               channel.key_value(k), width));
      }
      channel = std::move(linear);
    }
  }
  if (names.empty()) return;
  // How far a frame drawn within a ramp can be off: up to the largest change.
  std::vector<std::string> bounds;
  for (size_t path = 0; path < largest.size(); ++path) {
    if (largest[path] <= 0) continue;
    const Path p = static_cast<Path>(path);
    bounds.push_back(
        fmt::format("{:.3g} {}", ErrorInPrintedUnit(p, largest[path]), PrintedUnit(p)));
  }
  AddDiagnostic(diagnostics, Severity::kWarning,
                fmt::format("{}: players interpolate its tracks linearly whatever the sampler says "
                            "(three-vrm-animation 3.5), so {} step channel(s) are written as "
                            "linear ones that ramp over {:g} ms before each change instead of "
                            "jumping (within a ramp a channel plays up to {} off its step): "
                            "{}; to "
                            "keep the jumps, retarget onto the model with --skeleton MODEL.vrm "
                            "into .glb or .json",
                            format.id, names.size(), kStepHoldSeconds * 1000,
                            fmt::join(bounds, ", "), ChannelList(names)));
}

}  // namespace animconv
