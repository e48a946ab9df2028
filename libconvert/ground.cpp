#include "animconv/ground.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>
#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>
#include <limits>

#include "animconv/error.h"
#include "animconv/rest_pose.h"
#include "libconvert/body_frame.h"
#include "libconvert/hips_frame.h"
#include "libconvert/lowest_foot.h"
#include "libconvert/rest_heights.h"

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

// A world point of the rest pose in a node's own frame (`to_node`: its inverted rest matrix).
Vec3 ToNodeFrame(const glm::dmat4& to_node, const Vec3& world) {
  const glm::dvec4 local = to_node * glm::dvec4(world[0], world[1], world[2], 1.0);
  return {local.x, local.y, local.z};
}

}  // namespace

std::optional<RestSoles> MeasureRestSoles(const Rig& rig, std::string* left_out) {
  const std::vector<int> feet = FootAndToeNodes(rig);
  if (!rig.rest_pose_known || feet.empty()) return std::nullopt;
  // Each node's nearest foot or toe, itself or an ancestor: a shoe is often a mesh of its own
  // under the foot bone (RobotExpressive's Foot.L), or skinned to a toe's end.
  std::vector<int> owner(rig.nodes.size(), -1);  // index into `feet`
  for (size_t f = 0; f < feet.size(); ++f) {
    owner[static_cast<size_t>(feet[f])] = static_cast<int>(f);
  }
  std::vector<std::vector<Vec3>> world_points(feet.size());
  for (const size_t n : ParentsFirst(rig)) {
    const Node& node = rig.nodes[n];
    if (owner[n] < 0 && node.parent >= 0) owner[n] = owner[static_cast<size_t>(node.parent)];
    if (owner[n] < 0) continue;
    std::vector<Vec3>& points = world_points[static_cast<size_t>(owner[n])];
    points.insert(points.end(), node.rest_mesh_support.begin(), node.rest_mesh_support.end());
  }
  const UpAxis up = RestUpAxis(rig);
  double floor = std::numeric_limits<double>::infinity();
  int lowest = -1;
  for (size_t f = 0; f < feet.size(); ++f) {
    for (const Vec3& point : world_points[f]) {
      if (up.HeightOf(point) < floor) {
        floor = up.HeightOf(point);
        lowest = static_cast<int>(f);
      }
    }
  }
  if (lowest < 0) return std::nullopt;
  const RestPose rest(rig);
  RestSoles soles;
  soles.floor_metres = floor;
  soles.lowest_node = rig.nodes[static_cast<size_t>(feet[static_cast<size_t>(lowest)])].name;
  double deepest = 0;
  for (size_t f = 0; f < feet.size(); ++f) {
    const Vec3 joint = rest.WorldPosition(feet[f]);
    soles.depths.push_back(std::max(0.0, up.HeightOf(joint) - floor));
    deepest = std::max(deepest, soles.depths.back());
    const glm::dmat4 to_foot = glm::inverse(glm::make_mat4(rest.WorldMatrix(feet[f]).data()));
    std::vector<Vec3> points;
    for (const Vec3& point : world_points[f]) points.push_back(ToNodeFrame(to_foot, point));
    if (points.empty()) {
      // Its meshes are all another joint's: the floor beneath it at rest.
      Vec3 beneath = joint;
      beneath[up.axis] -= (up.negative ? -1 : 1) * soles.depths.back();
      points.push_back(ToNodeFrame(to_foot, beneath));
    }
    soles.points.push_back(std::move(points));
  }
  // An ankle stands about a tenth of the leg height above its sole (0.08 of 0.87 m on the generated
  // rig); a platform shoe twice that. Deeper is no sole: the axis gizmos that hang 0.16 m below
  // vrmaddon_debug_robot's feet put its ankles 0.23 m above the floor (review of session 37).
  const double leg = RestMeasures(rig).LegHeight();
  if (!(deepest <= kDeepestSoleLegs * leg)) {
    if (left_out) {
      *left_out = fmt::format(
          "the feet's meshes reach {:.4g} m below a foot joint at rest ('{}'), more than {} of "
          "the leg height ({:.4g} m): not soles, so the joints were grounded",
          deepest, soles.lowest_node, kDeepestSoleLegs, leg);
    }
    return std::nullopt;
  }
  return soles;
}

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

GroundReport ApplyGround(Asset& asset, bool soles) {
  const int hips = HumanBoneNode(asset.rig, HumanBone::kHips);
  const std::vector<int> feet = FootAndToeNodes(asset.rig);
  if (hips < 0 || feet.empty()) {
    ThrowUsage(fmt::format(
        "--ground needs the humanoid hips and at least one foot or toe bone: the rig has {} "
        "(animconv bones lists the humanoid mapping; --bone-map names them)",
        hips < 0 ? "no hips" : "no feet"));
  }
  GroundReport report;
  if (soles) report.soles = MeasureRestSoles(asset.rig, &report.soles_left_out);
  const SolePoints* points = report.soles ? &report.soles->points : nullptr;
  for (Clip& clip : asset.clips) {
    const FootSamples times = SampleTimes(clip);
    if (times.size() == 0) continue;
    const Lowest before = FindLowest(asset.rig, clip, feet, times, points);
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
    grounded.lowest_after_metres = FindLowest(asset.rig, clip, feet, times, points).metres;
    grounded.samples = times.size();
    if (report.soles) {
      const auto foot = std::find(feet.begin(), feet.end(), before.node);
      grounded.sole_depth_metres = report.soles->depths[static_cast<size_t>(foot - feet.begin())];
    }
    report.clips.push_back(std::move(grounded));
  }
  return report;
}

}  // namespace animconv
