#include "animconv/mocap_bone_names.h"

namespace animconv {
namespace {

struct MocapRow {
  HumanBone bone;
  std::string_view biovision;
  std::string_view poser;
};

// Fingers: Poser numbers joints from the hand outwards, 1 being Unity's Proximal.
constexpr MocapRow kRows[] = {
    {HumanBone::kHips, "Hips", "hip"},
    {HumanBone::kSpine, "Chest", "abdomen"},
    {HumanBone::kChest, "Chest2", "chest"},
    {HumanBone::kUpperChest, "Chest3", ""},
    {HumanBone::kNeck, "Neck", "neck"},
    {HumanBone::kHead, "Head", "head"},
    {HumanBone::kLeftEye, "", "leftEye"},
    {HumanBone::kRightEye, "", "rightEye"},
    {HumanBone::kLeftShoulder, "LeftCollar", "lCollar"},
    {HumanBone::kRightShoulder, "RightCollar", "rCollar"},
    {HumanBone::kLeftUpperArm, "LeftShoulder", "lShldr"},
    {HumanBone::kRightUpperArm, "RightShoulder", "rShldr"},
    {HumanBone::kLeftLowerArm, "LeftElbow", "lForeArm"},
    {HumanBone::kRightLowerArm, "RightElbow", "rForeArm"},
    {HumanBone::kLeftHand, "LeftWrist", "lHand"},
    {HumanBone::kRightHand, "RightWrist", "rHand"},
    {HumanBone::kLeftUpperLeg, "LeftHip", "lThigh"},
    {HumanBone::kRightUpperLeg, "RightHip", "rThigh"},
    {HumanBone::kLeftLowerLeg, "LeftKnee", "lShin"},
    {HumanBone::kRightLowerLeg, "RightKnee", "rShin"},
    {HumanBone::kLeftFoot, "LeftAnkle", "lFoot"},
    {HumanBone::kRightFoot, "RightAnkle", "rFoot"},
    {HumanBone::kLeftToes, "LeftToe", "lToe"},
    {HumanBone::kRightToes, "RightToe", "rToe"},
    {HumanBone::kLeftThumbProximal, "", "lThumb1"},
    {HumanBone::kLeftThumbIntermediate, "", "lThumb2"},
    {HumanBone::kLeftThumbDistal, "", "lThumb3"},
    {HumanBone::kLeftIndexProximal, "", "lIndex1"},
    {HumanBone::kLeftIndexIntermediate, "", "lIndex2"},
    {HumanBone::kLeftIndexDistal, "", "lIndex3"},
    {HumanBone::kLeftMiddleProximal, "", "lMid1"},
    {HumanBone::kLeftMiddleIntermediate, "", "lMid2"},
    {HumanBone::kLeftMiddleDistal, "", "lMid3"},
    {HumanBone::kLeftRingProximal, "", "lRing1"},
    {HumanBone::kLeftRingIntermediate, "", "lRing2"},
    {HumanBone::kLeftRingDistal, "", "lRing3"},
    {HumanBone::kLeftLittleProximal, "", "lPinky1"},
    {HumanBone::kLeftLittleIntermediate, "", "lPinky2"},
    {HumanBone::kLeftLittleDistal, "", "lPinky3"},
    {HumanBone::kRightThumbProximal, "", "rThumb1"},
    {HumanBone::kRightThumbIntermediate, "", "rThumb2"},
    {HumanBone::kRightThumbDistal, "", "rThumb3"},
    {HumanBone::kRightIndexProximal, "", "rIndex1"},
    {HumanBone::kRightIndexIntermediate, "", "rIndex2"},
    {HumanBone::kRightIndexDistal, "", "rIndex3"},
    {HumanBone::kRightMiddleProximal, "", "rMid1"},
    {HumanBone::kRightMiddleIntermediate, "", "rMid2"},
    {HumanBone::kRightMiddleDistal, "", "rMid3"},
    {HumanBone::kRightRingProximal, "", "rRing1"},
    {HumanBone::kRightRingIntermediate, "", "rRing2"},
    {HumanBone::kRightRingDistal, "", "rRing3"},
    {HumanBone::kRightLittleProximal, "", "rPinky1"},
    {HumanBone::kRightLittleIntermediate, "", "rPinky2"},
    {HumanBone::kRightLittleDistal, "", "rPinky3"},
};

}  // namespace

const char* MocapNamingId(MocapNaming naming) {
  return naming == MocapNaming::kBiovision ? "biovision" : "poser";
}

std::string_view MocapBoneName(HumanBone bone, MocapNaming naming) {
  for (const MocapRow& row : kRows) {
    if (row.bone == bone) return naming == MocapNaming::kBiovision ? row.biovision : row.poser;
  }
  return {};
}

}  // namespace animconv
