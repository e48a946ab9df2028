// Helpers shared by writers.
#pragma once

#include <string>
#include <string_view>

#include "animconv/model.h"

namespace animconv {

// The asset's only clip; an Error(kUsage) naming the format when there are none or several.
const Clip& SingleClip(const Asset& asset, std::string_view format_id);

// Throws Error(kUsage) when a channel uses an interpolation the format cannot express.
void RequireInterpolation(const Asset& asset, const Clip& clip, std::string_view format_id,
                          bool allow_step);

// Appends `text` as a JSON string literal (quotes included, control characters escaped).
// Refuses (a usage error naming the keys, `format_id`'s) two keys of `channel` whose times, times
// `time_scale`, are equal once rounded to float32: three.js keeps times in a Float32Array, and the
// glTF validator checks the stored float32 values (ACCESSOR_ANIMATION_INPUT_NON_INCREASING,
// glTF 2.0 "Animations").
void RequireFloat32Increasing(const Asset& asset, const Clip& clip, const Channel& channel,
                              std::string_view format_id, double time_scale = 1);

void AppendJsonString(std::string& out, std::string_view text);
// Appends the shortest text that reads back as the same float32 / double.
void AppendFloat(std::string& out, double value);
// Appends `count` values as float32 shortest text separated by commas (no brackets).
void AppendFloatList(std::string& out, const double* values, size_t count);
// The same text for the values of keys, `values_per_key` numbers each (a channel's values: 4 for a
// rotation, 12 for a cubic one), formatted faster where a value repeats its previous key's. Up to
// kMaxRepeatSlots values a key; any other count is formatted as AppendFloatList does.
constexpr size_t kMaxRepeatSlots = 16;
void AppendFloatListOfKeys(std::string& out, const double* values, size_t count,
                           size_t values_per_key);
void AppendDouble(std::string& out, double value);

}  // namespace animconv
