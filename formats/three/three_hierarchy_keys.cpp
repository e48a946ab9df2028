#include "formats/three/three_hierarchy_keys.h"

#include <fmt/format.h>

#include "animconv/quaternion.h"

namespace animconv {

using nlohmann::json;

void ReadThreeNumbers(const JsonPointerReader& reader, const nlohmann::json& value, size_t count,
                      const std::string& pointer, double* out) {
  if (!value.is_array() || value.size() != count) {
    reader.Fail(pointer, fmt::format("expected an array of {} numbers, found {}", count,
                                     value.is_array() ? fmt::format("{} elements", value.size())
                                                      : std::string(value.type_name())));
  }
  for (size_t i = 0; i < count; ++i) {
    out[i] = reader.RequireNumber(value[i], fmt::format("{}/{}", pointer, i));
  }
}

void ThreeHierarchyKeysSink::Element(json&& key) {
  const size_t k = size() - 1;
  key_failure_.Run([&] {
    if (!key.is_object()) {
      json_.Fail(
          fmt::format("{}/{}", pointer_, k),
          fmt::format("expected a key object {{time, pos, rot, scl}}, found {}", key.type_name()));
    }
    // three.js <= r184 AnimationClip.parseAnimation takes its morph branch, which indexes past
    // the keys and throws, only for a track whose first key has morphTargets; on a later key the
    // member is not looked at, and neither is it here.
    if (k == 0 && key.contains("morphTargets")) {
      json_.Fail(
          fmt::format("{}/{}/morphTargets", pointer_, k),
          "morph target keys are not supported: three.js's own parseAnimation throws on them "
          "when a track's first key has them");
    }
  });
  if (key_failure_.failed()) return;  // reported before anything the properties could say
  for (size_t p = 0; p < channels_.size(); ++p) {
    property_failures_[p].Run([&] { ReadProperty(key, k, kThreeKeyProperties[p], channels_[p]); });
  }
}

void ThreeHierarchyKeysSink::End() {
  for (Channel& channel : channels_) {  // no growth slack kept: files hold many keys
    channel.times_seconds.shrink_to_fit();
    channel.values.shrink_to_fit();
  }
}

std::vector<Channel> ThreeHierarchyKeysSink::Take(int node) {
  key_failure_.RethrowIfFailed();
  for (const DeferredFailure& failure : property_failures_) failure.RethrowIfFailed();
  std::vector<Channel> channels;
  for (size_t p = 0; p < channels_.size(); ++p) {
    Channel& channel = channels_[p];
    if (channel.times_seconds.empty()) continue;
    channel.node = node;
    channel.path = kThreeKeyProperties[p].path;
    channel.width = static_cast<int>(kThreeKeyProperties[p].width);
    channels.push_back(std::move(channel));
  }
  return channels;
}

// Key `k`'s time and value of `property`, if it has that property.
void ThreeHierarchyKeysSink::ReadProperty(const json& key, size_t k,
                                          const ThreeKeyProperty& property,
                                          Channel& channel) const {
  const json* value = Given(key, property.key);
  if (!value) return;
  const double time = ReadKeyTime(key, property, k);
  if (time < 0 || (!channel.times_seconds.empty() && time <= channel.times_seconds.back())) {
    json_.Fail(fmt::format("{}/{}/time", pointer_, k),
               fmt::format("'{}' key at {} s: expected times >= 0 and after the previous '{}' "
                           "key's",
                           property.key, time, property.key));
  }
  channel.times_seconds.push_back(time);
  channel.values.resize(channel.values.size() + property.width);
  double* numbers = channel.values.data() + channel.values.size() - property.width;
  ReadKeyValue(*value, property, k, numbers);
  if (property.path == Path::kRotation && Length(LoadQuat(numbers)) == 0) {
    json_.Fail(fmt::format("{}/{}/rot", pointer_, k), "the zero quaternion is no rotation");
  }
}

// The fast paths below format no pointer: files hold many keys.
double ThreeHierarchyKeysSink::ReadKeyTime(const json& key, const ThreeKeyProperty& property,
                                           size_t k) const {
  const json* time = Given(key, "time");
  if (time && time->is_number() && FitsFloat32(time->get<double>())) {
    return static_cast<float>(time->get<double>());
  }
  const std::string key_pointer = fmt::format("{}/{}", pointer_, k);
  if (!time) json_.Fail(key_pointer, fmt::format("a key with '{}' needs a 'time'", property.key));
  return json_.ToFloat32(json_.RequireNumber(*time, key_pointer + "/time"), key_pointer + "/time");
}

void ThreeHierarchyKeysSink::ReadKeyValue(const json& value, const ThreeKeyProperty& property,
                                          size_t k, double* out) const {
  if (value.is_array() && value.size() == property.width) {
    size_t i = 0;
    for (; i < property.width && value[i].is_number(); ++i) {
      const double number = value[i].get<double>();
      if (!FitsFloat32(number)) break;
      out[i] = static_cast<float>(number);
    }
    if (i == property.width) return;
  }
  const std::string pointer = fmt::format("{}/{}/{}", pointer_, k, property.key);
  ReadThreeNumbers(json_, value, property.width, pointer, out);
  for (size_t i = 0; i < property.width; ++i) {
    out[i] = json_.ToFloat32(out[i], fmt::format("{}/{}", pointer, i));
  }
}

void ThreeHierarchyEntriesSink::Element(nlohmann::json&& entry) {
  // The reader checks the count before any entry: past the limit, none is read.
  if (size() >= limit_) StopWanting();
  if (size() > limit_) return;
  if (entry.is_object() && entry.empty()) return;
  if (!entry.is_object()) StopWanting();
  entries_.push_back({size() - 1, std::move(entry)});
}

}  // namespace animconv
