#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "animconv/error.h"
#include "animconv/text_pieces.h"
#include "formats/common/writer_support.h"
#include "formats/three/three_clip_uuid.h"
#include "formats/three/three_json.h"
#include "formats/three/three_user_data.h"
#include "libconvert/parallel.h"

namespace animconv {
namespace {

// three.js interpolation codes (src/constants.js, three.js r187 src/constants.js).
constexpr int kInterpolateDiscrete = 2300;
constexpr int kNormalAnimationBlendMode = 2500;

struct TrackKind {
  const char* property;
  const char* type;
};

TrackKind KindOf(Path path) {
  switch (path) {
    case Path::kTranslation:
      return {"position", "vector"};
    case Path::kRotation:
      return {"quaternion", "quaternion"};
    case Path::kScale:
      return {"scale", "vector"};
    case Path::kWeights:
      return {"morphTargetInfluences", "number"};
  }
  return {"", ""};
}

// One track of a clip: the node or mesh object it binds, its channel, and for a per-target morph
// track the property and that target's column of weights.
struct Track {
  const std::string* object_name = nullptr;
  const Channel* channel = nullptr;
  std::string property;        // empty: the path's own property
  std::vector<double> column;  // per-target weights; used when `per_target`
  bool per_target = false;
  size_t times = 0;  // index of its times text (Track texts below)
};

// The texts of a clip's tracks: their times and values arrays as JSON numbers. Channels usually
// share their key times (every bone of a Unity CSV has the same rows), so each distinct times
// array is written once. Number formatting is most of the writer's time, so a large clip's arrays
// are formatted on both cores (libconvert/parallel.h); the tracks are put together in order, so
// the bytes are the same as on one.
struct TrackTexts {
  static constexpr size_t kNotKept = static_cast<size_t>(-1);
  std::vector<std::string> times;
  std::vector<std::string> values;
  std::vector<uint64_t> times_digests;  // DigestArrayText of each, for the clip's uuid
  std::vector<uint64_t> values_digests;
  // Where each times text is kept in the output (TextPieces::Keep), kNotKept until the first
  // track that uses it is appended (AppendTrack moves it there).
  std::vector<size_t> times_kept;
};

// Formats the tracks' arrays and calls append(t) for every track in order, as soon as its arrays
// and those of the tracks before it are formatted (on the thread that finished the last of them;
// one call at a time), so that a streamed output (WriteOptions::piece_sink) is written while the
// later tracks are formatted.
void FormatTracks(std::vector<Track>& tracks, TrackTexts& texts,
                  const std::function<void(size_t)>& append) {
  std::vector<const std::vector<double>*> distinct_times;
  size_t numbers = 0;
  for (Track& track : tracks) {
    const std::vector<double>& times = track.channel->times_seconds;
    if (distinct_times.empty() || *distinct_times.back() != times) distinct_times.push_back(&times);
    track.times = distinct_times.size() - 1;
    numbers +=
        times.size() + (track.per_target ? track.column.size() : track.channel->values.size());
  }
  texts.times.resize(distinct_times.size());
  texts.values.resize(tracks.size());
  texts.times_digests.resize(distinct_times.size());
  texts.values_digests.resize(tracks.size());
  texts.times_kept.assign(distinct_times.size(), TrackTexts::kNotKept);
  // Threads pay off from about a hundred thousand numbers (a few milliseconds of formatting).
  const unsigned threads = numbers >= 100000 ? 0 : 1;
  std::mutex append_mutex;
  std::vector<char> formatted(distinct_times.size() + tracks.size(), 0);
  size_t next_track = 0;
  const auto appended = [&](size_t piece) {
    const std::lock_guard<std::mutex> lock(append_mutex);
    formatted[piece] = 1;
    while (next_track < tracks.size() && formatted[tracks[next_track].times] &&
           formatted[distinct_times.size() + next_track]) {
      append(next_track++);
    }
  };
  ParallelFor(
      distinct_times.size() + tracks.size(),
      [&](size_t piece) {
        // Room for ~10 characters a number up front: a text grown by doubling is copied at every
        // step, and each larger block is fresh memory, first-touched (page faults) again.
        if (piece < distinct_times.size()) {
          const std::vector<double>& times = *distinct_times[piece];
          texts.times[piece].reserve(times.size() * 10 + 16);
          AppendFloatList(texts.times[piece], times.data(), times.size());
          texts.times_digests[piece] = DigestArrayText(texts.times[piece]);
          appended(piece);
          return;
        }
        const size_t t = piece - distinct_times.size();
        const Track& track = tracks[t];
        const std::vector<double>& data = track.per_target ? track.column : track.channel->values;
        texts.values[t].reserve(data.size() * 10 + 16);
        const size_t values_per_key =
            track.per_target ? 1 : track.channel->width * track.channel->elements_per_key();
        AppendFloatListOfKeys(texts.values[t], data.data(), data.size(), values_per_key);
        texts.values_digests[t] = DigestArrayText(texts.values[t]);
        appended(piece);
      },
      threads);
}

// A clip's text as it is written (TextPieces: its arrays are kept, not copied), and its uuid's
// hash of the same bytes.
class ClipText {
 public:
  ClipText(TextPieces& out, size_t clip_index) : out_(out), uuid_(clip_index) {}
  // Small text, made in `text_` (cleared after).
  std::string& text() { return text_; }
  void PutText() {
    out_.Append(text_);
    uuid_.AddText(text_);
    text_.clear();
  }
  // Keeps an array's text in the output (TextPieces::Keep).
  size_t Keep(std::string array) { return out_.Keep(std::move(array)); }
  // An array's text, kept in `out` as `kept`.
  void PutArray(size_t kept, uint64_t digest) {
    PutText();
    out_.AppendKept(kept);
    uuid_.AddArray(digest);
  }
  // An array's text used once: a streamed output frees it once written (TextPieces::AppendOwned).
  void PutOwnedArray(std::string array, uint64_t digest) {
    PutText();
    out_.AppendOwned(std::move(array));
    uuid_.AddArray(digest);
  }
  std::string Uuid() {
    PutText();
    return uuid_.Uuid();
  }

 private:
  TextPieces& out_;
  ClipUuidHash uuid_;
  std::string text_;
};

// Appends track `t`; its arrays move into the output (a times array at its first track, to be
// appended again by the tracks that share it).
void AppendTrack(ClipText& clip, const Track& track, TrackTexts& texts, size_t t) {
  if (texts.times_kept[track.times] == TrackTexts::kNotKept) {
    texts.times_kept[track.times] = clip.Keep(std::move(texts.times[track.times]));
  }
  const bool first_track = t == 0;
  const Channel& channel = *track.channel;
  const TrackKind kind = KindOf(channel.path);
  std::string& out = clip.text();
  out += first_track ? "\n" : ",\n";
  out += "{\"name\":";
  AppendJsonString(
      out, *track.object_name + "." + (track.property.empty() ? kind.property : track.property));
  out += ",\"times\":[";
  clip.PutArray(texts.times_kept[track.times], texts.times_digests[track.times]);
  out += "],\"values\":[";
  clip.PutOwnedArray(std::move(texts.values[t]), texts.values_digests[t]);
  out += ']';
  // Written only when not the track type's default (linear), like toJSON.
  if (channel.interpolation == Interpolation::kStep) {
    out += fmt::format(",\"interpolation\":{}", kInterpolateDiscrete);
  }
  out += ",\"type\":\"";
  out += kind.type;
  out += "\"}";
}

// The name a per-target track addresses: the target's name, which three.js looks up in
// morphTargetDictionary, or its index where the mesh has no names. A name the dictionary cannot
// find the target by is replaced by the index, which PropertyBinding uses as it is when no name
// matches it (three.js r187 PropertyBinding.bind): an empty name or one with a line break (which
// parseTrackName's '.+' does not match: the mixer threw on the clip) and a name two targets share
// (the dictionary keeps the last: both tracks bound it, review of session 35).
std::string MorphTargetKey(const Node& node, size_t target) {
  const std::vector<std::string>& names = node.morph_target_names;
  if (names.empty()) return std::to_string(target);
  const std::string& name = names[target];
  // A bracket accessor may hold anything but ']' (PropertyBinding, three.js r187
  // PropertyBinding.parseTrackName).
  if (name.find(']') != std::string::npos) {
    ThrowUsage(
        fmt::format("three: morph target '{}' of '{}' contains ']', which a per-target "
                    "track name cannot hold; use the default morph track layout",
                    name, node.name));
  }
  const bool unparsable = name.empty() || HasLineTerminator(name);
  const bool shared = std::count(names.begin(), names.end(), name) > 1;
  if (!unparsable && !shared) return name;
  const std::string index = std::to_string(target);
  // The index is a name of the dictionary when a target is called so, or unknown when the names
  // are those of the animated targets only (a three.js clip's per-target tracks).
  if (node.morph_targets_partial || std::count(names.begin(), names.end(), index) > 0) {
    ThrowUsage(fmt::format(
        "three: morph target {} of '{}' is named '{}', by which three.js cannot find it{}; use "
        "the default morph track layout",
        target, node.name, name,
        node.morph_targets_partial ? "" : ", and another target is named by its index"));
  }
  return index;
}

// Whether node `node`'s weights are written one track per target (ThreeMorphTracks).
bool MorphPerTarget(const Node& node, ThreeMorphTracks layout) {
  if (layout == ThreeMorphTracks::kPerTarget) return true;
  if (!node.morph_targets_partial) return false;
  if (layout == ThreeMorphTracks::kAll) {
    ThrowUsage(fmt::format(
        "three: --morph-tracks all: the input names only the morph targets of '{}' it animates "
        "({}), not its mesh's whole list, so one track of every target would put them on the "
        "wrong targets; use --morph-tracks auto or per-target",
        node.name, fmt::join(node.morph_target_names, ", ")));
  }
  return true;
}

void AppendClip(TextPieces& pieces, const Asset& asset, const Clip& clip, size_t clip_index,
                const ThreeObjectNames& names, ThreeMorphTracks morph_layout) {
  RequireInterpolation(asset, clip, "three", true);
  ClipText text(pieces, clip_index);
  std::string& out = text.text();
  // Key order as AnimationClip.toJSON writes it (three.js r187 AnimationClip.toJSON).
  out += "{\"name\":";
  AppendJsonString(out, clip.name);
  out += ",\"duration\":";
  AppendDouble(out, clip.duration());
  out += ",\"tracks\":[";
  std::vector<Track> tracks;
  for (const Channel& channel : clip.channels) {
    const size_t node = static_cast<size_t>(channel.node);
    // An empty name binds the mixer's root: right for a node a three.js track named so.
    if (names.nodes[node].empty() && !asset.rig.three_object_names) {
      ThrowUsage(fmt::format(
          "three: node '{}' has no name three.js can bind (its sanitised name is empty)",
          asset.rig.nodes[node].name));
    }
    RequireFloat32Increasing(asset, clip, channel, "three");
    // Weights drive every mesh object of the node: GLTFLoader makes one object per primitive and
    // one track for each (three.js r187 PropertyBinding.parseTrackName).
    if (channel.path == Path::kWeights && MorphPerTarget(asset.rig.nodes[node], morph_layout)) {
      const size_t width = static_cast<size_t>(channel.width);
      for (size_t target = 0; target < width; ++target) {
        std::vector<double> column;
        for (size_t k = 0; k < channel.key_count(); ++k) {
          column.push_back(channel.key_value(k)[target]);
        }
        const std::string property =
            fmt::format("morphTargetInfluences[{}]", MorphTargetKey(asset.rig.nodes[node], target));
        for (const std::string& object : names.morph_objects[node]) {
          tracks.push_back({&object, &channel, property, column, true, 0});
        }
      }
    } else if (channel.path == Path::kWeights) {
      for (const std::string& object : names.morph_objects[node]) {
        tracks.push_back({&object, &channel, "", {}, false, 0});
      }
    } else {
      tracks.push_back({&names.nodes[node], &channel, "", {}, false, 0});
    }
  }
  TrackTexts texts;
  FormatTracks(tracks, texts, [&](size_t t) { AppendTrack(text, tracks[t], texts, t); });
  out += "],\"uuid\":\"";
  const std::string uuid = text.Uuid();  // of the text so far (up to here: PutText)
  out += uuid;
  // userData must be a JSON *string*: r180+ runs JSON.parse on it (three.js r187
  // AnimationClip.parse). It records the facing, which the format has no place for, so that the
  // clip reads back facing the same way (docs/formats/threejs.md).
  out += fmt::format("\",\"blendMode\":{},\"userData\":", kNormalAnimationBlendMode);
  AppendJsonString(out, ThreeUserDataText(asset.coordinates));
  out += '}';
  pieces.Append(out);
}

}  // namespace

TextPieces WriteThreeJsonPieces(const Asset& asset, const WriteOptions& options) {
  // The clips first: only the nodes they animate need their names warned about.
  std::vector<const Clip*> clips;
  if (!options.three_array) {
    clips.push_back(&SingleClip(asset, "three (without --three-array)"));
  } else {
    if (asset.clips.empty()) ThrowUsage("three: the input has no animation clip");
    for (const Clip& clip : asset.clips) clips.push_back(&clip);
  }
  const ThreeObjectNames node_names = ThreeNodeNames(asset.rig, options.diagnostics, clips);
  TextPieces out;
  out.StreamTo(options.piece_sink);
  if (!options.three_array) {
    AppendClip(out, asset, *clips[0], 0, node_names, options.three_morph_tracks);
  } else {
    out.Append('[');
    for (size_t c = 0; c < clips.size(); ++c) {
      if (c > 0) out.Append(",\n");
      AppendClip(out, asset, *clips[c], c, node_names, options.three_morph_tracks);
    }
    out.Append(']');
  }
  out.Append('\n');
  return out;
}

std::string WriteThreeJson(const Asset& asset, const WriteOptions& options) {
  return WriteThreeJsonPieces(asset, options).Joined();
}

}  // namespace animconv
