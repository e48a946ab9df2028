#include "animconv/humanoid_pose.h"

#include <array>
#include <optional>
#include <string>

namespace animconv {
namespace {

using B = HumanBone;

// Left-side and centre joints of a 1.70 m adult in the VRM T-pose, facing +Z (metres). The right
// side mirrors X. Hips at 0.95 m, shoulders at 1.40 m, arm span 1.70 m (the body height, the
// usual human proportion), fingers along the arm with the thumb 45° towards the front.
struct Joint {
  HumanBone bone;
  Vec3 left;
};

constexpr std::array<Joint, 31> kLeftAndCentre = {{
    {B::kHips, {0, 0.95, 0}},
    {B::kSpine, {0, 1.05, 0}},
    {B::kChest, {0, 1.18, 0}},
    {B::kUpperChest, {0, 1.30, 0}},
    {B::kNeck, {0, 1.45, 0}},
    {B::kHead, {0, 1.55, 0}},
    {B::kJaw, {0, 1.53, 0.03}},
    {B::kLeftEye, {0.03, 1.63, 0.08}},
    {B::kLeftUpperLeg, {0.09, 0.90, 0}},
    {B::kLeftLowerLeg, {0.09, 0.50, 0}},
    {B::kLeftFoot, {0.09, 0.08, 0}},
    {B::kLeftToes, {0.09, 0.02, 0.12}},
    {B::kLeftShoulder, {0.03, 1.40, 0}},
    {B::kLeftUpperArm, {0.17, 1.40, 0}},
    {B::kLeftLowerArm, {0.45, 1.40, 0}},
    {B::kLeftHand, {0.70, 1.40, 0}},
    {B::kLeftThumbProximal, {0.72, 1.39, 0.02}},  // VRM 1.0 thumbMetacarpal
    {B::kLeftThumbIntermediate, {0.745, 1.385, 0.045}},
    {B::kLeftThumbDistal, {0.77, 1.38, 0.07}},
    {B::kLeftIndexProximal, {0.79, 1.40, 0.03}},
    {B::kLeftIndexIntermediate, {0.83, 1.40, 0.03}},
    {B::kLeftIndexDistal, {0.855, 1.40, 0.03}},
    {B::kLeftMiddleProximal, {0.80, 1.40, 0.01}},
    {B::kLeftMiddleIntermediate, {0.845, 1.40, 0.01}},
    {B::kLeftMiddleDistal, {0.875, 1.40, 0.01}},
    {B::kLeftRingProximal, {0.79, 1.40, -0.01}},
    {B::kLeftRingIntermediate, {0.83, 1.40, -0.01}},
    {B::kLeftRingDistal, {0.855, 1.40, -0.01}},
    {B::kLeftLittleProximal, {0.78, 1.40, -0.03}},
    {B::kLeftLittleIntermediate, {0.81, 1.40, -0.03}},
    {B::kLeftLittleDistal, {0.83, 1.40, -0.03}},
}};

// The left-side bone whose mirror image `bone` is, or `bone` itself.
HumanBone LeftCounterpart(HumanBone bone) {
  const std::string_view name = GetHumanBoneInfo(bone).unity;
  if (name.compare(0, 5, "Right") != 0) return bone;
  const std::string left = "Left" + std::string(name.substr(5));
  return *FindHumanBoneByUnityName(left);
}

}  // namespace

Vec3 HumanoidTPosePosition(HumanBone bone) {
  const HumanBone left = LeftCounterpart(bone);
  const bool mirrored = left != bone;
  for (const Joint& joint : kLeftAndCentre) {
    if (joint.bone == left) {
      return {mirrored ? -joint.left[0] : joint.left[0], joint.left[1], joint.left[2]};
    }
  }
  return {0, 0, 0};
}

void ApplyHumanoidTPose(Rig& rig, Facing facing) {
  const double turn = facing == Facing::kMinusZ ? -1.0 : 1.0;  // 180° about Y: negate x and z
  std::vector<std::optional<Vec3>> world(rig.nodes.size());
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    if (!rig.nodes[n].human_bone) continue;
    const Vec3 p = HumanoidTPosePosition(*rig.nodes[n].human_bone);
    world[n] = Vec3{turn * p[0], p[1], turn * p[2]};
  }
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    Node& node = rig.nodes[n];
    if (!world[n]) continue;
    Vec3 parent{0, 0, 0};
    // The nearest ancestor with a known place; non-humanoid ancestors sit at their parent's.
    for (int a = node.parent; a >= 0; a = rig.nodes[static_cast<size_t>(a)].parent) {
      if (world[static_cast<size_t>(a)]) {
        parent = *world[static_cast<size_t>(a)];
        break;
      }
    }
    node.rest_translation = {(*world[n])[0] - parent[0], (*world[n])[1] - parent[1],
                             (*world[n])[2] - parent[2]};
    node.rest_rotation = {0, 0, 0, 1};
    node.rest_scale = {1, 1, 1};
  }
  rig.rest_pose_known = true;
}

void LinkHumanoidParents(Rig& rig) {
  std::array<int, kHumanBoneCount> node_of_bone;
  node_of_bone.fill(-1);
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    if (rig.nodes[n].human_bone) {
      node_of_bone[static_cast<size_t>(*rig.nodes[n].human_bone)] = static_cast<int>(n);
    }
  }
  for (Node& node : rig.nodes) {
    if (!node.human_bone) continue;
    std::optional<HumanBone> parent = GetHumanBoneInfo(*node.human_bone).parent;
    while (parent && node_of_bone[static_cast<size_t>(*parent)] < 0) {
      parent = GetHumanBoneInfo(*parent).parent;
    }
    node.parent = parent ? node_of_bone[static_cast<size_t>(*parent)] : -1;
  }
}

Rig MakeHumanoidTPoseRig(const std::vector<HumanBone>& bones, Facing facing) {
  Rig rig;
  for (const HumanBone bone : bones) {
    Node node;
    node.name = std::string(GetHumanBoneInfo(bone).vrm1);
    node.human_bone = bone;
    rig.nodes.push_back(std::move(node));
  }
  LinkHumanoidParents(rig);
  ApplyHumanoidTPose(rig, facing);
  return rig;
}

}  // namespace animconv
