#include "formats/three/three_json_keys.h"

#include <fmt/format.h>

#include "animconv/error.h"
#include "animconv/quaternion.h"

namespace animconv {

using nlohmann::json;

std::string ThreeTrackKeys::TimePointer(size_t key) const {
  return legacy_keys.empty() ? fmt::format("{}/times/{}", pointer, key)
                             : fmt::format("{}/keys/{}/time", pointer, legacy_keys[key]);
}

std::string ThreeTrackKeys::ValuePointer(size_t key, size_t width) const {
  return legacy_keys.empty() ? fmt::format("{}/values/{}", pointer, key * width)
                             : fmt::format("{}/keys/{}/value", pointer, legacy_keys[key]);
}

std::unique_ptr<JsonElementSink> MakeThreeTrackSink(const JsonPath& path,
                                                    const std::string& source) {
  const size_t depth = path.depth();
  if (depth < 3 || !path.Is(depth - 2, nullptr) || !path.Is(depth - 3, "tracks")) return nullptr;
  // The clips: the document, its elements, or its `animations`' elements.
  if (!(depth == 3 || (depth == 4 && path.Is(0, nullptr)) ||
        (depth == 5 && path.Is(0, "animations") && path.Is(1, nullptr)))) {
    return nullptr;
  }
  if (path.Is(depth - 1, "times") || path.Is(depth - 1, "values")) {
    return std::make_unique<Float32ArraySink>();
  }
  if (path.Is(depth - 1, "keys")) {
    std::string pointer = path.Pointer();
    pointer.resize(pointer.size() - std::string("/keys").size());
    return std::make_unique<ThreeLegacyKeysSink>(source, std::move(pointer));
  }
  return nullptr;
}

namespace {

// The sink of a key array at `pointer`: every array there was streamed, so any other value is
// refused as RequireArray refuses it.
template <typename Sink>
Sink& StreamedArray(const json& value, const std::string& pointer, const StreamedJson& streamed,
                    const JsonPointerReader& reader) {
  Sink* sink = streamed.SinkOf<Sink>(value);
  if (!sink) {
    reader.RequireArray(value, pointer);
    ThrowInternal("three: a track's key array was not streamed");
  }
  return *sink;
}

}  // namespace

ThreeTrackKeys ReadThreeTrackKeys(const json& track, const std::string& pointer,
                                  const StreamedJson& streamed, const JsonPointerReader& reader) {
  // parseKeyframeTrack falls back to the pre-r74 `keys` form only when `times` is undefined.
  if (!track.contains("times")) {
    return StreamedArray<ThreeLegacyKeysSink>(reader.Require(track, "keys", pointer),
                                              pointer + "/keys", streamed, reader)
        .Take();
  }
  const std::string times_pointer = pointer + "/times";
  const std::string values_pointer = pointer + "/values";
  Float32ArraySink& times =
      StreamedArray<Float32ArraySink>(*track.find("times"), times_pointer, streamed, reader);
  Float32ArraySink& values = StreamedArray<Float32ArraySink>(
      reader.Require(track, "values", pointer), values_pointer, streamed, reader);
  ThreeTrackKeys keys;
  keys.pointer = pointer;
  keys.times = times.Take(times_pointer, reader);
  keys.values = values.Take(values_pointer, reader);
  return keys;
}

void ThreeLegacyKeysSink::Element(json&& key) {
  failure_.Run([&] { Read(key, size() - 1); });
}

ThreeTrackKeys ThreeLegacyKeysSink::Take() {
  failure_.RethrowIfFailed();
  keys_.times.shrink_to_fit();
  keys_.values.shrink_to_fit();
  return std::move(keys_);
}

void ThreeLegacyKeysSink::Read(const json& key, size_t k) {
  const std::string key_pointer = fmt::format("{}/keys/{}", keys_.pointer, k);
  if (!key.is_object()) {
    json_.Fail(key_pointer,
               fmt::format("expected a key object {{time, value}}, found {}", key.type_name()));
  }
  const auto value = key.find("value");
  if (value == key.end()) return;
  const std::string time_pointer = key_pointer + "/time";
  keys_.times.push_back(json_.ToFloat32(
      json_.RequireNumber(json_.Require(key, "time", key_pointer), time_pointer), time_pointer));
  const size_t size = value->is_array() ? value->size() : 1;
  if (value_size_ && size != *value_size_) {
    json_.Fail(
        key_pointer + "/value",
        fmt::format("{} numbers, expected {} like the track's first key", size, *value_size_));
  }
  value_size_ = size;
  if (value->is_array()) {
    for (size_t i = 0; i < value->size(); ++i) {
      keys_.values.push_back(json_.Float32At(*value, i, key_pointer + "/value"));
    }
  } else {
    keys_.values.push_back(json_.ToFloat32(json_.RequireNumber(*value, key_pointer + "/value"),
                                           key_pointer + "/value"));
  }
  keys_.legacy_keys.push_back(k);
}

void CheckThreeKeyTimes(const ThreeTrackKeys& keys, const std::string& name,
                        const JsonPointerReader& reader) {
  for (size_t k = 0; k < keys.times.size(); ++k) {
    const double time = keys.times[k];
    if (time < 0) {
      reader.Fail(
          keys.TimePointer(k),
          fmt::format("key {} of track '{}' is at {} s; expected times >= 0", k, name, time));
    }
    // three.js's validate() lets equal times pass (three.js r187 AnimationClip.parse); the clip
    // model does not.
    if (k > 0 && time <= keys.times[k - 1]) {
      reader.Fail(keys.TimePointer(k),
                  fmt::format("key {} of track '{}' is at {} s, not after key {} at {} s; expected "
                              "strictly increasing times",
                              k, name, time, k - 1, keys.times[k - 1]));
    }
  }
}

void CheckThreeQuaternionKeys(const ThreeTrackKeys& keys, const std::string& name,
                              const JsonPointerReader& reader) {
  for (size_t k = 0; k < keys.times.size(); ++k) {
    if (Length(LoadQuat(&keys.values[k * 4])) == 0) {
      reader.Fail(keys.ValuePointer(k, 4),
                  fmt::format("key {} of track '{}' is the zero quaternion, which is no rotation",
                              k, name));
    }
  }
}

}  // namespace animconv
