#include "animconv/model.h"

#include <fmt/format.h>

#include <cmath>

#include "animconv/error.h"

namespace animconv {

const char* PathName(Path path) {
  switch (path) {
    case Path::kTranslation:
      return "translation";
    case Path::kRotation:
      return "rotation";
    case Path::kScale:
      return "scale";
    case Path::kWeights:
      return "weights";
  }
  return "?";
}

const char* InterpolationName(Interpolation interpolation) {
  switch (interpolation) {
    case Interpolation::kStep:
      return "step";
    case Interpolation::kLinear:
      return "linear";
    case Interpolation::kCubicSpline:
      return "cubic";
  }
  return "?";
}

std::string DescribeCoordinates(const CoordinateSystem& coordinates) {
  std::string text = coordinates.handedness == Handedness::kRight ? "right-handed" : "left-handed";
  text += ", +Y up";
  switch (coordinates.facing) {
    case Facing::kPlusZ:
      text += ", facing +Z";
      break;
    case Facing::kMinusZ:
      text += ", facing -Z";
      break;
    case Facing::kUnknown:
      break;
  }
  return text;
}

double Clip::duration() const {
  if (duration_seconds) return *duration_seconds;
  double last = 0;
  for (const Channel& channel : channels) {
    if (!channel.times_seconds.empty()) last = std::max(last, channel.times_seconds.back());
  }
  return last;
}

std::vector<double> RestValue(const Node& node, Path path) {
  switch (path) {
    case Path::kTranslation:
      return {node.rest_translation.begin(), node.rest_translation.end()};
    case Path::kRotation:
      return {node.rest_rotation.begin(), node.rest_rotation.end()};
    case Path::kScale:
      return {node.rest_scale.begin(), node.rest_scale.end()};
    case Path::kWeights:
      break;
  }
  return std::vector<double>(static_cast<size_t>(node.morph_target_count), 0.0);
}

int PathWidth(Path path, const Node& node) {
  switch (path) {
    case Path::kTranslation:
    case Path::kScale:
      return 3;
    case Path::kRotation:
      return 4;
    case Path::kWeights:
      return node.morph_target_count;
  }
  return 0;
}

void ValidateAsset(const Asset& asset, const std::string& source) {
  const auto& nodes = asset.rig.nodes;
  for (size_t n = 0; n < nodes.size(); ++n) {
    const Node& node = nodes[n];
    if (node.parent < -1 || node.parent >= static_cast<int>(nodes.size()) ||
        node.parent == static_cast<int>(n)) {
      ThrowBadInput(source, fmt::format("node {}", n),
                    fmt::format("node '{}' has invalid parent {}", node.name, node.parent));
    }
    if (!node.morph_target_names.empty() &&
        node.morph_target_names.size() != static_cast<size_t>(node.morph_target_count)) {
      ThrowBadInput(source, fmt::format("node {}", n),
                    fmt::format("node '{}' names {} morph targets but has {}", node.name,
                                node.morph_target_names.size(), node.morph_target_count));
    }
  }
  // Parent chains must end at a root: a cycle would hang every hierarchy walk.
  for (size_t n = 0; n < nodes.size(); ++n) {
    int current = nodes[n].parent;
    for (size_t steps = 0; current >= 0; ++steps) {
      if (steps > nodes.size()) {
        ThrowBadInput(source, fmt::format("node {}", n),
                      fmt::format("node '{}' is part of a parent cycle", nodes[n].name));
      }
      current = nodes[current].parent;
    }
  }
  for (size_t c = 0; c < asset.clips.size(); ++c) {
    const Clip& clip = asset.clips[c];
    for (size_t i = 0; i < clip.channels.size(); ++i) {
      const Channel& channel = clip.channels[i];
      const std::string where = fmt::format("clip {} channel {}", c, i);
      if (channel.node < 0 || channel.node >= static_cast<int>(nodes.size())) {
        ThrowBadInput(source, where, fmt::format("targets missing node {}", channel.node));
      }
      const Node& node = nodes[channel.node];
      if (channel.width != PathWidth(channel.path, node) || channel.width <= 0) {
        ThrowBadInput(
            source, where,
            fmt::format("{} of '{}' has {} components per key, expected {}", PathName(channel.path),
                        node.name, channel.width, PathWidth(channel.path, node)));
      }
      if (channel.times_seconds.empty()) {
        ThrowBadInput(source, where, "channel has no keys");
      }
      const size_t expected =
          channel.key_count() * channel.elements_per_key() * static_cast<size_t>(channel.width);
      if (channel.values.size() != expected) {
        ThrowBadInput(source, where,
                      fmt::format("{} values for {} keys, expected {}", channel.values.size(),
                                  channel.key_count(), expected));
      }
      if (channel.interpolation == Interpolation::kCubicSpline && channel.key_count() < 2) {
        ThrowBadInput(source, where, "a cubic spline needs at least 2 keys");
      }
      double previous = -1;
      for (size_t k = 0; k < channel.key_count(); ++k) {
        const double seconds = channel.times_seconds[k];
        if (!std::isfinite(seconds) || seconds < 0 || seconds <= previous) {
          ThrowBadInput(
              source, where,
              fmt::format("key {} time {} is not finite, >= 0 and increasing", k, seconds));
        }
        previous = seconds;
      }
      for (size_t v = 0; v < channel.values.size(); ++v) {
        if (!std::isfinite(channel.values[v])) {
          ThrowBadInput(source, where, fmt::format("value {} is not finite", v));
        }
      }
    }
  }
}

}  // namespace animconv
