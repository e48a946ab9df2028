#include "animconv/root_motion.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "animconv/error.h"
#include "libconvert/hips_frame.h"

namespace animconv {
namespace {

// The travel over the ground of a hips translation `value` (parent space) from `start`, in model
// space: for tangents (start 0) the same linear map.
Vec3 GroundTravel(const HipsParentFrame& frame, const double* value, const Vec3& start) {
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
  const int hips = HumanBoneNode(asset.rig, HumanBone::kHips);
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
    const HipsParentFrame frame(asset.rig, clip, hips, "--root-motion");
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
      const double* value = existing->key_value(0);  // constant: HipsParentFrame checked it
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
