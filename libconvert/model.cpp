#include "animconv/model.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <exception>

#include "animconv/error.h"
#include "libconvert/parallel.h"

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

bool ChannelIsConstant(const Channel& channel, double tolerance) {
  if (channel.key_count() == 0) return true;
  const double* first = channel.key_value(0);
  for (size_t k = 1; k < channel.key_count(); ++k) {
    const double* value = channel.key_value(k);
    for (int c = 0; c < channel.width; ++c) {
      if (std::fabs(value[c] - first[c]) > tolerance) return false;
    }
  }
  return true;
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

std::vector<int> ParentsOf(const Rig& rig) {
  std::vector<int> parents(rig.nodes.size());
  for (size_t n = 0; n < rig.nodes.size(); ++n) parents[n] = rig.nodes[n].parent;
  return parents;
}

std::optional<HierarchyFault> FindHierarchyFault(const std::vector<int>& parents,
                                                 size_t max_depth) {
  // depth[n]: 0 unknown, -1 on the chain being walked, else the depth. Each node is pushed and
  // given its depth once, so the whole check is O(n) however the chains are laid out (the old
  // walk to the root per node was O(n·depth): 2 minutes for one chain of 2·10⁵ glTF nodes).
  std::vector<int64_t> depth(parents.size(), 0);
  std::vector<size_t> chain;
  for (size_t start = 0; start < parents.size(); ++start) {
    chain.clear();
    int64_t above = 0;  // depth of the first known node above the chain (0: the chain is a root's)
    for (int n = static_cast<int>(start);;) {
      if (n < 0 || static_cast<size_t>(n) >= parents.size()) break;
      const size_t at = static_cast<size_t>(n);
      if (depth[at] == -1) return HierarchyFault{HierarchyFault::kCycle, start};
      if (depth[at] > 0) {
        above = depth[at];
        break;
      }
      depth[at] = -1;
      chain.push_back(at);
      n = parents[at];
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      depth[*it] = ++above;
      if (static_cast<uint64_t>(above) > max_depth) {
        return HierarchyFault{HierarchyFault::kTooDeep, *it};
      }
    }
  }
  return std::nullopt;
}

namespace {

// The checks of one channel, `i` of clip `c` (ValidateAsset).
void ValidateChannel(const Asset& asset, size_t c, size_t i, const Channel& channel,
                     const std::string& source) {
  const auto& nodes = asset.rig.nodes;
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
      ThrowBadInput(source, where,
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

}  // namespace

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
  // Parent chains must end at a root: a cycle would hang every hierarchy walk. (Depth is a
  // reader's limit, ReadOptions::limits: here any depth is accepted.)
  if (const auto fault = FindHierarchyFault(ParentsOf(asset.rig), nodes.size() + 1)) {
    ThrowBadInput(source, fmt::format("node {}", fault->node),
                  fmt::format("node '{}' is part of a parent cycle", nodes[fault->node].name));
  }
  // Every channel's keys are checked on every core when there are many (ForEachChannel), and the
  // first fault in clip and channel order is the one reported, as on one.
  std::vector<std::vector<std::exception_ptr>> faults(asset.clips.size());
  for (size_t c = 0; c < asset.clips.size(); ++c) faults[c].resize(asset.clips[c].channels.size());
  ForEachChannel(asset.clips, [&](size_t c, size_t i, const Channel& channel) {
    try {
      ValidateChannel(asset, c, i, channel, source);
    } catch (const Error&) {
      faults[c][i] = std::current_exception();
    }
  });
  for (const std::vector<std::exception_ptr>& clip : faults) {
    for (const std::exception_ptr& fault : clip) {
      if (fault) std::rethrow_exception(fault);
    }
  }
}

std::vector<size_t> DepthFirstOrder(const Rig& rig) {
  std::vector<std::vector<size_t>> children(rig.nodes.size());
  std::vector<size_t> stack;
  for (size_t n = rig.nodes.size(); n-- > 0;) {
    const int parent = rig.nodes[n].parent;
    if (parent < 0) {
      stack.push_back(n);
    } else {
      children[static_cast<size_t>(parent)].push_back(n);
    }
  }
  std::vector<size_t> order;
  order.reserve(rig.nodes.size());
  while (!stack.empty()) {
    const size_t n = stack.back();
    stack.pop_back();
    order.push_back(n);
    // children[n] was filled in descending order, so pushing it as is visits ascending.
    stack.insert(stack.end(), children[n].begin(), children[n].end());
  }
  return order;
}

int HumanBoneNode(const Rig& rig, HumanBone bone) {
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    if (rig.nodes[n].human_bone == bone) return static_cast<int>(n);
  }
  return -1;
}

std::vector<int> FootAndToeNodes(const Rig& rig) {
  std::vector<int> feet;
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    const std::optional<HumanBone> bone = rig.nodes[n].human_bone;
    if (bone == HumanBone::kLeftFoot || bone == HumanBone::kRightFoot ||
        bone == HumanBone::kLeftToes || bone == HumanBone::kRightToes) {
      feet.push_back(static_cast<int>(n));
    }
  }
  return feet;
}

}  // namespace animconv
