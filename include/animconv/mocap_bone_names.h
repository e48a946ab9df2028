// Humanoid bone names of motion-capture skeletons, for guessing only (GuessHumanoid): a BVH from
// a capture studio, Poser or DAZ names bones differently from Unity, VRM and Mixamo, and the same
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
  // DAZ Genesis 3 / 8: hip, abdomenLower (spine), chestLower (chest), chestUpper (upperChest),
  // neckLower, head, lCollar, lShldrBend (upper arm), lForearmBend, lHand, lThighBend (upper leg),
  // lShin, lFoot, lToe, lEye, lowerJaw, fingers as in Poser.
  kDazGenesis,
};

inline constexpr MocapNaming kMocapNamings[] = {MocapNaming::kBiovision, MocapNaming::kPoser,
                                                MocapNaming::kDazGenesis};

const char* MocapNamingId(MocapNaming naming);  // "biovision" | "poser" | "daz-genesis"

// The bone's name in that naming; empty when the naming has no such bone.
std::string_view MocapBoneName(HumanBone bone, MocapNaming naming);

}  // namespace animconv
