#include "animconv/summary.h"

#include <cmath>

#include "animconv/quaternion.h"

namespace animconv {
namespace {

constexpr double kTimeTolerance = 1e-6;

}  // namespace

std::optional<double> ClipKeyRate(const Clip& clip) {
  std::optional<double> interval;
  for (const Channel& channel : clip.channels) {
    if (channel.key_count() < 2) continue;
    const std::optional<double> own = UniformInterval(channel.times_seconds);
    if (!own || (interval && std::fabs(*own - *interval) > kTimeTolerance)) return std::nullopt;
    interval = own;
  }
  if (!interval) return std::nullopt;
  return 1.0 / *interval;
}

std::optional<double> UniformInterval(const std::vector<double>& times_seconds) {
  if (times_seconds.size() < 2) return std::nullopt;
  const double interval = (times_seconds.back() - times_seconds.front()) /
                          static_cast<double>(times_seconds.size() - 1);
  for (size_t k = 0; k < times_seconds.size(); ++k) {
    const double expected = times_seconds.front() + interval * static_cast<double>(k);
    if (std::fabs(times_seconds[k] - expected) > kTimeTolerance) return std::nullopt;
  }
  return interval;
}

AssetSummary Summarize(const Asset& asset) {
  AssetSummary summary;
  summary.node_count = asset.rig.nodes.size();
  summary.rest_pose_known = asset.rig.rest_pose_known;
  summary.coordinates = asset.coordinates;
  summary.notes = asset.notes;
  for (const Node& node : asset.rig.nodes) {
    summary.humanoid_node_count += node.human_bone ? 1 : 0;
    if (!node.vrma_role) continue;
    if (node.vrma_role->kind == VrmaRole::Kind::kLookAt) {
      summary.vrma_look_at = node.name;
    } else {
      summary.vrma_expressions.push_back(
          node.vrma_role->name +
          (node.vrma_role->kind == VrmaRole::Kind::kPresetExpression ? " (preset" : " (custom") +
          (node.name == node.vrma_role->name ? ")" : ", node '" + node.name + "')"));
    }
  }
  summary.humanoid = CoverHumanoid(asset.rig);

  for (const Clip& clip : asset.clips) {
    ClipSummary out;
    out.name = clip.name;
    out.duration_seconds = clip.duration();
    out.channel_count = clip.channels.size();
    std::vector<bool> animated(asset.rig.nodes.size(), false);
    for (const Channel& channel : clip.channels) {
      if (channel.path == Path::kRotation) {
        for (size_t k = 0; k < channel.key_count(); ++k) {
          const Quat q = LoadQuat(channel.key_value(k));
          const double error = std::fabs(Length(q) - 1);
          summary.rotation_keys_not_unit += error > 1e-12 ? 1 : 0;
          summary.max_rotation_length_error = std::max(summary.max_rotation_length_error, error);
          if (k > 0 && channel.interpolation != Interpolation::kCubicSpline &&
              Dot(LoadQuat(channel.key_value(k - 1)), q) < 0) {
            ++summary.rotation_sign_flips;
          }
        }
      }
      ++out.channels_per_path[static_cast<size_t>(channel.path)];
      ++out.channels_per_interpolation[static_cast<size_t>(channel.interpolation)];
      out.key_count += channel.key_count();
      out.max_keys_per_channel = std::max(out.max_keys_per_channel, channel.key_count());
      animated[static_cast<size_t>(channel.node)] = true;
    }
    for (size_t n = 0; n < asset.rig.nodes.size(); ++n) {
      const Node& node = asset.rig.nodes[n];
      if (animated[n]) {
        out.targets.push_back(node.name);
      } else if (node.human_bone) {
        out.missing_humanoid.push_back(node.name);
      }
    }
    out.key_rate_hz = ClipKeyRate(clip);
    summary.clips.push_back(std::move(out));
  }
  return summary;
}

}  // namespace animconv
