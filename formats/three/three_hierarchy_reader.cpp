#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "animconv/bone_names.h"
#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "formats/common/json_errors.h"
#include "formats/common/json_pointer.h"
#include "formats/common/json_stream.h"
#include "formats/three/three_bone_records.h"
#include "formats/three/three_hierarchy.h"
#include "formats/three/three_hierarchy_keys.h"
#include "formats/three/three_json.h"
#include "formats/three/three_playback.h"

namespace animconv {
namespace {

using nlohmann::json;

// Whether a clip's member ends `path` after `steps` more steps, in one of the layouts Read
// accepts: {hierarchy}, {animation: {hierarchy}} or {animations: [{hierarchy}]}.
bool InClip(const JsonPath& path, size_t steps) {
  const size_t depth = path.depth();
  return depth == steps || (depth == steps + 1 && path.Is(0, "animation")) ||
         (depth == steps + 2 && path.Is(0, "animations") && path.Is(1, nullptr));
}

// Whether the array at `path` is a clip's `hierarchy`.
bool IsEntries(const JsonPath& path) {
  return path.depth() >= 1 && path.Is(path.depth() - 1, "hierarchy") && InClip(path, 1);
}

// Whether the array at `path` is a hierarchy entry's `keys`.
bool IsEntryKeys(const JsonPath& path) {
  const size_t depth = path.depth();
  return depth >= 3 && path.Is(depth - 1, "keys") && path.Is(depth - 2, nullptr) &&
         path.Is(depth - 3, "hierarchy") && InClip(path, 3);
}

// Whether the reader reads the member at `path` (Read, ReadBones, ReadClip, NodeFor, the keys):
// the others are left out of the tree. Keep in step with what they read.
bool IsReadMember(const JsonPath& path) {
  const size_t depth = path.depth();
  const std::string& name = path.steps().back().key;
  if (depth == 1 && IsOneOf(name, {"bones", "animations", "animation"})) return true;
  if (depth == 3 && path.Is(0, "bones") && path.Is(1, nullptr)) {
    return IsOneOf(name, {"name", "parent", "pos", "rotq", "scl"});
  }
  // After the clip at steps [0, clip_depth): its members, its entries', their keys'.
  auto in_clip = [&](size_t clip_depth) {
    if (depth == clip_depth + 1) {
      return IsOneOf(name, {"name", "length", "fps", "hierarchy", "blendMode"});
    }
    if (depth < clip_depth + 3 || !path.Is(clip_depth, "hierarchy") ||
        !path.Is(clip_depth + 1, nullptr)) {
      return false;
    }
    if (depth == clip_depth + 3) return IsOneOf(name, {"parent", "keys"});
    return depth == clip_depth + 5 && path.Is(clip_depth + 2, "keys") &&
           path.Is(clip_depth + 3, nullptr) &&
           IsOneOf(name, {"time", "pos", "rot", "scl", "morphTargets"});
  };
  return in_clip(0) || (path.Is(0, "animation") && in_clip(1)) ||
         (path.Is(0, "animations") && path.Is(1, nullptr) && in_clip(2));
}

// The parser stops keeping the clips of `animations` at its first element the reader will
// certainly refuse (JsonArrayPolicy), as ThreeHierarchyEntriesSink and ThreeBoneRecordsSink do for
// the entries and bone records (docs/reliability.md, "Limits").
std::optional<JsonArrayPolicy> HierarchyArrayPolicy(const JsonPath& path) {
  JsonArrayPolicy policy;
  if (path.depth() == 1 && path.Is(0, "animations")) {  // ReadClip: objects with a hierarchy
    policy.refuses = [](const json& clip) {
      return !clip.is_object() || !clip.contains("hierarchy");
    };
    return policy;
  }
  return std::nullopt;
}

class HierarchyReader {
 public:
  HierarchyReader(const std::string& source, const StructureLimits& limits)
      : json_(source), limits_(limits) {}

  Asset Read(std::string_view bytes);

 private:
  int RequireParent(const json& value, size_t node_count, size_t self,
                    const std::string& pointer) const;

  void ReadBones(const json& bones);
  void ReadClip(const json& animation, const std::string& pointer);
  int NodeFor(const json& entry, size_t h, size_t entry_count, const std::string& pointer);
  void ReadEntry(ThreeHierarchyKeysSink& keys, int node, const std::string& pointer);
  void NoteMilliseconds(const json& animation);
  std::optional<int> RecordParent(size_t n) const;
  std::string ParentPointer(size_t n) const;
  std::vector<int> CheckedParents() const;
  void BuildNodes(const std::vector<int>& parents);
  void CheckCount(size_t count, size_t limit, const char* what, const std::string& pointer) const;

  JsonPointerReader json_;
  const StructureLimits& limits_;
  StreamedJson streamed_;  // the document, with each entry's keys read (ThreeHierarchyKeysSink)
  Asset asset_;
  // The rig's nodes are built last, from input that passed every check (BuildNodes): until then
  // the reader keeps only their count and parents, and the bone records in a few bytes each
  // (ThreeBoneRecordsSink), so a file refused at its last byte never held a node per record
  // (docs/reliability.md, "Limits").
  const ThreeBoneRecordsSink* bones_ = nullptr;  // the bone records, once ReadBones checked them
  bool have_bones_ = false;
  size_t node_count_ = 0;  // bones_'s records, else the most entries of a clip
  // Per node: the parent the first hierarchy entry gives (a bone record's is in bones_).
  std::vector<std::optional<int>> entry_parents_;
  std::vector<std::string> entry_parent_pointers_;  // where each entry parent was read
  size_t parent_mismatches_ = 0;
  std::string first_mismatch_;
  Clip clip_;  // the clip being read
};

// A parent index: -1 for a root, else another node's index.
int HierarchyReader::RequireParent(const json& value, size_t node_count, size_t self,
                                   const std::string& pointer) const {
  const double parent = json_.RequireNumber(value, pointer);
  if (parent != std::floor(parent) || parent < -1 || parent >= static_cast<double>(node_count) ||
      parent == static_cast<double>(self)) {
    json_.Fail(pointer,
               fmt::format("parent {} of bone {}: expected -1 or the index of another of the "
                           "{} bones",
                           parent, self, node_count));
  }
  return static_cast<int>(parent);
}

void HierarchyReader::CheckCount(size_t count, size_t limit, const char* what,
                                 const std::string& pointer) const {
  if (count > limit) {
    json_.Fail(pointer, fmt::format("{} {}, more than the limit of {}", count, what, limit));
  }
}

// The legacy bone records {parent, name, pos, rotq, scl}: the rig, and its rest pose when every
// record has one. Checked as they were parsed (ThreeBoneRecordsSink).
void HierarchyReader::ReadBones(const json& bones) {
  const auto* records = streamed_.SinkOf<ThreeBoneRecordsSink>(bones);
  if (!records) {
    json_.RequireArray(bones, "/bones");
    ThrowInternal("three-hierarchy: the bone records were not streamed");
  }
  CheckCount(records->size(), limits_.nodes, "bones", "/bones");
  records->Check(records->size());
  have_bones_ = true;
  bones_ = records;
  node_count_ = records->size();
}

// The node of hierarchy entry `h`: bones[h] when the file has bone records (parseAnimation pairs
// them by index), else a node "bone_<h>" made on first use.
int HierarchyReader::NodeFor(const json& entry, size_t h, size_t entry_count,
                             const std::string& pointer) {
  if (have_bones_ && h >= node_count_) {
    json_.Fail(pointer, fmt::format("hierarchy entry {} has keys but 'bones' has {} record(s); "
                                    "parseAnimation pairs entry h with bones[h]",
                                    h, node_count_));
  }
  if (const json* parent_json = Given(entry, "parent")) {
    const size_t node_count = have_bones_ ? node_count_ : entry_count;
    const int parent = RequireParent(*parent_json, node_count, h, pointer + "/parent");
    if (entry_parents_.size() <= h) {
      entry_parents_.resize(h + 1);
      entry_parent_pointers_.resize(h + 1);
    }
    if (!entry_parents_[h]) {
      entry_parents_[h] = parent;
      entry_parent_pointers_[h] = pointer + "/parent";
    }
    const std::optional<int> record = RecordParent(h);
    if (record && *record != parent && ++parent_mismatches_ == 1) {
      first_mismatch_ =
          fmt::format("{}/parent is {}, /bones/{}/parent is {}", pointer, parent, h, *record);
    }
  }
  return static_cast<int>(h);
}

// One channel per property, from the keys that carry it (AnimationUtils.flattenJSON), read
// while the document was parsed.
void HierarchyReader::ReadEntry(ThreeHierarchyKeysSink& keys, int node,
                                const std::string& pointer) {
  CheckCount(keys.size(), limits_.keys_per_channel, "keys", pointer);
  for (Channel& channel : keys.Take(node)) clip_.channels.push_back(std::move(channel));
}

void HierarchyReader::ReadClip(const json& animation, const std::string& pointer) {
  if (!animation.is_object()) {
    json_.Fail(pointer,
               fmt::format("expected an animation object {{name, fps, length, hierarchy}}, "
                           "found {}",
                           animation.type_name()));
  }
  clip_ = Clip{};
  // `animation.name || 'default'`.
  if (const json* name = Given(animation, "name")) {
    if (!name->is_string()) json_.Fail(pointer + "/name", "expected the clip name as a string");
    clip_.name = name->get<std::string>();
  }
  if (clip_.name.empty()) clip_.name = "default";
  // `animation.length || -1`: zero or absent means "from the keys", and so does a negative one.
  if (const json* length = Given(animation, "length")) {
    const double seconds = json_.RequireNumber(*length, pointer + "/length");
    if (seconds > 0) clip_.duration_seconds = seconds;
  }
  // parseAnimation hands `animation.blendMode` to the clip (three.js r125-r184): an additive one
  // (2501) plays its keys as offsets from a reference pose, which the clip model cannot mark
  // (read as a normal clip it played 90° off, review of session 35; the three reader refuses it
  // the same way).
  if (const json* blend = Given(animation, "blendMode");
      blend && blend->is_number() && blend->get<double>() == 2501) {
    json_.Fail(pointer + "/blendMode",
               fmt::format("clip '{}' is additive (blendMode 2501): its keys are offsets from a "
                           "reference pose, which the clip model cannot mark; expected a normal "
                           "clip (2500)",
                           clip_.name));
  }
  const json* hierarchy = Given(animation, "hierarchy");
  if (!hierarchy) json_.Fail(pointer, "expected a 'hierarchy' array of bone tracks");
  // Every clip's `hierarchy` array was streamed (IsEntries): what is left is another value.
  const auto* entries = streamed_.SinkOf<ThreeHierarchyEntriesSink>(*hierarchy);
  if (!entries) {
    json_.RequireArray(*hierarchy, pointer + "/hierarchy");
    ThrowInternal("three-hierarchy: a clip's hierarchy array was not streamed");
  }
  const size_t entry_count = entries->size();
  CheckCount(entry_count, limits_.nodes, "hierarchy entries", pointer + "/hierarchy");
  // The entries that are empty objects are not among them: without keys they are skipped, and
  // without bone records their nodes are made below.
  for (const auto& [h, entry] : entries->entries()) {
    const std::string entry_pointer = fmt::format("{}/hierarchy/{}", pointer, h);
    if (!entry.is_object()) {
      json_.Fail(entry_pointer, fmt::format("expected a bone track {{parent, keys}}, found {}",
                                            entry.type_name()));
    }
    const json* keys = Given(entry, "keys");
    // Every `keys` array of an entry was streamed (IsEntryKeys): what is left is another value.
    ThreeHierarchyKeysSink* streamed_keys =
        keys ? streamed_.SinkOf<ThreeHierarchyKeysSink>(*keys) : nullptr;
    // Entries without keys are skipped but keep their index (and, without bones, their node).
    if (have_bones_ && (!keys || (streamed_keys && streamed_keys->size() == 0))) continue;
    const int node = NodeFor(entry, h, entry_count, entry_pointer);
    if (keys) {
      if (!streamed_keys) {
        json_.RequireArray(*keys, entry_pointer + "/keys");
        ThrowInternal("three-hierarchy: an entry's keys array was not streamed");
      }
      ReadEntry(*streamed_keys, node, entry_pointer + "/keys");
    }
  }
  if (clip_.channels.empty()) {
    json_.Fail(pointer + "/hierarchy",
               fmt::format("clip '{}' has no key with pos, rot or scl (three.js's parseAnimation "
                           "returns null for it)",
                           clip_.name));
  }
  // Without bone records every entry is a node, the empty ones too (BuildNodes).
  if (!have_bones_) node_count_ = std::max(node_count_, entry_count);
  NoteMilliseconds(animation);
  // parseAnimation makes the clip with `length` as its duration: the mixer stops there too.
  CutToThreeDuration(clip_, &asset_.notes);
  asset_.clips.push_back(std::move(clip_));
}

// parseAnimation never scales times by fps (three.js <= r184 AnimationClip.parseAnimation), so key
// times are read as seconds. A file whose keys sit 1000/fps apart was most likely written in
// milliseconds (the seed article's convention, `--time-unit ms`): say so, without changing the
// data.
void HierarchyReader::NoteMilliseconds(const json& animation) {
  const json* fps_json = Given(animation, "fps");
  if (!fps_json || !fps_json->is_number() || !(fps_json->get<double>() > 0)) return;
  const double fps = fps_json->get<double>();
  for (const Channel& channel : clip_.channels) {
    if (channel.key_count() < 2) continue;
    const double step = channel.times_seconds[1] - channel.times_seconds[0];
    if (std::abs(step * fps / 1000 - 1) < 0.01) {
      asset_.notes.push_back(fmt::format(
          "clip '{}': keys {} apart at fps {} look like milliseconds (1000/fps); they were read "
          "as seconds, as three.js reads them",
          clip_.name, step, fps));
    }
    return;
  }
}

std::optional<int> HierarchyReader::RecordParent(size_t n) const {
  return bones_ ? bones_->Parent(n) : std::nullopt;
}

// Where node n's parent was read: its bone record, else the first hierarchy entry giving one.
std::string HierarchyReader::ParentPointer(size_t n) const {
  return RecordParent(n) ? fmt::format("/bones/{}/parent", n) : entry_parent_pointers_[n];
}

// Each node's parent (the bone record's, else the first entry's, else none), with no parent
// cycle and no chain deeper than the limit. ValidateAsset would refuse a cycle too, but as
// "node N": here the parent that closes it is located where the file gives it.
std::vector<int> HierarchyReader::CheckedParents() const {
  std::vector<int> parents(node_count_, -1);
  for (size_t n = 0; n < node_count_; ++n) {
    const std::optional<int> entry = n < entry_parents_.size() ? entry_parents_[n] : std::nullopt;
    parents[n] = RecordParent(n).value_or(entry.value_or(-1));
  }
  enum : char { kUnseen, kOnPath, kReachesRoot };
  std::vector<char> state(parents.size(), kUnseen);
  for (size_t start = 0; start < parents.size(); ++start) {
    int node = static_cast<int>(start);
    while (node >= 0 && state[static_cast<size_t>(node)] == kUnseen) {
      state[static_cast<size_t>(node)] = kOnPath;
      node = parents[static_cast<size_t>(node)];
    }
    if (node >= 0 && state[static_cast<size_t>(node)] == kOnPath) {
      const size_t n = static_cast<size_t>(node);
      json_.Fail(ParentPointer(n),
                 fmt::format("parent {} of bone {} closes a parent cycle", parents[n], n));
    }
    for (node = static_cast<int>(start); node >= 0 && state[static_cast<size_t>(node)] == kOnPath;
         node = parents[static_cast<size_t>(node)]) {
      state[static_cast<size_t>(node)] = kReachesRoot;
    }
  }
  if (const auto fault = FindHierarchyFault(parents, limits_.depth)) {
    const size_t n = fault->node;
    json_.Fail(ParentPointer(n), fmt::format("bone {} is {} levels deep, more than the limit of {}",
                                             n, limits_.depth + 1, limits_.depth));
  }
  return parents;
}

// The rig, once every check passed: one allocation for its nodes, named by their bone records
// or, without them, "bone_<h>" after their entries.
void HierarchyReader::BuildNodes(const std::vector<int>& parents) {
  std::vector<Node>& nodes = asset_.rig.nodes;
  nodes.resize(node_count_);
  if (bones_) bones_->FillNodes(nodes);
  for (size_t n = 0; n < node_count_; ++n) {
    if (!bones_) nodes[n].name = fmt::format("bone_{}", n);
    nodes[n].parent = parents[n];
  }
  if (bones_) {
    asset_.rig.rest_pose_known = bones_->rest_pose_known();
    // parseAnimation binds entry h as '.bones[<bones[h].name>]': the skeleton's own names.
    asset_.rig.three_object_names = true;
  }
}

Asset HierarchyReader::Read(std::string_view bytes) {
  streamed_ = ParseJsonStreamingOrThrow(
      bytes, json_.source(),
      [this](const JsonPath& path) -> std::unique_ptr<JsonElementSink> {
        if (path.depth() == 1 && path.Is(0, "bones")) {
          return std::make_unique<ThreeBoneRecordsSink>(json_, limits_);
        }
        if (IsEntries(path)) return std::make_unique<ThreeHierarchyEntriesSink>(limits_.nodes);
        if (IsEntryKeys(path)) {
          return std::make_unique<ThreeHierarchyKeysSink>(json_, path.Pointer());
        }
        return nullptr;
      },
      IsReadMember, HierarchyArrayPolicy);
  const json& document = streamed_.document;
  if (!document.is_object()) {
    json_.Fail(
        "", fmt::format("expected a hierarchy animation object, found {}", document.type_name()));
  }
  if (const json* bones = Given(document, "bones")) ReadBones(*bones);
  if (document.contains("hierarchy")) {
    ReadClip(document, "");  // {name, fps, length, hierarchy, bones?}, our writer's layout
  } else if (const json* animations = Given(document, "animations")) {
    json_.RequireArray(*animations, "/animations");  // legacy JSON model, format 3.x
    if (animations->empty())
      json_.Fail("/animations", "expected at least one animation, found none");
    for (size_t a = 0; a < animations->size(); ++a) {
      ReadClip((*animations)[a], fmt::format("/animations/{}", a));
    }
  } else if (const json* animation = Given(document, "animation")) {
    ReadClip(*animation, "/animation");
  } else {
    json_.Fail("",
               "expected a 'hierarchy' (a hierarchy animation) or 'bones' with 'animation' or "
               "'animations' (a legacy three.js JSON model)");
  }
  BuildNodes(CheckedParents());
  if (parent_mismatches_ > 0) {
    asset_.notes.push_back(fmt::format(
        "{} hierarchy parent(s) differ from the bone records' ({}); the bone records are used, "
        "as three.js's legacy loaders did",
        parent_mismatches_, first_mismatch_));
  }
  asset_.coordinates = {Handedness::kRight, Facing::kUnknown};
  // After all bone records: the thumbs are told apart by the names of the whole rig.
  TagHumanoidByExactNames(asset_.rig);
  return std::move(asset_);
}

}  // namespace

Asset ReadThreeHierarchy(std::string_view bytes, const ReadOptions& options) {
  return HierarchyReader(options.source, options.limits).Read(bytes);
}

}  // namespace animconv
