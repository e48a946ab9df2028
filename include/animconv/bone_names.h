// Humanoid bone names in the four namings we know (Unity HumanBodyBones and the VRM 0.x / 1.0
// humanoid specs), guessing a rig's humanoid mapping from its node names, and renaming bones (user
// maps, output naming).
//
// The trap: "leftThumbProximal" is Unity LeftThumbProximal in VRM 0.x but Unity
// LeftThumbIntermediate in VRM 1.0 (VRM 1.0 humanoid spec: the thumbs renamed from VRM 0.x), so a
// name alone does not always say which bone it is; lookups either take the naming or report both
// candidates.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "animconv/humanoid.h"
#include "animconv/mocap_bone_names.h"
#include "animconv/model.h"

namespace animconv {

enum class BoneNaming { kUnity, kVrm0, kVrm1, kMixamo };

inline constexpr BoneNaming kBoneNamings[] = {BoneNaming::kUnity, BoneNaming::kVrm0,
                                              BoneNaming::kVrm1, BoneNaming::kMixamo};

// "unity" | "vrm0" | "vrm1" | "mixamo".
std::optional<BoneNaming> ParseBoneNaming(std::string_view id);
const char* BoneNamingId(BoneNaming naming);

// The bone's name in that naming: "LeftThumbProximal", "leftThumbProximal",
// "leftThumbMetacarpal", "mixamorig:LeftHandThumb1". Nullopt when the naming has no such bone
// (Mixamo has no eyes or jaw).
std::optional<std::string> HumanBoneName(HumanBone bone, BoneNaming naming);

// Exact lookup in one naming, ignoring case. kMixamo accepts the prefixes "mixamorig:",
// "mixamorigN:", "mixamorig_", the glued "mixamorig"/"mixamorigN" three.js sanitising leaves, and
// no prefix. Spine1 is chest and Spine2 upperChest, as in three-vrm's example map (its
// Mixamo VRMA example).
std::optional<HumanBone> FindHumanBone(std::string_view name, BoneNaming naming);

// Every bone `name` denotes in some naming: names matching with their exact case win over names
// matching only when case is ignored. Empty for an unknown name; two bones only for the VRM 0.x /
// 1.0 thumb names ("leftThumbProximal", "rightThumbProximal", or those in another case).
std::vector<HumanBone> FindHumanBoneInAnyNaming(std::string_view name);

// What a reader knows from node names alone: sets every node's Node::human_bone to the bone its
// whole name denotes in the Unity, VRM 0.x or VRM 1.0 naming (case ignored), else nullopt. The
// thumbs are decided for the whole rig, as GuessHumanoid does: a "*ThumbMetacarpal" node means
// VRM 1.0 thumbs, otherwise "*ThumbProximal" is Unity / VRM 0.x ThumbProximal. No minimum bone
// count, so a two-track clip keeps its identities; a second node naming a taken bone gets none.
// Prefixed and Mixamo names are left to GuessHumanoid, which says in a note what it assumed; when
// it would map more bones than the exact names (a Mixamo rig whose eyes and jaw kept their VRM
// names), no node is tagged so that it can.
void TagHumanoidByExactNames(Rig& rig);

// What GuessHumanoid found. Unity and VRM 0.x names differ only in case, so `naming` says which
// case the hips node had; their bones are the same.
struct HumanoidGuess {
  BoneNaming naming = BoneNaming::kUnity;   // meaningless when mocap_naming is set
  std::optional<MocapNaming> mocap_naming;  // a BVH skeleton's naming (mocap_bone_names.h)
  int bones_matched = 0;
  // Nodes that look like part of the skeleton but match no bone, or a bone already taken: those
  // sharing the prefix (when there is one) or below the hips node. Rig order.
  std::vector<std::string> unmatched_candidates;
  std::string prefix;  // what precedes every matched bone name, e.g. "mixamorig:", "Armature|"
  // Lowercase names with "*ThumbProximal" but neither "*ThumbMetacarpal" (VRM 1.0 only) nor
  // "*ThumbIntermediate" (VRM 0.x only): read as VRM 0.x, which may be one joint off.
  bool thumbs_ambiguous = false;
};

// When no node has a humanoid identity yet and the node names follow one naming, assigns
// Node::human_bone and returns what it guessed; otherwise changes nothing and returns nullopt.
// Besides our four namings it tries the Biovision and Poser BVH namings (mocap_bone_names.h), and
// takes whichever matches most bones. A node matches when its name is PREFIX + a bone name of the
// naming (case ignored), where PREFIX
// is the same for every matched node and is empty, ends in one of ": _ | / . - space", or is a
// glued Mixamo prefix ("mixamorigHips"). Needs the hips and at least kMinGuessedBones bones in all,
// so a scene that merely has a "Hips" and a "Head" is left alone. "*ThumbMetacarpal" nodes select
// VRM 1.0 thumbs; otherwise thumbs follow Unity / VRM 0.x.
inline constexpr int kMinGuessedBones = 8;
std::optional<HumanoidGuess> GuessHumanoid(Rig& rig);

// One line for Asset::notes: what was guessed, from which naming, and what did not match.
// The naming a guess read the rig in, as `info` prints it (text and JSON): a BoneNamingId, or a
// MocapNamingId for BVH skeletons.
const char* HumanoidGuessNamingId(const HumanoidGuess& guess);
std::string DescribeHumanoidGuess(const HumanoidGuess& guess);

// Which humanoid bones the rig maps (enum order) and which required ones it lacks.
struct HumanoidCoverage {
  std::vector<HumanBone> mapped;
  std::vector<HumanBone> missing_required_vrm1;  // of the 15 VRM 1.0 / VRMA requires
  std::vector<HumanBone> missing_required_vrm0;  // of the 17 VRM 0.x requires
};
HumanoidCoverage CoverHumanoid(const Rig& rig);

// One row of a bone map: rename the node `from` (a node name, or a bone name in any naming) to
// `to`. ParseBoneMap (bone_map.h) reads them from a `--bone-map` file; `line` is where.
struct BoneMapEntry {
  std::string from, to;
  int line = 0;
};

// Renames rig nodes. An entry's `from` matches the node of that exact name, else the node whose
// humanoid identity `from` names in any naming; the node is renamed `to` and, if it had no
// identity and `to` names exactly one bone, gets that identity. Then, with `naming`, every other
// humanoid node gets HumanBoneName(bone, naming), or keeps its name with a warning when the
// naming lacks the bone. Returns warnings (entries matching nothing, ...). Throws Error(kUsage)
// when a `from` is an ambiguous thumb name or when renaming would give two nodes one name; the rig
// is unchanged then.
std::vector<std::string> RenameBones(Rig& rig, const std::vector<BoneMapEntry>& map,
                                     std::optional<BoneNaming> naming);

}  // namespace animconv
