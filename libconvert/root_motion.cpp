#include "animconv/root_motion.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "animconv/error.h"
#include "animconv/rest_pose.h"

namespace animconv {
namespace {

// An ancestor channel whose keys stay this close to the first moves nothing a player shows
// (1 nm, 1e-9 of a quaternion component or a scale).
constexpr double kConstantTolerance = 1e-9;

int HipsNode(const Rig& rig) {
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    if (rig.nodes[n].human_bone == HumanBone::kHips) return static_cast<int>(n);
  }
  return -1;
}

std::vector<int> AncestorsOf(const Rig& rig, int node) {
  std::vector<int> ancestors;
  for (int a = rig.nodes[static_cast<size_t>(node)].parent; a >= 0;
       a = rig.nodes[static_cast<size_t>(a)].parent) {
    ancestors.push_back(a);
  }
  return ancestors;
}

Vec3 Subtract(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

// The hips' parent frame in one clip: the rig with each ancestor's constant channel value as its
// rest value (exporters key every bone, a glTF armature node too), and the two linear maps
// between the hips' parent space and model space. Error(kUsage) when an ancestor moves.
class ParentFrame {
 public:
  ParentFrame(const Rig& rig, const Clip& clip, int hips) : rig_(rig), hips_(hips) {
    const std::vector<int> ancestors = AncestorsOf(rig, hips);
    const std::set<int> ancestor_set(ancestors.begin(), ancestors.end());
    for (const Channel& channel : clip.channels) {
      if (!ancestor_set.count(channel.node) || channel.path == Path::kWeights) continue;
      const Node& node = rig_.nodes[static_cast<size_t>(channel.node)];
      if (!ChannelIsConstant(channel, kConstantTolerance)) {
        ThrowUsage(fmt::format(
            "--root-motion: '{}', an ancestor of the hips '{}', moves in clip '{}': the travel is "
            "taken from the hips alone (docs/root_motion.md)",
            node.name, rig.nodes[static_cast<size_t>(hips)].name, clip.name));
      }
      const double* value = channel.key_value(0);
      Node& held = rig_.nodes[static_cast<size_t>(channel.node)];
      if (channel.path == Path::kTranslation)
        held.rest_translation = {value[0], value[1], value[2]};
      if (channel.path == Path::kRotation) {
        held.rest_rotation = {value[0], value[1], value[2], value[3]};
      }
      if (channel.path == Path::kScale) held.rest_scale = {value[0], value[1], value[2]};
    }
    rest_.emplace(rig_);
  }

  // A parent-space vector in model space (rotation and scale of the ancestors, no translation).
  Vec3 ToModel(const Vec3& v) const {
    return Subtract(rest_->ParentToWorld(hips_, v), rest_->ParentToWorld(hips_, {0, 0, 0}));
  }
  Vec3 FromModel(const Vec3& v) const {
    return Subtract(rest_->WorldToParent(hips_, v), rest_->WorldToParent(hips_, {0, 0, 0}));
  }

 private:
  Rig rig_;
  int hips_;
  std::optional<RestPose> rest_;
};

// The travel over the ground of a hips translation `value` (parent space) from `start`, in model
// space: for tangents (start 0) the same linear map.
Vec3 GroundTravel(const ParentFrame& frame, const double* value, const Vec3& start) {
  const Vec3 moved = frame.ToModel({value[0] - start[0], value[1] - start[1], value[2] - start[2]});
  return {moved[0], 0, moved[2]};
}

// The hips' topmost ancestor, or a new root node made the hips' parent.
int RootFor(Asset& asset, int hips, const RootMotionOptions& options, RootMotionReport* report) {
  const std::vector<int> ancestors = AncestorsOf(asset.rig, hips);
  if (!ancestors.empty()) {
    report->root_name = asset.rig.nodes[static_cast<size_t>(ancestors.back())].name;
    return ancestors.back();
  }
  std::set<std::string> names;
  for (const Node& node : asset.rig.nodes) names.insert(node.name);
  std::string name = options.created_root_name;
  for (int suffix = 2; names.count(name); ++suffix) {
    name = fmt::format("{}_{}", options.created_root_name, suffix);
  }
  Node root;
  root.name = name;
  asset.rig.nodes.push_back(root);
  const int index = static_cast<int>(asset.rig.nodes.size() - 1);
  asset.rig.nodes[static_cast<size_t>(hips)].parent = index;
  // A writer passing the source document through would not know the new node (model.h).
  asset.source_document.reset();
  report->root_name = name;
  report->root_created = true;
  return index;
}

}  // namespace

RootMotionReport ApplyRootMotion(Asset& asset, const RootMotionOptions& options) {
  RootMotionReport report;
  if (options.mode == RootMotionMode::kKeep) return report;
  const int hips = HipsNode(asset.rig);
  if (hips < 0) {
    ThrowUsage(
        "--root-motion needs the humanoid hips: the rig has none (animconv bones lists the "
        "humanoid mapping; --bone-map names a hips node)");
  }
  std::optional<int> root;
  for (Clip& clip : asset.clips) {
    const auto translation =
        std::find_if(clip.channels.begin(), clip.channels.end(), [&](const Channel& channel) {
          return channel.node == hips && channel.path == Path::kTranslation;
        });
    if (translation == clip.channels.end()) continue;  // the hips do not travel
    const ParentFrame frame(asset.rig, clip, hips);
    Channel& channel = *translation;
    const double* first = channel.key_value(0);
    const Vec3 start{first[0], first[1], first[2]};
    Channel carried = channel;  // extract: the travel in model space, key by key
    const size_t per_key = channel.elements_per_key();
    for (size_t k = 0; k < channel.key_count(); ++k) {
      for (size_t e = 0; e < per_key; ++e) {
        // Cubic splines hold in-tangent, value, out-tangent: tangents are derivatives, so they
        // take the linear part of the map only.
        const bool is_value = per_key == 1 || e == 1;
        double* hips_value = channel.values.data() + (k * per_key + e) * 3;
        const Vec3 travel = GroundTravel(frame, hips_value, is_value ? start : Vec3{0, 0, 0});
        if (is_value) {
          report.largest_travel_metres =
              std::max(report.largest_travel_metres, std::hypot(travel[0], travel[2]));
        }
        const Vec3 back = frame.FromModel(travel);
        for (size_t c = 0; c < 3; ++c) hips_value[c] -= back[c];
        double* carried_value = carried.values.data() + (k * per_key + e) * 3;
        for (size_t c = 0; c < 3; ++c) carried_value[c] = travel[c];
      }
    }
    ++report.clips_changed;
    if (options.mode != RootMotionMode::kExtract) continue;
    if (!root) root = RootFor(asset, hips, options, &report);
    // The root has no parent: its translation is in model space, the travel added to it.
    const Node& root_node = asset.rig.nodes[static_cast<size_t>(*root)];
    Vec3 root_translation = root_node.rest_translation;
    auto existing =
        std::find_if(clip.channels.begin(), clip.channels.end(), [&](const Channel& other) {
          return other.node == *root && other.path == Path::kTranslation;
        });
    if (existing != clip.channels.end()) {
      const double* value = existing->key_value(0);  // constant: ParentFrame checked it
      root_translation = {value[0], value[1], value[2]};
    }
    carried.node = *root;
    for (size_t k = 0; k < carried.key_count(); ++k) {
      double* value = carried.key_value(k);
      for (size_t c = 0; c < 3; ++c) value[c] += root_translation[c];
    }
    if (existing != clip.channels.end()) {
      *existing = std::move(carried);
    } else {
      clip.channels.push_back(std::move(carried));
    }
  }
  return report;
}

}  // namespace animconv
