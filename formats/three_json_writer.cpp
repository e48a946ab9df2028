#include <fmt/format.h>

#include <random>

#include "formats/three_json.h"
#include "formats/writer_support.h"
#include "libconvert/error.h"
#include "libconvert/memory.h"

namespace animconv {
namespace {

// three.js interpolation codes (src/constants.js, formats.md §1.4).
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

// Like three.js MathUtils.generateUUID: a random version-4 UUID in lower case. A fresh one per
// clip, because ObjectLoader keys clips by uuid (formats.md §1.2).
std::string RandomUuid() {
  static std::mt19937_64 generator{std::random_device{}()};
  const uint64_t high = (generator() & 0xFFFFFFFFFFFF0FFFull) | 0x0000000000004000ull;
  const uint64_t low = (generator() & 0x3FFFFFFFFFFFFFFFull) | 0x8000000000000000ull;
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", high >> 32, (high >> 16) & 0xFFFF,
                     high & 0xFFFF, low >> 48, low & 0xFFFFFFFFFFFFull);
}

// three.js keeps times in a Float32Array: keys that collide after rounding would be equal there.
void RequireFloat32Increasing(const Asset& asset, const Clip& clip, const Channel& channel) {
  for (size_t k = 1; k < channel.key_count(); ++k) {
    if (static_cast<float>(channel.times_seconds[k]) <=
        static_cast<float>(channel.times_seconds[k - 1])) {
      ThrowUsage(fmt::format(
          "three: keys {} and {} of {} of '{}' in clip '{}' are {} s apart, closer than float32 "
          "time can tell apart; resample the clip",
          k - 1, k, PathName(channel.path), asset.rig.nodes[channel.node].name, clip.name,
          channel.times_seconds[k] - channel.times_seconds[k - 1]));
    }
  }
}

void AppendClip(std::string& out, const Asset& asset, const Clip& clip,
                const std::vector<std::string>& node_names) {
  RequireInterpolation(asset, clip, "three", true);
  // Key order as AnimationClip.toJSON writes it (formats.md §1.1).
  out += "{\"name\":";
  AppendJsonString(out, clip.name);
  out += ",\"duration\":";
  AppendDouble(out, clip.duration());
  out += ",\"tracks\":[";
  bool first_track = true;
  for (const Channel& channel : clip.channels) {
    const std::string& node_name = node_names[channel.node];
    if (node_name.empty()) {
      ThrowUsage(
          fmt::format("three: node {} has no name three.js can bind (its sanitised name is empty)",
                      channel.node));
    }
    RequireFloat32Increasing(asset, clip, channel);
    const TrackKind kind = KindOf(channel.path);
    out += first_track ? "\n" : ",\n";
    first_track = false;
    out += "{\"name\":";
    AppendJsonString(out, node_name + "." + kind.property);
    out += ",\"times\":[";
    AppendFloatList(out, channel.times_seconds.data(), channel.times_seconds.size());
    out += "],\"values\":[";
    AppendFloatList(out, channel.values.data(), channel.values.size());
    out += ']';
    // Written only when not the track type's default (linear), like toJSON.
    if (channel.interpolation == Interpolation::kStep) {
      out += fmt::format(",\"interpolation\":{}", kInterpolateDiscrete);
    }
    out += ",\"type\":\"";
    out += kind.type;
    out += "\"}";
  }
  out += "],\"uuid\":\"";
  out += RandomUuid();
  // userData must be a JSON *string*: r180+ runs JSON.parse on it (formats.md §1.2).
  out += fmt::format("\",\"blendMode\":{},\"userData\":\"{{}}\"}}", kNormalAnimationBlendMode);
}

size_t CountNumbers(const Asset& asset) {
  size_t numbers = 0;
  for (const Clip& clip : asset.clips) {
    for (const Channel& channel : clip.channels) {
      numbers += channel.times_seconds.size() + channel.values.size();
    }
  }
  return numbers;
}

}  // namespace

std::string WriteThreeJson(const Asset& asset, const WriteOptions& options) {
  const std::vector<std::string> node_names = ThreeNodeNames(asset.rig);
  // Room for the worst case (16 chars per number, AppendFloatList's bound) so the buffer never
  // moves, but only the ~11 chars a typical number takes are mapped ahead of time.
  const size_t numbers = CountNumbers(asset);
  std::string out;
  out.reserve(numbers * 16 + 4096);
  PrefaultForWriting(out.data(), numbers * 11);
  if (!options.three_array) {
    AppendClip(out, asset, SingleClip(asset, "three (without --three-array)"), node_names);
  } else {
    if (asset.clips.empty()) ThrowUsage("three: the input has no animation clip");
    out += '[';
    for (size_t c = 0; c < asset.clips.size(); ++c) {
      if (c > 0) out += ",\n";
      AppendClip(out, asset, asset.clips[c], node_names);
    }
    out += ']';
  }
  out += '\n';
  return out;
}

}  // namespace animconv
