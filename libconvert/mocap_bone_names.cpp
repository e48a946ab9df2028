#include "animconv/mocap_bone_names.h"

namespace animconv {
namespace {

struct MocapRow {
  HumanBone bone;
  std::string_view biovision;
  std::string_view poser;
  // DAZ Genesis 3 and 8 (what DAZ Studio exports to BVH/FBX): the bend joint of each twist pair
  // is the bone; pelvis, abdomenUpper, neckUpper, the Twist joints, lMetatarsals and the carpals
  // are in-between joints that retargeting folds into the bones around them.
  std::string_view daz;
};

// Fingers: Poser and DAZ number joints from the hand outwards, 1 being Unity's Proximal.
constexpr MocapRow kRows[] = {
    {HumanBone::kHips, "Hips", "hip", "hip"},
    {HumanBone::kSpine, "Chest", "abdomen", "abdomenLower"},
    {HumanBone::kChest, "Chest2", "chest", "chestLower"},
    {HumanBone::kUpperChest, "Chest3", "", "chestUpper"},
    {HumanBone::kNeck, "Neck", "neck", "neckLower"},
    {HumanBone::kHead, "Head", "head", "head"},
    {HumanBone::kLeftEye, "", "leftEye", "lEye"},
    {HumanBone::kRightEye, "", "rightEye", "rEye"},
    {HumanBone::kLeftShoulder, "LeftCollar", "lCollar", "lCollar"},
    {HumanBone::kRightShoulder, "RightCollar", "rCollar", "rCollar"},
    {HumanBone::kLeftUpperArm, "LeftShoulder", "lShldr", "lShldrBend"},
    {HumanBone::kRightUpperArm, "RightShoulder", "rShldr", "rShldrBend"},
    {HumanBone::kLeftLowerArm, "LeftElbow", "lForeArm", "lForearmBend"},
    {HumanBone::kRightLowerArm, "RightElbow", "rForeArm", "rForearmBend"},
    {HumanBone::kLeftHand, "LeftWrist", "lHand", "lHand"},
    {HumanBone::kRightHand, "RightWrist", "rHand", "rHand"},
    {HumanBone::kLeftUpperLeg, "LeftHip", "lThigh", "lThighBend"},
    {HumanBone::kRightUpperLeg, "RightHip", "rThigh", "rThighBend"},
    {HumanBone::kLeftLowerLeg, "LeftKnee", "lShin", "lShin"},
    {HumanBone::kRightLowerLeg, "RightKnee", "rShin", "rShin"},
    {HumanBone::kLeftFoot, "LeftAnkle", "lFoot", "lFoot"},
    {HumanBone::kRightFoot, "RightAnkle", "rFoot", "rFoot"},
    {HumanBone::kLeftToes, "LeftToe", "lToe", "lToe"},
    {HumanBone::kRightToes, "RightToe", "rToe", "rToe"},
    {HumanBone::kJaw, "", "", "lowerJaw"},
    {HumanBone::kLeftThumbProximal, "", "lThumb1", "lThumb1"},
    {HumanBone::kLeftThumbIntermediate, "", "lThumb2", "lThumb2"},
    {HumanBone::kLeftThumbDistal, "", "lThumb3", "lThumb3"},
    {HumanBone::kLeftIndexProximal, "", "lIndex1", "lIndex1"},
    {HumanBone::kLeftIndexIntermediate, "", "lIndex2", "lIndex2"},
    {HumanBone::kLeftIndexDistal, "", "lIndex3", "lIndex3"},
    {HumanBone::kLeftMiddleProximal, "", "lMid1", "lMid1"},
    {HumanBone::kLeftMiddleIntermediate, "", "lMid2", "lMid2"},
    {HumanBone::kLeftMiddleDistal, "", "lMid3", "lMid3"},
    {HumanBone::kLeftRingProximal, "", "lRing1", "lRing1"},
    {HumanBone::kLeftRingIntermediate, "", "lRing2", "lRing2"},
    {HumanBone::kLeftRingDistal, "", "lRing3", "lRing3"},
    {HumanBone::kLeftLittleProximal, "", "lPinky1", "lPinky1"},
    {HumanBone::kLeftLittleIntermediate, "", "lPinky2", "lPinky2"},
    {HumanBone::kLeftLittleDistal, "", "lPinky3", "lPinky3"},
    {HumanBone::kRightThumbProximal, "", "rThumb1", "rThumb1"},
    {HumanBone::kRightThumbIntermediate, "", "rThumb2", "rThumb2"},
    {HumanBone::kRightThumbDistal, "", "rThumb3", "rThumb3"},
    {HumanBone::kRightIndexProximal, "", "rIndex1", "rIndex1"},
    {HumanBone::kRightIndexIntermediate, "", "rIndex2", "rIndex2"},
    {HumanBone::kRightIndexDistal, "", "rIndex3", "rIndex3"},
    {HumanBone::kRightMiddleProximal, "", "rMid1", "rMid1"},
    {HumanBone::kRightMiddleIntermediate, "", "rMid2", "rMid2"},
    {HumanBone::kRightMiddleDistal, "", "rMid3", "rMid3"},
    {HumanBone::kRightRingProximal, "", "rRing1", "rRing1"},
    {HumanBone::kRightRingIntermediate, "", "rRing2", "rRing2"},
    {HumanBone::kRightRingDistal, "", "rRing3", "rRing3"},
    {HumanBone::kRightLittleProximal, "", "rPinky1", "rPinky1"},
    {HumanBone::kRightLittleIntermediate, "", "rPinky2", "rPinky2"},
    {HumanBone::kRightLittleDistal, "", "rPinky3", "rPinky3"},
};

}  // namespace

const char* MocapNamingId(MocapNaming naming) {
  switch (naming) {
    case MocapNaming::kBiovision:
      return "biovision";
    case MocapNaming::kPoser:
      return "poser";
    case MocapNaming::kDazGenesis:
      return "daz-genesis";
  }
  return "";
}

std::string_view MocapBoneName(HumanBone bone, MocapNaming naming) {
  for (const MocapRow& row : kRows) {
    if (row.bone != bone) continue;
    switch (naming) {
      case MocapNaming::kBiovision:
        return row.biovision;
      case MocapNaming::kPoser:
        return row.poser;
      case MocapNaming::kDazGenesis:
        return row.daz;
    }
  }
  return {};
}

}  // namespace animconv
