#include "pose_test_support.h"

#include <gtest/gtest.h>

#include <random>

#include "animconv/quaternion.h"
#include "animconv/rest_pose.h"
#include "animconv/sample.h"

namespace animconv::testing {
namespace {

std::vector<Quat> WorldOf(const Rig& rig, const std::vector<Quat>& local) {
  std::vector<Quat> world(rig.nodes.size());
  std::vector<bool> done(rig.nodes.size(), false);
  for (size_t pass = 0; pass < rig.nodes.size(); ++pass) {
    for (size_t n = 0; n < rig.nodes.size(); ++n) {
      const int parent = rig.nodes[n].parent;
      if (done[n] || (parent >= 0 && !done[static_cast<size_t>(parent)])) continue;
      world[n] = parent < 0 ? local[n] : Multiply(world[static_cast<size_t>(parent)], local[n]);
      done[n] = true;
    }
  }
  return world;
}

}  // namespace

std::vector<Quat> PoseWorldRotations(const Rig& rig, const Clip& clip, double seconds) {
  std::vector<Quat> local(rig.nodes.size());
  for (size_t n = 0; n < rig.nodes.size(); ++n) local[n] = rig.nodes[n].rest_rotation;
  for (const Channel& channel : clip.channels) {
    if (channel.path == Path::kRotation) {
      Quat& q = local[static_cast<size_t>(channel.node)];
      EvaluateChannel(channel, seconds, q.data());
      q = Normalized(q);  // files store keys off unit length by float rounding or worse
    }
  }
  return WorldOf(rig, local);
}

Quat WorldDelta(const Rig& rig, const Clip& clip, double seconds, HumanBone bone) {
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    if (rig.nodes[n].human_bone != bone) continue;
    std::vector<Quat> rest(rig.nodes.size());
    for (size_t r = 0; r < rig.nodes.size(); ++r) rest[r] = rig.nodes[r].rest_rotation;
    return Normalized(
        Multiply(PoseWorldRotations(rig, clip, seconds)[n], Conjugate(WorldOf(rig, rest)[n])));
  }
  ADD_FAILURE() << "bone " << GetHumanBoneInfo(bone).unity << " not in rig";
  return {0, 0, 0, 1};
}

std::vector<HumanBone> SeventeenBoneBody() {
  return {HumanBone::kHips,          HumanBone::kSpine,     HumanBone::kChest,
          HumanBone::kNeck,          HumanBone::kHead,      HumanBone::kLeftUpperArm,
          HumanBone::kLeftLowerArm,  HumanBone::kLeftHand,  HumanBone::kRightUpperArm,
          HumanBone::kRightLowerArm, HumanBone::kRightHand, HumanBone::kLeftUpperLeg,
          HumanBone::kLeftLowerLeg,  HumanBone::kLeftFoot,  HumanBone::kRightUpperLeg,
          HumanBone::kRightLowerLeg, HumanBone::kRightFoot};
}

bool HasBone(const Rig& rig, HumanBone bone) {
  for (const Node& node : rig.nodes) {
    if (node.human_bone == bone) return true;
  }
  return false;
}

std::vector<Vec3> WorldPositions(const Asset& asset, double seconds) {
  Rig posed = asset.rig;
  for (const Channel& channel : asset.clips[0].channels) {
    std::vector<double> value(static_cast<size_t>(channel.width));
    EvaluateChannel(channel, seconds, value.data());
    Node& node = posed.nodes[static_cast<size_t>(channel.node)];
    if (channel.path == Path::kTranslation) node.rest_translation = {value[0], value[1], value[2]};
    if (channel.path == Path::kRotation) {
      node.rest_rotation = {value[0], value[1], value[2], value[3]};
    }
  }
  const RestPose pose(posed);
  std::vector<Vec3> positions;
  for (size_t n = 0; n < posed.nodes.size(); ++n) {
    positions.push_back(pose.WorldPosition(static_cast<int>(n)));
  }
  return positions;
}

Clip ClipOfRotations(const Rig& rig, const std::function<Quat()>& rotation) {
  Clip clip;
  clip.name = "random";
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    Channel channel;
    channel.node = static_cast<int>(n);
    channel.width = 4;
    channel.times_seconds = {0, 0.5, 1};
    for (int k = 0; k < 3; ++k) {
      const Quat q = rotation();
      channel.values.insert(channel.values.end(), q.begin(), q.end());
    }
    clip.channels.push_back(std::move(channel));
  }
  return clip;
}

Clip RandomTurnsClip(const Rig& rig, unsigned seed) {
  std::mt19937 random(seed);
  std::normal_distribution<double> normal;
  Clip clip = ClipOfRotations(rig, [&] {
    return Normalized({0.3 * normal(random), 0.3 * normal(random), 0.3 * normal(random), 1.0});
  });
  clip.duration_seconds = 1;
  return clip;
}

}  // namespace animconv::testing
