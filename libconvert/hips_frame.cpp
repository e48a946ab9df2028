#include "libconvert/hips_frame.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "animconv/error.h"

namespace animconv {
namespace {

// An ancestor channel whose keys stay this close to the first moves nothing a player shows
// (1 nm, 1e-9 of a quaternion component or a scale).
constexpr double kConstantTolerance = 1e-9;

Vec3 Subtract(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

}  // namespace

std::vector<int> AncestorsOf(const Rig& rig, int node) {
  std::vector<int> ancestors;
  for (int a = rig.nodes[static_cast<size_t>(node)].parent; a >= 0;
       a = rig.nodes[static_cast<size_t>(a)].parent) {
    ancestors.push_back(a);
  }
  return ancestors;
}

HipsParentFrame::HipsParentFrame(const Rig& rig, const Clip& clip, int hips,
                                 const std::string& option)
    : rig_(rig), hips_(hips) {
  const std::vector<int> ancestors = AncestorsOf(rig, hips);
  const std::set<int> ancestor_set(ancestors.begin(), ancestors.end());
  for (const Channel& channel : clip.channels) {
    if (!ancestor_set.count(channel.node) || channel.path == Path::kWeights) continue;
    const Node& node = rig_.nodes[static_cast<size_t>(channel.node)];
    if (!ChannelIsConstant(channel, kConstantTolerance)) {
      ThrowUsage(fmt::format(
          "{}: '{}', an ancestor of the hips '{}', moves in clip '{}': the hips alone are moved "
          "(docs/root_motion.md)",
          option, node.name, rig.nodes[static_cast<size_t>(hips)].name, clip.name));
    }
    const double* value = channel.key_value(0);
    Node& held = rig_.nodes[static_cast<size_t>(channel.node)];
    if (channel.path == Path::kTranslation) held.rest_translation = {value[0], value[1], value[2]};
    if (channel.path == Path::kRotation) {
      held.rest_rotation = {value[0], value[1], value[2], value[3]};
    }
    if (channel.path == Path::kScale) held.rest_scale = {value[0], value[1], value[2]};
  }
  rest_.emplace(rig_);
}

Vec3 HipsParentFrame::ToModel(const Vec3& v) const {
  return Subtract(rest_->ParentToWorld(hips_, v), rest_->ParentToWorld(hips_, {0, 0, 0}));
}

Vec3 HipsParentFrame::PositionToModel(const Vec3& position) const {
  return rest_->ParentToWorld(hips_, position);
}

Quat HipsParentFrame::ParentRotation() const { return rest_->ParentWorldRotation(hips_); }

bool HipsParentFrame::ParentScaleIsUniform() const {
  for (const int ancestor : AncestorsOf(rig_, hips_)) {
    const Vec3& scale = rig_.nodes[static_cast<size_t>(ancestor)].rest_scale;
    const double size = std::max({std::abs(scale[0]), std::abs(scale[1]), std::abs(scale[2])});
    for (const double s : scale) {
      if (std::abs(s - scale[0]) > 1e-9 * size) return false;
    }
  }
  return true;
}

Vec3 HipsParentFrame::FromModel(const Vec3& v) const {
  return Subtract(rest_->WorldToParent(hips_, v), rest_->WorldToParent(hips_, {0, 0, 0}));
}

}  // namespace animconv
