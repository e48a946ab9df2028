// Humanoid bone identities. The numbering is Unity's HumanBodyBones enum, so a 55-column-group
// Unity CSV maps column group i to HumanBone(i). UpperChest is value 54, the last one, although
// Unity's source declares it between Chest and Neck (Unity HumanBodyBones and the VRM 0.x / 1.0
// humanoid specs).
#pragma once

#include <optional>
#include <string_view>

namespace animconv {

enum class HumanBone : int {
  kHips = 0,
  kLeftUpperLeg,
  kRightUpperLeg,
  kLeftLowerLeg,
  kRightLowerLeg,
  kLeftFoot,
  kRightFoot,
  kSpine,
  kChest,
  kNeck,
  kHead,
  kLeftShoulder,
  kRightShoulder,
  kLeftUpperArm,
  kRightUpperArm,
  kLeftLowerArm,
  kRightLowerArm,
  kLeftHand,
  kRightHand,
  kLeftToes,
  kRightToes,
  kLeftEye,
  kRightEye,
  kJaw,
  kLeftThumbProximal,
  kLeftThumbIntermediate,
  kLeftThumbDistal,
  kLeftIndexProximal,
  kLeftIndexIntermediate,
  kLeftIndexDistal,
  kLeftMiddleProximal,
  kLeftMiddleIntermediate,
  kLeftMiddleDistal,
  kLeftRingProximal,
  kLeftRingIntermediate,
  kLeftRingDistal,
  kLeftLittleProximal,
  kLeftLittleIntermediate,
  kLeftLittleDistal,
  kRightThumbProximal,
  kRightThumbIntermediate,
  kRightThumbDistal,
  kRightIndexProximal,
  kRightIndexIntermediate,
  kRightIndexDistal,
  kRightMiddleProximal,
  kRightMiddleIntermediate,
  kRightMiddleDistal,
  kRightRingProximal,
  kRightRingIntermediate,
  kRightRingDistal,
  kRightLittleProximal,
  kRightLittleIntermediate,
  kRightLittleDistal,
  kUpperChest = 54,
};

constexpr int kHumanBoneCount = 55;

struct HumanBoneInfo {
  std::string_view unity;   // HumanBodyBones name, e.g. "LeftThumbProximal"
  std::string_view vrm0;    // VRM 0.x `bone`, e.g. "leftThumbProximal" (same order as Unity)
  std::string_view vrm1;    // VRM 1.0 / VRMA key; thumbs shift: "leftThumbMetacarpal"
  std::string_view mixamo;  // suffix after the "mixamorig:" prefix; empty when Mixamo has none
  bool required_vrm0;
  bool required_vrm1;
  std::optional<HumanBone> parent;  // VRM 1.0 humanoid parent map (VRM 1.0 humanoid spec: the
                                    // thumbs renamed from VRM 0.x)
};

const HumanBoneInfo& GetHumanBoneInfo(HumanBone bone);

// Finds a bone by its Unity or VRM 0.x name, ignoring case ("Hips", "hips", "leftUpperLeg").
std::optional<HumanBone> FindHumanBoneByUnityName(std::string_view name);

}  // namespace animconv
