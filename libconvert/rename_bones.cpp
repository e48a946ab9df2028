// Renaming rig nodes by a bone map and an output naming (RenameBones in bone_names.h).
#include <fmt/format.h>

#include <map>

#include "animconv/bone_names.h"
#include "animconv/error.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

std::string Ambiguity(std::string_view name, const std::vector<HumanBone>& bones) {
  return fmt::format(
      "'{}' is Unity {} in VRM 0.x but Unity {} in VRM 1.0; write the Unity name ({} or {}) or "
      "the VRM 1.0 metacarpal name ({})",
      name, GetHumanBoneInfo(bones[0]).unity, GetHumanBoneInfo(bones[1]).unity,
      GetHumanBoneInfo(bones[0]).unity, GetHumanBoneInfo(bones[1]).unity,
      GetHumanBoneInfo(bones[0]).vrm1);
}

}  // namespace

std::vector<std::string> RenameBones(Rig& rig, const std::vector<BoneMapEntry>& map,
                                     std::optional<BoneNaming> naming) {
  std::vector<std::string> warnings;
  const size_t count = rig.nodes.size();
  std::vector<std::optional<std::string>> new_names(count);
  std::vector<std::optional<HumanBone>> new_bones(count);
  std::vector<int> map_line(count, 0);  // the entry that renamed the node

  for (const BoneMapEntry& entry : map) {
    std::optional<size_t> target;
    for (size_t n = 0; n < count && !target; ++n) {
      if (rig.nodes[n].name == entry.from) target = n;
    }
    if (!target) {
      const std::vector<HumanBone> bones = FindHumanBoneInAnyNaming(entry.from);
      if (bones.size() > 1) {
        ThrowUsage(fmt::format("bone map line {}: {}", entry.line, Ambiguity(entry.from, bones)));
      }
      for (size_t n = 0; n < count && !target && !bones.empty(); ++n) {
        if (rig.nodes[n].human_bone == bones.front()) target = n;
      }
    }
    if (!target) {
      warnings.push_back(
          fmt::format("bone map line {}: '{}' matches no node or bone", entry.line, entry.from));
      continue;
    }
    if (map_line[*target] != 0) {
      warnings.push_back(fmt::format("bone map line {}: node '{}' is already renamed by line {}",
                                     entry.line, rig.nodes[*target].name, map_line[*target]));
      continue;
    }
    new_names[*target] = entry.to;
    map_line[*target] = entry.line;
    if (rig.nodes[*target].human_bone) continue;
    const std::vector<HumanBone> bones = FindHumanBoneInAnyNaming(entry.to);
    if (bones.size() > 1) {
      warnings.push_back(fmt::format("bone map line {}: no humanoid identity given: {}", entry.line,
                                     Ambiguity(entry.to, bones)));
    } else if (bones.size() == 1) {
      new_bones[*target] = bones.front();
    }
  }

  // Identities stay unique: a bone another node has, or an earlier entry gave, is not given again.
  std::optional<size_t> holder[kHumanBoneCount];
  for (size_t n = 0; n < count; ++n) {
    if (rig.nodes[n].human_bone) holder[static_cast<int>(*rig.nodes[n].human_bone)] = n;
  }
  for (size_t n = 0; n < count; ++n) {
    if (!new_bones[n]) continue;
    std::optional<size_t>& bone_holder = holder[static_cast<int>(*new_bones[n])];
    if (bone_holder) {
      warnings.push_back(fmt::format(
          "bone map line {}: '{}' is not made humanoid {}: node '{}' already is", map_line[n],
          rig.nodes[n].name, GetHumanBoneInfo(*new_bones[n]).unity, rig.nodes[*bone_holder].name));
      new_bones[n].reset();
    } else {
      bone_holder = n;
    }
  }

  if (naming) {
    for (size_t n = 0; n < count; ++n) {
      const std::optional<HumanBone> bone = rig.nodes[n].human_bone;
      if (!bone || map_line[n] != 0) continue;
      new_names[n] = HumanBoneName(*bone, *naming);
      if (!new_names[n]) {
        warnings.push_back(fmt::format("'{}' keeps its name: {} naming has no {}",
                                       rig.nodes[n].name, BoneNamingId(*naming),
                                       GetHumanBoneInfo(*bone).unity));
      }
    }
  }

  const auto describe = [&](size_t n) {
    if (map_line[n] != 0)
      return fmt::format("'{}' (bone map line {})", rig.nodes[n].name, map_line[n]);
    if (new_names[n]) {
      return fmt::format("'{}' (renamed to the {} naming)", rig.nodes[n].name,
                         BoneNamingId(*naming));
    }
    return fmt::format("'{}' (not renamed)", rig.nodes[n].name);
  };
  std::map<std::string_view, size_t> owner;
  for (size_t n = 0; n < count; ++n) {
    const std::string_view name = new_names[n] ? *new_names[n] : rig.nodes[n].name;
    const auto [it, inserted] = owner.emplace(name, n);
    // Clashes the rig already had are not ours to report.
    if (!inserted && (new_names[n] || new_names[it->second])) {
      ThrowUsage(fmt::format("renaming bones gives two nodes the name '{}': {} and {}", name,
                             describe(it->second), describe(n)));
    }
  }

  for (size_t n = 0; n < count; ++n) {
    if (!new_names[n]) continue;
    rig.nodes[n].name = *new_names[n];
    rig.nodes[n].generated_name = false;
    if (new_bones[n]) rig.nodes[n].human_bone = new_bones[n];
  }
  return warnings;
}

}  // namespace animconv
