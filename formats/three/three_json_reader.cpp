#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "animconv/bone_names.h"
#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "formats/common/json_errors.h"
#include "formats/common/json_pointer.h"
#include "formats/common/json_skim.h"
#include "formats/common/json_stream.h"
#include "formats/three/three_json.h"
#include "formats/three/three_json_keys.h"
#include "formats/three/three_morph_targets.h"
#include "formats/three/three_playback.h"
#include "formats/three/three_user_data.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

using nlohmann::json;

// three.js codes (src/constants.js, three.js r187 src/constants.js).
constexpr double kInterpolateDiscrete = 2300;
constexpr double kInterpolateLinear = 2301;
constexpr double kInterpolateSmooth = 2302;
constexpr double kInterpolateBezier = 2303;
constexpr double kAdditiveAnimationBlendMode = 2501;

enum class TrackType { kNumber, kVector, kQuaternion, kColor, kBool, kString };

// AnimationClip's getTrackTypeForValueTypeName (three.js r187 KeyframeTrack types).
std::optional<TrackType> FindTrackType(std::string_view type) {
  static const std::pair<std::string_view, TrackType> kAliases[] = {
      {"scalar", TrackType::kNumber},         {"double", TrackType::kNumber},
      {"float", TrackType::kNumber},          {"number", TrackType::kNumber},
      {"integer", TrackType::kNumber},        {"vector", TrackType::kVector},
      {"vector2", TrackType::kVector},        {"vector3", TrackType::kVector},
      {"vector4", TrackType::kVector},        {"color", TrackType::kColor},
      {"quaternion", TrackType::kQuaternion}, {"bool", TrackType::kBool},
      {"boolean", TrackType::kBool},          {"string", TrackType::kString},
  };
  for (const auto& [alias, track_type] : kAliases) {
    if (EqualsIgnoreCase(type, alias)) return track_type;
  }
  return std::nullopt;
}

// A track's name and type, read first and checked alone: a track they refuse is refused
// whatever the rest of the file holds (ThreeArrayPolicy relies on it).
struct TrackHead {
  std::string name;
  std::string type_text;
  TrackType type = TrackType::kNumber;
};

TrackHead ReadTrackHead(const json& track, const std::string& pointer,
                        const JsonPointerReader& reader, const StructureLimits& limits) {
  if (!track.is_object()) {
    reader.Fail(pointer, fmt::format("expected a track object, found {}", track.type_name()));
  }
  TrackHead head;
  head.name = reader.RequireString(reader.Require(track, "name", pointer), pointer + "/name");
  if (head.name.size() > limits.name_bytes) {  // docs/reliability.md, Limits
    reader.Fail(pointer + "/name",
                fmt::format("a track name of {} bytes, more than the limit of {}", head.name.size(),
                            limits.name_bytes));
  }
  head.type_text = reader.RequireString(reader.Require(track, "type", pointer), pointer + "/type");
  const std::optional<TrackType> type = FindTrackType(head.type_text);
  if (!type) {
    reader.Fail(pointer + "/type",
                fmt::format("track '{}' has type '{}', expected one of three.js's: number, vector, "
                            "quaternion, color, bool, string or an alias such as vector3 or scalar",
                            head.name, head.type_text));
  }
  head.type = *type;
  return head;
}

// What a track animates in the model.
struct Target {
  std::string node;
  Path path = Path::kRotation;
  std::string morph_target;  // a per-target weights track's bracket name; else empty
};

class ClipReader {
 public:
  // `streamed` holds the document and the tracks' keys (MakeThreeTrackSink).
  ClipReader(const StreamedJson& streamed, const std::string& source, Diagnostics* diagnostics,
             const StructureLimits& limits)
      : streamed_(streamed), json_(source), diagnostics_(diagnostics), limits_(limits) {}

  void ReadClip(const json& clip_json, const std::string& pointer, size_t index);
  Asset Finish();

 private:
  void ReadTrack(const json& track, const std::string& pointer, double frame_seconds);
  std::optional<Target> ResolveTarget(const std::string& name, const std::string& pointer);
  Interpolation ReadInterpolation(const json& track, TrackType type, const std::string& name,
                                  const std::string& pointer) const;
  void CheckTypeFitsPath(TrackType type, const Target& target, Interpolation interpolation,
                         const std::string& name, const std::string& pointer) const;
  int ValueWidth(const ThreeTrackKeys& keys, const Target& target, const std::string& name) const;
  void AddChannel(Channel channel, const std::string& name, const std::string& pointer);
  void AddMorphTarget(const Target& target, Channel channel, const std::string& name,
                      const std::string& pointer);
  void MergeMorphGroups();
  void Skip(const std::string& name, const std::string& why);
  int NodeIndex(const std::string& name);

  const StreamedJson& streamed_;
  JsonPointerReader json_;
  Diagnostics* diagnostics_;  // what was read differently from the file (ReadOptions)
  const StructureLimits& limits_;
  Asset asset_;
  std::map<std::string, int> node_index_;
  std::vector<std::string> skipped_;
  // The clip being read.
  Clip clip_;
  std::map<std::pair<int, Path>, std::string> animated_;  // target -> the track that animates it
  std::map<int, ThreeMorphGroup> morph_groups_;           // by node
  // The facing the clips' userData records (ours), and the clip that said it first.
  std::optional<Facing> facing_;
  std::string facing_clip_;
};

void ClipReader::ReadClip(const json& clip_json, const std::string& pointer, size_t index) {
  if (!clip_json.is_object()) {
    json_.Fail(pointer,
               fmt::format("expected an AnimationClip object, found {}", clip_json.type_name()));
  }
  clip_ = Clip{};
  animated_.clear();
  morph_groups_.clear();
  // AnimationClip.parse: name defaults to ''; we name unnamed clips like GLTFLoader does.
  if (const json* name = Given(clip_json, "name")) {
    clip_.name = json_.RequireString(*name, pointer + "/name");
  }
  if (clip_.name.empty()) clip_.name = fmt::format("animation_{}", index);
  if (const json* user_data = Given(clip_json, "userData")) {
    const std::optional<Facing> facing = ReadThreeUserDataFacing(*user_data, pointer, diagnostics_);
    if (facing && facing_ && *facing != *facing_) {
      json_.Fail(pointer + "/userData",
                 fmt::format("clip '{}' faces the other way than clip '{}'; expected one facing "
                             "per file",
                             clip_.name, facing_clip_));
    }
    if (facing && !facing_) {
      facing_ = facing;
      facing_clip_ = clip_.name;
    }
  }
  if (const json* blend = Given(clip_json, "blendMode");
      blend && blend->is_number() && blend->get<double>() == kAdditiveAnimationBlendMode) {
    json_.Fail(
        pointer + "/blendMode",
        fmt::format("clip '{}' is additive (blendMode 2501): its keys are offsets from a "
                    "reference pose, which the clip model cannot mark; expected a normal clip "
                    "(2500)",
                    clip_.name));
  }
  // `fps` makes every time a frame number, but leaves `duration` alone (three.js r187
  // AnimationClip.parse); like `json.fps || 1.0`, 0 means no fps.
  double frame_seconds = 1;
  if (const json* fps_json = Given(clip_json, "fps")) {
    const double fps = json_.RequireNumber(*fps_json, pointer + "/fps");
    if (fps < 0) {
      json_.Fail(pointer + "/fps", fmt::format("expected a positive frame rate, found {}", fps));
    }
    if (fps > 0) {
      frame_seconds = 1.0 / fps;
      asset_.notes.push_back(
          fmt::format("clip '{}' has fps {}: its track times were read as frame numbers (x 1/{} s)",
                      clip_.name, fps, fps));
    }
  }
  // Any negative duration (-1 by convention) means "from the tracks", as in the constructor.
  if (const json* duration = Given(clip_json, "duration")) {
    const double seconds = json_.RequireNumber(*duration, pointer + "/duration");
    if (seconds >= 0) clip_.duration_seconds = seconds;
  }
  const std::string tracks_pointer = pointer + "/tracks";
  const json& tracks =
      json_.RequireArray(json_.Require(clip_json, "tracks", pointer), tracks_pointer);
  const size_t track_count = streamed_.ElementCount(tracks, tracks_pointer);
  if (track_count > limits_.channels) {
    json_.Fail(tracks_pointer,
               fmt::format("{} tracks, more than the limit of {}", track_count, limits_.channels));
  }
  for (size_t t = 0; t < tracks.size(); ++t) {
    ReadTrack(tracks[t], fmt::format("{}/{}", tracks_pointer, t), frame_seconds);
  }
  MergeMorphGroups();
  CutToThreeDuration(clip_, &asset_.notes);
  asset_.clips.push_back(std::move(clip_));
}

void ClipReader::ReadTrack(const json& track, const std::string& pointer, double frame_seconds) {
  const TrackHead head = ReadTrackHead(track, pointer, json_, limits_);
  const std::string& name = head.name;
  const std::string& type_text = head.type_text;
  const TrackType type = head.type;
  if (type == TrackType::kColor || type == TrackType::kBool || type == TrackType::kString) {
    Skip(name, fmt::format("a {} track is not a transform or morph weight", type_text));
    return;
  }
  const std::optional<Target> target = ResolveTarget(name, pointer);
  if (!target) return;
  ThreeTrackKeys keys = ReadThreeTrackKeys(track, pointer, streamed_, json_);
  if (keys.times.size() > limits_.keys_per_channel) {
    json_.Fail(pointer, fmt::format("{} keys, more than the limit of {}", keys.times.size(),
                                    limits_.keys_per_channel));
  }
  if (keys.times.empty()) {
    json_.Fail(pointer,
               fmt::format("track '{}' has no keys (three.js throws on an empty track)", name));
  }
  if (frame_seconds != 1) {  // KeyframeTrack.scale(1 / fps), in its Float32Array
    for (size_t k = 0; k < keys.times.size(); ++k) {
      const double seconds = keys.times[k] * frame_seconds;
      keys.times[k] = FitsFloat32(seconds) ? static_cast<float>(seconds)
                                           : json_.ToFloat32(seconds, keys.TimePointer(k));
    }
  }
  CheckThreeKeyTimes(keys, name, json_);

  Channel channel;
  channel.node = NodeIndex(target->node);
  channel.path = target->path;
  channel.interpolation = ReadInterpolation(track, type, name, pointer);
  CheckTypeFitsPath(type, *target, channel.interpolation, name, pointer);
  channel.width = ValueWidth(keys, *target, name);
  if (channel.path == Path::kWeights &&
      static_cast<size_t>(channel.width) > limits_.morph_targets) {
    json_.Fail(pointer + "/values",
               fmt::format("track '{}' holds {} morph weights per key, more than the limit of {} "
                           "morph targets",
                           name, channel.width, limits_.morph_targets));
  }
  if (channel.path == Path::kRotation) CheckThreeQuaternionKeys(keys, name, json_);
  channel.times_seconds = std::move(keys.times);
  channel.values = std::move(keys.values);
  if (!target->morph_target.empty()) {
    AddMorphTarget(*target, std::move(channel), name, pointer);
    return;
  }
  if (channel.path == Path::kWeights) {
    ThreeMorphColumns(asset_.rig.nodes[channel.node], static_cast<size_t>(channel.width), {}, name,
                      pointer, json_);
  }
  AddChannel(std::move(channel), name, pointer);
}

std::optional<Target> ClipReader::ResolveTarget(const std::string& name,
                                                const std::string& pointer) {
  ThreeTrackResolution resolved = ResolveThreeTrackTarget(name);
  if (!resolved.refused.empty()) json_.Fail(pointer + "/name", resolved.refused);
  if (!resolved.target) {
    Skip(name, resolved.skipped);
    return std::nullopt;
  }
  if (resolved.target->bone_index) {
    // PropertyBinding looks a bones[...] name up among the skeleton's bone names first, then uses
    // it as an index: without the skinned mesh, which bone index N is cannot be known.
    AddDiagnostic(
        diagnostics_, Severity::kWarning,
        fmt::format("three: track '{}' names skeleton bone {} by index, as three.js binds "
                    "it unless a bone is named '{}': read as a node named '{}' (map it to "
                    "the bone's name with --bone-map)",
                    name, resolved.target->node, resolved.target->node, resolved.target->node));
  }
  return Target{std::move(resolved.target->node), resolved.target->path,
                std::move(resolved.target->morph_target)};
}

Interpolation ClipReader::ReadInterpolation(const json& track, TrackType type,
                                            const std::string& name,
                                            const std::string& pointer) const {
  const json* code_json = Given(track, "interpolation");
  if (!code_json) return Interpolation::kLinear;
  const std::string code_pointer = pointer + "/interpolation";
  if (!code_json->is_number()) {
    json_.Fail(code_pointer,
               fmt::format("expected an interpolation code (2300 discrete, 2301 linear), found {}",
                           code_json->type_name()));
  }
  const double code = code_json->get<double>();
  // `interpolation || DefaultInterpolation`: 0 is the default too.
  if (code == 0 || code == kInterpolateLinear) return Interpolation::kLinear;
  if (code == kInterpolateDiscrete) return Interpolation::kStep;
  if (code == kInterpolateSmooth) {
    // QuaternionKeyframeTrack has no smooth interpolant: three.js itself plays it linear (§1.3).
    if (type == TrackType::kQuaternion) {
      AddDiagnostic(diagnostics_, Severity::kWarning,
                    fmt::format("three: track '{}' has interpolation 2302 (smooth), which "
                                "quaternion tracks lack; read as linear, as three.js plays it",
                                name));
      return Interpolation::kLinear;
    }
    json_.Fail(
        code_pointer,
        fmt::format("track '{}' uses interpolation 2302 (InterpolateSmooth), three.js's own "
                    "spline, which the clip model cannot express; resample it to linear keys "
                    "(e.g. at 30 or 60 fps) and export again",
                    name));
  }
  if (code == kInterpolateBezier) {
    json_.Fail(
        code_pointer,
        fmt::format("track '{}' uses interpolation 2303 (InterpolateBezier) with tangents in "
                    "'settings', which the clip model cannot express; resample it to linear "
                    "keys and export again",
                    name));
  }
  // setInterpolation falls back to the default with a console warning.
  AddDiagnostic(diagnostics_, Severity::kWarning,
                fmt::format("three: track '{}' has the unknown interpolation {}; read as linear, "
                            "as three.js plays it",
                            name, code));
  return Interpolation::kLinear;
}

void ClipReader::CheckTypeFitsPath(TrackType type, const Target& target,
                                   Interpolation interpolation, const std::string& name,
                                   const std::string& pointer) const {
  const bool quaternion = type == TrackType::kQuaternion;
  // A vector track on .quaternion blends components linearly instead of slerping; held keys
  // (discrete) are the same either way.
  if (target.path == Path::kRotation && !quaternion && interpolation != Interpolation::kStep) {
    json_.Fail(
        pointer + "/type",
        fmt::format("track '{}' animates a quaternion with a non-quaternion track, which three.js "
                    "interpolates component-wise; expected type 'quaternion'",
                    name));
  }
  if (target.path != Path::kRotation && quaternion) {
    json_.Fail(
        pointer + "/type",
        fmt::format("track '{}' is a quaternion track on {}; expected type '{}'", name,
                    PathName(target.path), target.path == Path::kWeights ? "number" : "vector"));
  }
}

int ClipReader::ValueWidth(const ThreeTrackKeys& keys, const Target& target,
                           const std::string& name) const {
  const size_t key_count = keys.times.size();
  const std::string values_pointer =
      keys.legacy_keys.empty() ? keys.pointer + "/values" : keys.pointer + "/keys";
  // Value size is implicit: values.length / times.length (three.js r187 AnimationClip.toJSON).
  if (keys.values.empty() || keys.values.size() % key_count != 0) {
    json_.Fail(values_pointer,
               fmt::format("track '{}' has {} values for {} keys; expected a whole number per key",
                           name, keys.values.size(), key_count));
  }
  const size_t width = keys.values.size() / key_count;
  size_t expected = width;
  if (!target.morph_target.empty()) {
    expected = 1;
  } else if (target.path == Path::kRotation) {
    expected = 4;
  } else if (target.path != Path::kWeights) {
    expected = 3;
  }
  // toJSON of a GLTFLoader CUBICSPLINE track keeps the 3x values but drops the interpolation
  // (three.js r187 src/constants.js); a whole morph array's size is unknown, so only vectors can
  // tell.
  if (width == 3 * expected && target.path != Path::kWeights) {
    json_.Fail(
        values_pointer,
        fmt::format("track '{}' has {} values per key where {} needs {}: a glTF CUBICSPLINE "
                    "track that AnimationClip.toJSON wrote without its interpolation (in-tangent, "
                    "value, out-tangent per key), which three.js misreads as "
                    "linear; export the clip sampled to linear keys instead",
                    name, width, PathName(target.path), expected));
  }
  if (width != expected) {
    json_.Fail(values_pointer, fmt::format("track '{}' has {} values per key, expected {} for {}",
                                           name, width, expected, PathName(target.path)));
  }
  return static_cast<int>(width);
}

void ClipReader::AddChannel(Channel channel, const std::string& name, const std::string& pointer) {
  const auto [it, inserted] = animated_.emplace(std::make_pair(channel.node, channel.path), name);
  if (!inserted) {
    json_.Fail(
        pointer + "/name",
        fmt::format("track '{}' animates the same {} of '{}' as track '{}'", name,
                    PathName(channel.path), asset_.rig.nodes[channel.node].name, it->second));
  }
  clip_.channels.push_back(std::move(channel));
}

void ClipReader::AddMorphTarget(const Target& target, Channel channel, const std::string& name,
                                const std::string& pointer) {
  auto [it, first] = morph_groups_.try_emplace(channel.node);
  ThreeMorphGroup& group = it->second;
  if (first) {
    group.slot = clip_.channels.size();
    group.first_track = name;
    group.first_pointer = pointer;
    std::vector<double> values = std::move(channel.values);
    AddChannel(std::move(channel), name, pointer);
    group.names.push_back(target.morph_target);
    group.columns.push_back(std::move(values));
    return;
  }
  const Channel& merged = clip_.channels[group.slot];
  if (merged.times_seconds != channel.times_seconds ||
      merged.interpolation != channel.interpolation) {
    json_.Fail(pointer,
               fmt::format("morph track '{}' has other key times or interpolation than '{}' of "
                           "the same node; per-target morph tracks merge into one weights "
                           "channel only when their keys match (resample them to one grid)",
                           name, group.first_track));
  }
  if (group.names.size() >= limits_.morph_targets) {
    json_.Fail(pointer, fmt::format("track '{}' is morph target {} of its node, more than the "
                                    "limit of {} morph targets",
                                    name, group.names.size() + 1, limits_.morph_targets));
  }
  if (std::find(group.names.begin(), group.names.end(), target.morph_target) != group.names.end()) {
    json_.Fail(pointer + "/name", fmt::format("track '{}' animates morph target '{}' a second time",
                                              name, target.morph_target));
  }
  group.names.push_back(target.morph_target);
  group.columns.push_back(std::move(channel.values));
}

void ClipReader::MergeMorphGroups() {
  for (auto& [node, group] : morph_groups_) {
    MergeThreeMorphGroup(group, asset_.rig.nodes[node], clip_.channels[group.slot], json_);
  }
}

void ClipReader::Skip(const std::string& name, const std::string& why) {
  AddDiagnostic(diagnostics_, Severity::kWarning,
                fmt::format("three: skipped track '{}': {}", name, why));
  skipped_.push_back(name);
}

int ClipReader::NodeIndex(const std::string& name) {
  const auto [it, inserted] = node_index_.emplace(name, static_cast<int>(asset_.rig.nodes.size()));
  if (inserted) {
    Node node;
    node.name = name;
    asset_.rig.nodes.push_back(std::move(node));
  }
  return it->second;
}

Asset ClipReader::Finish() {
  if (!skipped_.empty()) {
    asset_.notes.push_back(
        fmt::format("skipped {} track(s) that are not node transforms or morph weights: {}",
                    skipped_.size(), fmt::join(skipped_, ", ")));
  }
  asset_.coordinates = {Handedness::kRight, facing_.value_or(Facing::kUnknown)};
  if (facing_) {
    asset_.notes.push_back(fmt::format("facing {} from the clip's userData (animconv)",
                                       *facing_ == Facing::kPlusZ ? "+Z" : "-Z"));
  }
  ParentToThreeRoot(asset_.rig);
  // Once every track has its node: the thumbs are told apart by the names of the whole rig.
  TagHumanoidByExactNames(asset_.rig);
  // The nodes are named as the tracks' PropertyBinding found their objects.
  asset_.rig.three_object_names = true;
  return std::move(asset_);
}

// Whether the reader reads the member at `path` (FindClips, ReadClip, ReadTrack and the keys):
// the others are left out of the tree. Keep in step with what they read.
bool IsReadMember(const JsonPath& path) {
  const size_t depth = path.depth();
  const std::string& name = path.steps().back().key;
  // After the clip at steps [0, clip_depth): its members, its tracks', their legacy keys'.
  auto in_clip = [&](size_t clip_depth) {
    if (depth == clip_depth + 1) {
      return IsOneOf(name, {"name", "userData", "blendMode", "fps", "duration", "tracks"});
    }
    if (depth < clip_depth + 3 || !path.Is(clip_depth, "tracks") ||
        !path.Is(clip_depth + 1, nullptr)) {
      return false;
    }
    if (depth == clip_depth + 3) {
      return IsOneOf(name, {"name", "type", "times", "values", "keys", "interpolation"});
    }
    return depth == clip_depth + 5 && path.Is(clip_depth + 2, "keys") &&
           path.Is(clip_depth + 3, nullptr) && IsOneOf(name, {"time", "value"});
  };
  if (depth == 1 && name == "animations") return true;
  return in_clip(0) || (path.Is(0, nullptr) && in_clip(1)) ||
         (path.Is(0, "animations") && path.Is(1, nullptr) && in_clip(2));
}

// Whether the reader certainly refuses the clip `clip` (ReadClip: an object with `tracks`).
bool ClipRefused(const json& clip) { return !clip.is_object() || !clip.contains("tracks"); }

// The parser stops keeping a clip list or a track list at its first element the reader will
// certainly refuse, and a track list at the channel limit (JsonArrayPolicy): a file of a million
// `{}` tracks holds one in memory, not a million (docs/reliability.md, "Limits").
std::optional<JsonArrayPolicy> ThreeArrayPolicy(const JsonPath& path, const std::string& source,
                                                const StructureLimits& limits) {
  const size_t depth = path.depth();
  if (depth == 0 || (depth == 1 && path.Is(0, "animations"))) {  // the clip lists (FindClips)
    JsonArrayPolicy policy;
    policy.refuses = ClipRefused;
    return policy;
  }
  // The clips' `tracks`: of the document, of its elements, or of its `animations`' elements.
  if (!path.Is(depth - 1, "tracks") ||
      !(depth == 1 || (depth == 2 && path.Is(0, nullptr)) ||
        (depth == 3 && path.Is(0, "animations") && path.Is(1, nullptr)))) {
    return std::nullopt;
  }
  JsonArrayPolicy policy;
  policy.keep_at_most = limits.channels;
  policy.refuses = [reader = JsonPointerReader(source), &limits](const json& track) {
    try {
      ReadTrackHead(track, "", reader, limits);
      return false;
    } catch (const Error&) {
      return true;
    }
  };
  return policy;
}

// The clip objects of the three accepted layouts, with their JSON pointers.
std::vector<std::pair<const json*, std::string>> FindClips(const json& document,
                                                           const std::string& source) {
  std::vector<std::pair<const json*, std::string>> clips;
  const json* list = nullptr;
  std::string list_pointer;
  if (document.is_array()) {
    list = &document;  // AnimationLoader
  } else if (document.is_object() && document.contains("tracks")) {
    clips.emplace_back(&document, "");
  } else if (document.is_object() && document.contains("animations")) {
    list = &document["animations"];  // ObjectLoader scene
    list_pointer = "/animations";
    if (!list->is_array()) {
      ThrowBadInput(source, list_pointer,
                    fmt::format("expected an array of clips, found {}", list->type_name()));
    }
  } else {
    ThrowBadInput(source, "",
                  "expected a three.js AnimationClip object (with 'tracks'), an array of them, or "
                  "an ObjectLoader scene with 'animations'");
  }
  if (list) {
    if (list->empty()) {
      ThrowBadInput(source, list_pointer, "expected at least one clip, found none");
    }
    for (size_t c = 0; c < list->size(); ++c) {
      clips.emplace_back(&(*list)[c], fmt::format("{}/{}", list_pointer, c));
    }
  }
  return clips;
}

}  // namespace

Asset ReadThreeJson(std::string_view bytes, const ReadOptions& options) {
  const StreamedJson streamed = ParseJsonStreamingOrThrow(
      bytes, options.source,
      [&](const JsonPath& path) { return MakeThreeTrackSink(path, options.source); }, IsReadMember,
      [&](const JsonPath& path) { return ThreeArrayPolicy(path, options.source, options.limits); });
  ClipReader reader(streamed, options.source, options.diagnostics, options.limits);
  const auto clips = FindClips(streamed.document, options.source);
  for (size_t c = 0; c < clips.size(); ++c) reader.ReadClip(*clips[c].first, clips[c].second, c);
  return reader.Finish();
}

}  // namespace animconv
