#include "animconv/humanoid.h"

#include <array>

#include "libconvert/text.h"

namespace animconv {
namespace {

using B = HumanBone;

// Rows in HumanBodyBones order; names and requirements from Unity HumanBodyBones and the VRM 0.x
// / 1.0 humanoid specs, parents from §2.2 (VRM 1.0 humanoid.md parent map).
constexpr std::array<HumanBoneInfo, kHumanBoneCount> kBones = {{
    {"Hips", "hips", "hips", "Hips", true, true, std::nullopt},
    {"LeftUpperLeg", "leftUpperLeg", "leftUpperLeg", "LeftUpLeg", true, true, B::kHips},
    {"RightUpperLeg", "rightUpperLeg", "rightUpperLeg", "RightUpLeg", true, true, B::kHips},
    {"LeftLowerLeg", "leftLowerLeg", "leftLowerLeg", "LeftLeg", true, true, B::kLeftUpperLeg},
    {"RightLowerLeg", "rightLowerLeg", "rightLowerLeg", "RightLeg", true, true, B::kRightUpperLeg},
    {"LeftFoot", "leftFoot", "leftFoot", "LeftFoot", true, true, B::kLeftLowerLeg},
    {"RightFoot", "rightFoot", "rightFoot", "RightFoot", true, true, B::kRightLowerLeg},
    {"Spine", "spine", "spine", "Spine", true, true, B::kHips},
    {"Chest", "chest", "chest", "Spine1", true, false, B::kSpine},
    {"Neck", "neck", "neck", "Neck", true, false, B::kUpperChest},
    {"Head", "head", "head", "Head", true, true, B::kNeck},
    {"LeftShoulder", "leftShoulder", "leftShoulder", "LeftShoulder", false, false, B::kUpperChest},
    {"RightShoulder", "rightShoulder", "rightShoulder", "RightShoulder", false, false,
     B::kUpperChest},
    {"LeftUpperArm", "leftUpperArm", "leftUpperArm", "LeftArm", true, true, B::kLeftShoulder},
    {"RightUpperArm", "rightUpperArm", "rightUpperArm", "RightArm", true, true, B::kRightShoulder},
    {"LeftLowerArm", "leftLowerArm", "leftLowerArm", "LeftForeArm", true, true, B::kLeftUpperArm},
    {"RightLowerArm", "rightLowerArm", "rightLowerArm", "RightForeArm", true, true,
     B::kRightUpperArm},
    {"LeftHand", "leftHand", "leftHand", "LeftHand", true, true, B::kLeftLowerArm},
    {"RightHand", "rightHand", "rightHand", "RightHand", true, true, B::kRightLowerArm},
    {"LeftToes", "leftToes", "leftToes", "LeftToeBase", false, false, B::kLeftFoot},
    {"RightToes", "rightToes", "rightToes", "RightToeBase", false, false, B::kRightFoot},
    {"LeftEye", "leftEye", "leftEye", "", false, false, B::kHead},
    {"RightEye", "rightEye", "rightEye", "", false, false, B::kHead},
    {"Jaw", "jaw", "jaw", "", false, false, B::kHead},
    {"LeftThumbProximal", "leftThumbProximal", "leftThumbMetacarpal", "LeftHandThumb1", false,
     false, B::kLeftHand},
    {"LeftThumbIntermediate", "leftThumbIntermediate", "leftThumbProximal", "LeftHandThumb2", false,
     false, B::kLeftThumbProximal},
    {"LeftThumbDistal", "leftThumbDistal", "leftThumbDistal", "LeftHandThumb3", false, false,
     B::kLeftThumbIntermediate},
    {"LeftIndexProximal", "leftIndexProximal", "leftIndexProximal", "LeftHandIndex1", false, false,
     B::kLeftHand},
    {"LeftIndexIntermediate", "leftIndexIntermediate", "leftIndexIntermediate", "LeftHandIndex2",
     false, false, B::kLeftIndexProximal},
    {"LeftIndexDistal", "leftIndexDistal", "leftIndexDistal", "LeftHandIndex3", false, false,
     B::kLeftIndexIntermediate},
    {"LeftMiddleProximal", "leftMiddleProximal", "leftMiddleProximal", "LeftHandMiddle1", false,
     false, B::kLeftHand},
    {"LeftMiddleIntermediate", "leftMiddleIntermediate", "leftMiddleIntermediate",
     "LeftHandMiddle2", false, false, B::kLeftMiddleProximal},
    {"LeftMiddleDistal", "leftMiddleDistal", "leftMiddleDistal", "LeftHandMiddle3", false, false,
     B::kLeftMiddleIntermediate},
    {"LeftRingProximal", "leftRingProximal", "leftRingProximal", "LeftHandRing1", false, false,
     B::kLeftHand},
    {"LeftRingIntermediate", "leftRingIntermediate", "leftRingIntermediate", "LeftHandRing2", false,
     false, B::kLeftRingProximal},
    {"LeftRingDistal", "leftRingDistal", "leftRingDistal", "LeftHandRing3", false, false,
     B::kLeftRingIntermediate},
    {"LeftLittleProximal", "leftLittleProximal", "leftLittleProximal", "LeftHandPinky1", false,
     false, B::kLeftHand},
    {"LeftLittleIntermediate", "leftLittleIntermediate", "leftLittleIntermediate", "LeftHandPinky2",
     false, false, B::kLeftLittleProximal},
    {"LeftLittleDistal", "leftLittleDistal", "leftLittleDistal", "LeftHandPinky3", false, false,
     B::kLeftLittleIntermediate},
    {"RightThumbProximal", "rightThumbProximal", "rightThumbMetacarpal", "RightHandThumb1", false,
     false, B::kRightHand},
    {"RightThumbIntermediate", "rightThumbIntermediate", "rightThumbProximal", "RightHandThumb2",
     false, false, B::kRightThumbProximal},
    {"RightThumbDistal", "rightThumbDistal", "rightThumbDistal", "RightHandThumb3", false, false,
     B::kRightThumbIntermediate},
    {"RightIndexProximal", "rightIndexProximal", "rightIndexProximal", "RightHandIndex1", false,
     false, B::kRightHand},
    {"RightIndexIntermediate", "rightIndexIntermediate", "rightIndexIntermediate",
     "RightHandIndex2", false, false, B::kRightIndexProximal},
    {"RightIndexDistal", "rightIndexDistal", "rightIndexDistal", "RightHandIndex3", false, false,
     B::kRightIndexIntermediate},
    {"RightMiddleProximal", "rightMiddleProximal", "rightMiddleProximal", "RightHandMiddle1", false,
     false, B::kRightHand},
    {"RightMiddleIntermediate", "rightMiddleIntermediate", "rightMiddleIntermediate",
     "RightHandMiddle2", false, false, B::kRightMiddleProximal},
    {"RightMiddleDistal", "rightMiddleDistal", "rightMiddleDistal", "RightHandMiddle3", false,
     false, B::kRightMiddleIntermediate},
    {"RightRingProximal", "rightRingProximal", "rightRingProximal", "RightHandRing1", false, false,
     B::kRightHand},
    {"RightRingIntermediate", "rightRingIntermediate", "rightRingIntermediate", "RightHandRing2",
     false, false, B::kRightRingProximal},
    {"RightRingDistal", "rightRingDistal", "rightRingDistal", "RightHandRing3", false, false,
     B::kRightRingIntermediate},
    {"RightLittleProximal", "rightLittleProximal", "rightLittleProximal", "RightHandPinky1", false,
     false, B::kRightHand},
    {"RightLittleIntermediate", "rightLittleIntermediate", "rightLittleIntermediate",
     "RightHandPinky2", false, false, B::kRightLittleProximal},
    {"RightLittleDistal", "rightLittleDistal", "rightLittleDistal", "RightHandPinky3", false, false,
     B::kRightLittleIntermediate},
    {"UpperChest", "upperChest", "upperChest", "Spine2", false, false, B::kChest},
}};

}  // namespace

const HumanBoneInfo& GetHumanBoneInfo(HumanBone bone) { return kBones[static_cast<int>(bone)]; }

std::optional<HumanBone> FindHumanBoneByUnityName(std::string_view name) {
  for (int i = 0; i < kHumanBoneCount; ++i) {
    if (EqualsIgnoreCase(kBones[i].unity, name)) return static_cast<HumanBone>(i);
  }
  return std::nullopt;
}

}  // namespace animconv
