#include "formats/bvh/bvh_skeleton.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "animconv/rest_pose.h"
#include "formats/common/unique_names.h"
#include "formats/three/three_json.h"
#include "libconvert/three_node_name.h"

namespace animconv {
namespace {

// A translation channel whose keys all lie this close to the first one moves nothing a player
// shows (1 nm): its value becomes the OFFSET instead of three position channels.
constexpr double kConstantMetres = 1e-9;

Vec3 Subtract(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

// A parent-space vector of `node` in the parent's rest world frame: rotation and scale of every
// ancestor, no translation.
Vec3 InParentRestFrame(const RestPose& rest, int node, const Vec3& local) {
  return Subtract(rest.ParentToWorld(node, local), rest.ParentToWorld(node, {0, 0, 0}));
}

}  // namespace

std::string BvhSafeName(const std::string& name) {
  std::string safe = SanitizeNodeName(name);
  // A '{' or '}' token would open or close a block in token-reading parsers.
  std::replace_if(
      safe.begin(), safe.end(), [](char c) { return c == '{' || c == '}'; }, '_');
  return safe.empty() ? "joint" : safe;
}

BvhSkeleton BuildBvhSkeleton(const Asset& asset, const Clip& clip,
                             const std::optional<EulerOrder>& order_override,
                             Diagnostics* diagnostics) {
  const Rig& rig = asset.rig;
  const size_t count = rig.nodes.size();
  std::vector<const Channel*> rotation(count, nullptr), translation(count, nullptr);
  for (const Channel& channel : clip.channels) {
    const size_t node = static_cast<size_t>(channel.node);
    // A VRMA's expression and lookAt nodes are no joints (Format::holds_vrma_roles).
    if (rig.nodes[node].vrma_role) continue;
    if (channel.path == Path::kRotation) rotation[node] = &channel;
    if (channel.path == Path::kTranslation) translation[node] = &channel;
  }
  const std::vector<size_t> order = DepthFirstOrder(rig);
  // Nodes with animation at or below them.
  std::vector<bool> animated_below(count, false);
  bool any_animated = false;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const size_t n = *it;
    if (rotation[n] || translation[n]) animated_below[n] = any_animated = true;
    const int parent = rig.nodes[n].parent;
    if (animated_below[n] && parent >= 0) animated_below[static_cast<size_t>(parent)] = true;
  }
  std::vector<bool> included(count, false);
  for (const size_t n : order) {
    const Node& node = rig.nodes[n];
    const bool below_included = node.parent >= 0 && included[static_cast<size_t>(node.parent)];
    // Without any animation (a pose-less clip) the skeleton is every node without a mesh.
    included[n] =
        !node.vrma_role && (animated_below[n] || ((below_included || !any_animated) && !node.mesh));
  }
  // A rig of mesh nodes only, nothing animated (a morph-only clip written with --allow-partial):
  // its nodes are the skeleton, so the file still shows where they are.
  // (Without a VRMA's expression and lookAt nodes, unless the rig has nothing else.)
  for (bool roles : {false, true}) {
    if (std::any_of(included.begin(), included.end(), [](bool b) { return b; })) break;
    for (size_t n = 0; n < count; ++n) included[n] = roles || !rig.nodes[n].vrma_role;
  }
  std::vector<std::vector<size_t>> children(count);
  std::vector<size_t> roots;
  for (const size_t n : order) {
    if (!included[n]) continue;
    const int parent = rig.nodes[n].parent;
    (parent >= 0 ? children[static_cast<size_t>(parent)] : roots).push_back(n);
  }
  // A joint's only child that is an unanimated leaf is its End Site.
  std::vector<bool> is_end_site(count, false);
  for (const size_t n : order) {
    if (!included[n] || children[n].size() != 1) continue;
    const size_t child = children[n][0];
    if (children[child].empty() && !rotation[child] && !translation[child]) {
      is_end_site[child] = true;
    }
  }

  const RestPose rest(rig);
  BvhSkeleton skeleton;
  std::vector<int> joint_of(count, -1);
  UniqueNames unique;
  std::vector<std::string> renamed;
  if (roots.size() > 1) {
    BvhJoint root;
    root.name = unique.Make("Root");
    root.has_position_channels = true;
    if (order_override) root.order = *order_override;
    skeleton.joints.push_back(root);
  }
  for (const size_t n : order) {
    if (!included[n] || is_end_site[n]) continue;
    const Node& node = rig.nodes[n];
    BvhJoint joint;
    joint.node = static_cast<int>(n);
    joint.parent =
        node.parent >= 0 ? joint_of[static_cast<size_t>(node.parent)] : (roots.size() > 1 ? 0 : -1);
    joint.name = unique.Make(BvhSafeName(node.name));
    if (joint.name != node.name)
      renamed.push_back(fmt::format("'{}' -> {}", node.name, joint.name));
    joint.rotation = rotation[n];
    joint.rest_translation = node.rest_translation;
    const Channel* moving = translation[n];
    if (moving && ChannelIsConstant(*moving, kConstantMetres)) {
      const double* value = moving->key_value(0);
      joint.rest_translation = {value[0], value[1], value[2]};
      moving = nullptr;
    }
    joint.translation = moving;
    joint.has_position_channels = joint.parent < 0 || moving != nullptr;
    // A joint with position channels sits at OFFSET 0 and its channels hold its whole
    // translation: three.js's BVHLoader adds the channels to the OFFSET, Blender's importer puts
    // them in its place (import_bvh.py: location = channels - OFFSET), and only OFFSET 0 plays
    // alike in both (docs/formats/bvh.md, "Position channels and OFFSET 0").
    const Vec3 rest_offset = InParentRestFrame(rest, joint.node, joint.rest_translation);
    joint.offset = joint.has_position_channels ? Vec3{0, 0, 0} : rest_offset;
    if (order_override) {
      joint.order = *order_override;
    } else if (const std::optional<EulerOrder> recorded = ParseEulerOrder(node.euler_order)) {
      joint.order = *recorded;
    }
    if (children[n].empty()) {
      // A leaf continues its bone by the same length; a lone ROOT has no bone to continue.
      joint.end_site = node.parent >= 0 ? rest_offset : Vec3{0, 0, 0};
    } else if (is_end_site[children[n][0]]) {
      const size_t leaf = children[n][0];
      joint.end_site_node = static_cast<int>(leaf);
      joint.end_site =
          InParentRestFrame(rest, static_cast<int>(leaf), rig.nodes[leaf].rest_translation);
    }
    joint_of[n] = static_cast<int>(skeleton.joints.size());
    if (joint.parent >= 0) {
      skeleton.joints[static_cast<size_t>(joint.parent)].children.push_back(joint_of[n]);
    }
    skeleton.joints.push_back(std::move(joint));
  }
  if (!renamed.empty()) {
    constexpr size_t kShown = 10;
    std::string list = fmt::format(
        "{}", fmt::join(renamed.begin(), renamed.begin() + std::min(renamed.size(), kShown), ", "));
    if (renamed.size() > kShown) list += fmt::format(" and {} more", renamed.size() - kShown);
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("bvh: {} joint name(s) changed (BVH names cannot hold whitespace, "
                              "and three.js's BVHLoader binds tracks by name, where . : / [ ] "
                              "are syntax; named as GLTFLoader names nodes): {}",
                              renamed.size(), list));
  }
  return skeleton;
}

}  // namespace animconv
