#include "pipeline/diff_look_at.h"

#include <algorithm>
#include <array>
#include <vector>

#include "animconv/humanoid_pose.h"
#include "animconv/quaternion.h"
#include "animconv/sample.h"
#include "pipeline/gaze.h"

namespace animconv {
namespace {

bool IsLookAtRotation(const Rig& rig, const Channel& channel) {
  const Node& node = rig.nodes[static_cast<size_t>(channel.node)];
  return channel.path == Path::kRotation && node.vrma_role &&
         node.vrma_role->kind == VrmaRole::Kind::kLookAt;
}

bool HasEyes(const Rig& rig) {
  return HumanBoneNode(rig, HumanBone::kLeftEye) >= 0 ||
         HumanBoneNode(rig, HumanBone::kRightEye) >= 0;
}

// The eye's rest offset from the head on the T-pose, turned to face the way the rig does.
Vec3 EyeOffset(HumanBone eye, Facing facing) {
  const Vec3 eye_position = HumanoidTPosePosition(eye);
  const Vec3 head_position = HumanoidTPosePosition(HumanBone::kHead);
  Vec3 offset = {eye_position[0] - head_position[0], eye_position[1] - head_position[1],
                 eye_position[2] - head_position[2]};
  if (facing == Facing::kMinusZ) offset = {-offset[0], offset[1], -offset[2]};
  return offset;
}

}  // namespace

LookAtEyeMapping PlayLookAtOnEyes(Asset& look_at_side, const Asset& eyes_side) {
  Rig& rig = look_at_side.rig;
  const int head = HumanBoneNode(rig, HumanBone::kHead);
  const bool animates_look_at =
      std::any_of(look_at_side.clips.begin(), look_at_side.clips.end(), [&](const Clip& clip) {
        return std::any_of(clip.channels.begin(), clip.channels.end(),
                           [&](const Channel& channel) { return IsLookAtRotation(rig, channel); });
      });
  const std::optional<VrmLookAt>& own = eyes_side.vrm_look_at;
  // An expression lookAt weighs morph targets and leaves the eye bones alone.
  if (!animates_look_at || head < 0 || HasEyes(rig) || !HasEyes(eyes_side.rig) ||
      (own && own->type != VrmLookAt::Type::kBone)) {
    return LookAtEyeMapping::kNone;
  }
  const VrmLookAt* maps = own ? &*own : nullptr;
  const HumanBone sides[2] = {HumanBone::kLeftEye, HumanBone::kRightEye};
  int eye_nodes[2];
  for (int side = 0; side < 2; ++side) {
    Node eye;
    eye.name = side == 0 ? "leftEye" : "rightEye";
    eye.parent = head;
    eye.human_bone = sides[side];
    eye.rest_translation = EyeOffset(sides[side], look_at_side.coordinates.facing);
    eye_nodes[side] = static_cast<int>(rig.nodes.size());
    rig.nodes.push_back(std::move(eye));
  }
  for (Clip& clip : look_at_side.clips) {
    std::vector<Channel> eyes;
    for (const Channel& look_at : clip.channels) {
      if (!IsLookAtRotation(rig, look_at)) continue;
      for (int side = 0; side < 2; ++side) {
        const auto exact = [&](double seconds) {
          double value[4];
          EvaluateChannel(look_at, seconds, value);
          const std::array<double, 3> gaze = YawPitchRollDegrees(LoadQuat(value));
          return EyeTurnForGaze(maps, side == 0, gaze[0], gaze[1]);
        };
        size_t added_keys = 0;
        Channel eye =
            FollowRotation(look_at.times_seconds, look_at.interpolation == Interpolation::kStep,
                           exact, &added_keys);
        eye.node = eye_nodes[side];
        eyes.push_back(std::move(eye));
      }
    }
    clip.channels.erase(
        std::remove_if(clip.channels.begin(), clip.channels.end(),
                       [&](const Channel& channel) { return IsLookAtRotation(rig, channel); }),
        clip.channels.end());
    for (Channel& eye : eyes) clip.channels.push_back(std::move(eye));
  }
  return maps ? LookAtEyeMapping::kRangeMaps : LookAtEyeMapping::kOneToOne;
}

}  // namespace animconv
