// Humanoid bone names of motion-capture skeletons, for guessing only (GuessHumanoid): a BVH from
// a capture studio or Poser/DAZ names bones differently from Unity, VRM and Mixamo, and the same
// word may mean another bone ("LeftShoulder" is the upper arm where "LeftCollar" is the shoulder).
// We never write these namings.
#pragma once

#include <string_view>

#include "animconv/humanoid.h"

namespace animconv {

enum class MocapNaming {
  // Biovision / MotionBuilder BVH: Hips, Chest, Chest2, LeftCollar, LeftShoulder (upper arm),
  // LeftElbow, LeftWrist, LeftHip (upper leg), LeftKnee, LeftAnkle, LeftToe.
  kBiovision,
  // Poser / DAZ BVH (three.js pirouette.bvh): hip, abdomen, chest, lCollar, lShldr, lForeArm,
  // lHand, lThigh, lShin, lFoot, lThumb1..3 (1 = Unity ThumbProximal), lIndex1..3, lMid1..3.
  kPoser,
};

inline constexpr MocapNaming kMocapNamings[] = {MocapNaming::kBiovision, MocapNaming::kPoser};

const char* MocapNamingId(MocapNaming naming);  // "biovision" | "poser"

// The bone's name in that naming; empty when the naming has no such bone.
std::string_view MocapBoneName(HumanBone bone, MocapNaming naming);

}  // namespace animconv
