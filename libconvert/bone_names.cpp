#include "animconv/bone_names.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "animconv/mocap_bone_names.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

constexpr std::string_view kMixamoPrefix = "mixamorig";

std::string_view Column(HumanBone bone, BoneNaming naming) {
  const HumanBoneInfo& info = GetHumanBoneInfo(bone);
  switch (naming) {
    case BoneNaming::kUnity:
      return info.unity;
    case BoneNaming::kVrm0:
      return info.vrm0;
    case BoneNaming::kVrm1:
      return info.vrm1;
    case BoneNaming::kMixamo:
      return info.mixamo;
  }
  return {};
}

// The length of a leading "mixamorig", "mixamorig1", "mixamorig:", "mixamorig1_"..., else 0.
size_t MixamoPrefixLength(std::string_view name) {
  if (!StartsWithIgnoreCase(name, kMixamoPrefix)) return 0;
  size_t length = kMixamoPrefix.size();
  while (length < name.size() && name[length] >= '0' && name[length] <= '9') ++length;
  if (length < name.size() && (name[length] == ':' || name[length] == '_')) ++length;
  return length;
}

// Mixamo's column is the part after the prefix, which may be glued to it.
std::optional<HumanBone> Lookup(std::string_view name, BoneNaming naming, bool ignore_case) {
  if (naming == BoneNaming::kMixamo) name.remove_prefix(MixamoPrefixLength(name));
  for (int i = 0; i < kHumanBoneCount; ++i) {
    const std::string_view column = Column(static_cast<HumanBone>(i), naming);
    if (column.empty()) continue;
    if (ignore_case ? EqualsIgnoreCase(column, name) : column == name) {
      return static_cast<HumanBone>(i);
    }
  }
  return std::nullopt;
}

bool IsPrefixBoundary(char c) {
  return c == ':' || c == '_' || c == '|' || c == '/' || c == '.' || c == '-' || c == ' ';
}

// The table a reading matches names against: one of the namings we write, or a mocap naming we
// only guess from.
struct Table {
  BoneNaming naming = BoneNaming::kUnity;
  std::optional<MocapNaming> mocap;
};

std::string_view Column(HumanBone bone, const Table& table) {
  return table.mocap ? MocapBoneName(bone, *table.mocap) : Column(bone, table.naming);
}

// One way to read the rig's names: a prefix and a naming, with the bone each node matched.
struct Reading {
  std::string prefix;
  Table table;
  // (node, bone) in node order, at most one per bone: a few dozen entries, not one per node, so
  // the readings tried for thousands of hips-like prefixes stay O(nodes) together.
  std::vector<std::pair<size_t, HumanBone>> bones;
  int distinct = 0;
  std::vector<size_t> duplicates;  // nodes naming a bone an earlier node took, ascending
};

// The reading's bone per node.
std::vector<std::optional<HumanBone>> BonesPerNode(const Reading& reading, size_t node_count) {
  std::vector<std::optional<HumanBone>> bones(node_count);
  for (const auto& [n, bone] : reading.bones) bones[n] = bone;
  return bones;
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

// Lower-case node name -> the nodes with it, ascending: a reading under one prefix then looks up
// its 55 names instead of scanning every node, so trying every hips-like node's prefix stays
// O(nodes) (it was O(n²): 10 s for 10,000 nodes "p<i>_Hips").
using NameIndex = std::unordered_map<std::string, std::vector<size_t>>;

NameIndex IndexNames(const Rig& rig) {
  NameIndex index;
  for (size_t n = 0; n < rig.nodes.size(); ++n) index[Lower(rig.nodes[n].name)].push_back(n);
  return index;
}

// The nodes the scan in Read would match, as (node, bone) in node order, each node with the
// first bone whose name it has.
std::vector<std::pair<size_t, HumanBone>> Matches(
    const NameIndex& index, std::string_view prefix,
    const std::array<std::string_view, kHumanBoneCount>& columns) {
  std::vector<std::pair<size_t, HumanBone>> matches;
  const std::string lower_prefix = Lower(prefix);
  for (int i = 0; i < kHumanBoneCount; ++i) {
    if (columns[static_cast<size_t>(i)].empty()) continue;
    const auto found = index.find(lower_prefix + Lower(columns[static_cast<size_t>(i)]));
    if (found == index.end()) continue;
    for (const size_t n : found->second) matches.emplace_back(n, static_cast<HumanBone>(i));
  }
  std::sort(matches.begin(), matches.end());
  matches.erase(std::unique(matches.begin(), matches.end(),
                            [](const auto& a, const auto& b) { return a.first == b.first; }),
                matches.end());
  return matches;
}

Reading Read(const Rig& rig, std::string_view prefix, const Table& table,
             const NameIndex* index = nullptr) {
  Reading reading;
  reading.prefix = std::string(prefix);
  reading.table = table;
  bool taken[kHumanBoneCount] = {};
  // The table's names once, not per node: MocapBoneName scans its rows (84 % of a guess over a
  // rig of 800 nodes named "Hips" before).
  std::array<std::string_view, kHumanBoneCount> columns;
  for (int i = 0; i < kHumanBoneCount; ++i) columns[i] = Column(static_cast<HumanBone>(i), table);
  if (index) {
    for (const auto& [n, bone] : Matches(*index, prefix, columns)) {
      if (taken[static_cast<int>(bone)]) {
        reading.duplicates.push_back(n);
        continue;
      }
      taken[static_cast<int>(bone)] = true;
      reading.bones.emplace_back(n, bone);
      ++reading.distinct;
    }
    return reading;
  }
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    const std::string_view name = rig.nodes[n].name;
    if (!StartsWithIgnoreCase(name, prefix)) continue;
    const std::string_view rest = name.substr(prefix.size());
    std::optional<HumanBone> bone;
    for (int i = 0; i < kHumanBoneCount && !bone; ++i) {
      const std::string_view column = columns[static_cast<size_t>(i)];
      if (!column.empty() && EqualsIgnoreCase(column, rest)) bone = static_cast<HumanBone>(i);
    }
    if (!bone) continue;
    if (taken[static_cast<int>(*bone)]) {
      reading.duplicates.push_back(n);
      continue;
    }
    taken[static_cast<int>(*bone)] = true;
    reading.bones.emplace_back(n, *bone);
    ++reading.distinct;
  }
  return reading;
}

bool HasBone(const Reading& reading, HumanBone a, HumanBone b) {
  return std::any_of(reading.bones.begin(), reading.bones.end(),
                     [&](const auto& match) { return match.second == a || match.second == b; });
}

// The Unity / VRM 0.x / VRM 1.0 reading under one prefix. Unity and VRM 0.x names are equal
// ignoring case, and VRM 1.0 differs from them only in the thumbs, so the choice among them rests
// on the thumb names (VRM 1.0 humanoid spec: the thumbs renamed from VRM 0.x): a Metacarpal exists
// only in VRM 1.0.
Reading HumanoidReading(const Rig& rig, std::string_view prefix, const NameIndex* index = nullptr) {
  Reading vrm1 = Read(rig, prefix, {BoneNaming::kVrm1, std::nullopt}, index);
  const bool has_metacarpal =
      HasBone(vrm1, HumanBone::kLeftThumbProximal, HumanBone::kRightThumbProximal);
  if (has_metacarpal) return vrm1;
  return Read(rig, prefix, {BoneNaming::kUnity, std::nullopt}, index);
}

// The best reading under one prefix: the humanoid namings, Mixamo or a mocap naming, whichever
// matches most (the first on a tie). The mocap namings share words with the others but not their
// meaning ("LeftShoulder"), so counting whole skeletons is what tells them apart.
Reading BestReading(const Rig& rig, std::string_view prefix, bool glued, const NameIndex& index) {
  Reading mixamo = Read(rig, prefix, {BoneNaming::kMixamo, std::nullopt}, &index);
  // A glued prefix is only how three.js sanitises "mixamorig:"; "ArmatureHips" is not a split.
  if (glued) return mixamo;
  Reading best = HumanoidReading(rig, prefix, &index);
  if (mixamo.distinct > best.distinct) best = std::move(mixamo);
  for (const MocapNaming naming : kMocapNamings) {
    Reading mocap = Read(rig, prefix, {BoneNaming::kUnity, naming}, &index);
    if (mocap.distinct > best.distinct) best = std::move(mocap);
  }
  return best;
}

// Per node: whether `ancestor` is above it. Memoised along each chain, so O(nodes) in all (a walk
// to the root per node was quadratic in a deep chain). Parents may follow children in the list.
std::vector<bool> NodesBelow(const Rig& rig, size_t ancestor) {
  enum : char { kUnknown, kBelow, kNotBelow };
  std::vector<char> state(rig.nodes.size(), kUnknown);
  state[ancestor] = kNotBelow;  // not below itself; its children are
  std::vector<size_t> chain;
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    chain.clear();
    char answer = kNotBelow;
    for (int at = static_cast<int>(n); at >= 0; at = rig.nodes[static_cast<size_t>(at)].parent) {
      if (static_cast<size_t>(at) != n && static_cast<size_t>(at) == ancestor) {
        answer = kBelow;
        break;
      }
      if (state[static_cast<size_t>(at)] != kUnknown && static_cast<size_t>(at) != ancestor) {
        answer = state[static_cast<size_t>(at)];
        break;
      }
      chain.push_back(static_cast<size_t>(at));
    }
    for (const size_t c : chain) {
      if (c != ancestor) state[c] = answer;
    }
  }
  std::vector<bool> below(rig.nodes.size());
  for (size_t n = 0; n < rig.nodes.size(); ++n) below[n] = state[n] == kBelow;
  return below;
}

// The reading GuessHumanoid would take, with the index of its hips node; nullopt when it would
// guess nothing.
std::optional<std::pair<Reading, size_t>> FindGuess(const Rig& rig) {
  std::optional<Reading> best;
  size_t best_hips = 0;
  // Each prefix is read once: a later node with the same prefix (ignoring case, as Read matches)
  // gives the same count and cannot win a tie. Reading once per hips-like node was O(n²) for a
  // rig whose nodes are all "Hips" (40 s at 2,500 nodes).
  std::unordered_set<std::string> tried;
  const NameIndex index = IndexNames(rig);
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    const std::string_view name = rig.nodes[n].name;
    // "hip" is Poser's hips.
    const size_t suffix = EndsWithIgnoreCase(name, "hips")  ? 4
                          : EndsWithIgnoreCase(name, "hip") ? 3
                                                            : 0;
    if (suffix == 0) continue;
    const std::string_view prefix = name.substr(0, name.size() - suffix);
    const bool glued = !prefix.empty() && !IsPrefixBoundary(prefix.back());
    if (glued && MixamoPrefixLength(prefix) != prefix.size()) continue;
    std::string key(prefix);
    std::transform(key.begin(), key.end(), key.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!tried.insert(std::move(key)).second) continue;
    Reading reading = BestReading(rig, prefix, glued, index);
    if (!best || reading.distinct > best->distinct) {
      best = std::move(reading);
      best_hips = n;
    }
  }
  if (!best || best->distinct < kMinGuessedBones) return std::nullopt;
  return std::make_pair(std::move(*best), best_hips);
}

}  // namespace

std::optional<BoneNaming> ParseBoneNaming(std::string_view id) {
  for (const BoneNaming naming : kBoneNamings) {
    if (id == BoneNamingId(naming)) return naming;
  }
  return std::nullopt;
}

const char* BoneNamingId(BoneNaming naming) {
  switch (naming) {
    case BoneNaming::kUnity:
      return "unity";
    case BoneNaming::kVrm0:
      return "vrm0";
    case BoneNaming::kVrm1:
      return "vrm1";
    case BoneNaming::kMixamo:
      return "mixamo";
  }
  return "";
}

std::optional<std::string> HumanBoneName(HumanBone bone, BoneNaming naming) {
  const std::string_view column = Column(bone, naming);
  if (column.empty()) return std::nullopt;
  if (naming == BoneNaming::kMixamo) return std::string(kMixamoPrefix) + ":" + std::string(column);
  return std::string(column);
}

std::optional<HumanBone> FindHumanBone(std::string_view name, BoneNaming naming) {
  return Lookup(name, naming, /*ignore_case=*/true);
}

std::vector<HumanBone> FindHumanBoneInAnyNaming(std::string_view name) {
  for (const bool ignore_case : {false, true}) {
    std::vector<HumanBone> bones;
    for (const BoneNaming naming : kBoneNamings) {
      const std::optional<HumanBone> bone = Lookup(name, naming, ignore_case);
      if (bone && std::find(bones.begin(), bones.end(), *bone) == bones.end()) {
        bones.push_back(*bone);
      }
    }
    if (!bones.empty()) {
      std::sort(bones.begin(), bones.end());
      return bones;
    }
  }
  return {};
}

void TagHumanoidByExactNames(Rig& rig) {
  Reading reading = HumanoidReading(rig, "");
  // A Mixamo or prefixed skeleton with a few plain names (the eyes and jaw that --bone-names
  // mixamo leaves) is GuessHumanoid's to map: tagging the few would stop it.
  const std::optional<std::pair<Reading, size_t>> guess = FindGuess(rig);
  if (guess && guess->first.distinct > reading.distinct) reading.bones.clear();
  const std::vector<std::optional<HumanBone>> bones = BonesPerNode(reading, rig.nodes.size());
  for (size_t n = 0; n < rig.nodes.size(); ++n) rig.nodes[n].human_bone = bones[n];
}

std::optional<HumanoidGuess> GuessHumanoid(Rig& rig) {
  for (const Node& node : rig.nodes) {
    if (node.human_bone) return std::nullopt;  // a reader knew better than names
  }
  const std::optional<std::pair<Reading, size_t>> found = FindGuess(rig);
  if (!found) return std::nullopt;
  const Reading& best = found->first;
  const size_t best_hips = found->second;

  HumanoidGuess guess;
  guess.naming = best.table.naming;
  guess.mocap_naming = best.table.mocap;
  guess.prefix = best.prefix;
  guess.bones_matched = best.distinct;
  const std::string_view hips_name =
      std::string_view(rig.nodes[best_hips].name).substr(best.prefix.size());
  if (!guess.mocap_naming && guess.naming == BoneNaming::kUnity && hips_name.front() == 'h') {
    guess.naming = BoneNaming::kVrm0;
    guess.thumbs_ambiguous =
        HasBone(best, HumanBone::kLeftThumbProximal, HumanBone::kRightThumbProximal) &&
        !HasBone(best, HumanBone::kLeftThumbIntermediate, HumanBone::kRightThumbIntermediate);
  }
  // End joints (BVH End Sites, Blender's "_end", Mixamo's "HeadTop_End") carry no bone: listing
  // them as unmatched would bury the joints that really missed a bone.
  std::vector<bool> is_end_site(rig.nodes.size(), true);
  for (const Node& node : rig.nodes) {
    if (node.parent >= 0) is_end_site[static_cast<size_t>(node.parent)] = false;
  }
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    const std::string_view name = rig.nodes[n].name;
    is_end_site[n] = is_end_site[n] &&
                     (StartsWithIgnoreCase(name, "endsite") ||
                      StartsWithIgnoreCase(name, "end site") || EndsWithIgnoreCase(name, "end"));
  }
  const std::vector<bool> below_hips = NodesBelow(rig, best_hips);
  const std::vector<std::optional<HumanBone>> bones = BonesPerNode(best, rig.nodes.size());
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    rig.nodes[n].human_bone = bones[n];
    const bool duplicate = std::binary_search(best.duplicates.begin(), best.duplicates.end(), n);
    const bool in_skeleton =
        (!best.prefix.empty() && StartsWithIgnoreCase(rig.nodes[n].name, best.prefix)) ||
        below_hips[n];
    if (!bones[n] && (duplicate || (in_skeleton && !is_end_site[n]))) {
      guess.unmatched_candidates.push_back(rig.nodes[n].name);
    }
  }
  return guess;
}

const char* HumanoidGuessNamingId(const HumanoidGuess& guess) {
  return guess.mocap_naming ? MocapNamingId(*guess.mocap_naming) : BoneNamingId(guess.naming);
}

std::string DescribeHumanoidGuess(const HumanoidGuess& guess) {
  constexpr size_t kListed = 8;
  std::string text = fmt::format("humanoid bones guessed from node names: {} in {} naming",
                                 guess.bones_matched, HumanoidGuessNamingId(guess));
  if (!guess.prefix.empty()) text += fmt::format(" (prefix '{}')", guess.prefix);
  if (guess.mocap_naming == MocapNaming::kBiovision) {
    text += "; Collar read as shoulder, Shoulder as upperArm, Hip as upperLeg, Chest as spine";
  } else if (guess.mocap_naming == MocapNaming::kPoser) {
    text +=
        "; abdomen read as spine, Shldr as upperArm, Thigh as upperLeg, Thumb1 as ThumbProximal";
  } else if (guess.mocap_naming == MocapNaming::kDazGenesis) {
    text +=
        "; abdomenLower read as spine, chestLower as chest, chestUpper as upperChest, ShldrBend "
        "as upperArm, ForearmBend as lowerArm, ThighBend as upperLeg, Thumb1 as ThumbProximal";
  } else if (guess.naming == BoneNaming::kMixamo) {
    text += "; Spine1 read as chest, Spine2 as upperChest";
  }
  if (guess.thumbs_ambiguous) {
    text +=
        "; '*ThumbProximal' read as VRM 0.x (Unity ThumbProximal): no node is named "
        "*ThumbMetacarpal (VRM 1.0) or *ThumbIntermediate (VRM 0.x)";
  }
  const std::vector<std::string>& unmatched = guess.unmatched_candidates;
  if (!unmatched.empty()) {
    text += "; not matched: " + ListFirst(unmatched, kListed);
  }
  return text;
}

HumanoidCoverage CoverHumanoid(const Rig& rig) {
  bool present[kHumanBoneCount] = {};
  for (const Node& node : rig.nodes) {
    if (node.human_bone) present[static_cast<int>(*node.human_bone)] = true;
  }
  HumanoidCoverage coverage;
  for (int i = 0; i < kHumanBoneCount; ++i) {
    const HumanBone bone = static_cast<HumanBone>(i);
    if (present[i]) {
      coverage.mapped.push_back(bone);
      continue;
    }
    if (GetHumanBoneInfo(bone).required_vrm1) coverage.missing_required_vrm1.push_back(bone);
    if (GetHumanBoneInfo(bone).required_vrm0) coverage.missing_required_vrm0.push_back(bone);
  }
  return coverage;
}

}  // namespace animconv
