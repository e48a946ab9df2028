#include "web/src/option_json.h"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>

#include "animconv/error.h"

namespace animconv::web {
namespace {

using nlohmann::json;

// A value of the wrong JSON type, in the words Boost.Program_options uses for one it cannot read.
[[noreturn]] void ThrowInvalid(const std::string& name, const json& value) {
  const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (text.empty()) ThrowUsage(fmt::format("the argument for option '--{}' is invalid", name));
  ThrowUsage(fmt::format("the argument ('{}') for option '--{}' is invalid", text, name));
}

// The option's value as text, the way the CLI receives it (for --max-* limits, checked as text).
std::string Text(const std::string& name, const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_unsigned()) return std::to_string(value.get<uint64_t>());
  if (value.is_number_integer()) return std::to_string(value.get<int64_t>());
  ThrowInvalid(name, value);
}

double Number(const std::string& name, const json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) return ParseRealText(name, value.get<std::string>());
  ThrowInvalid(name, value);
}

int Integer(const std::string& name, const json& value) {
  if (value.is_number_integer()) return value.get<int>();
  if (value.is_string()) {
    return static_cast<int>(ParseIntegerText(name, value.get<std::string>(),
                                             std::numeric_limits<int>::min(),
                                             std::numeric_limits<int>::max()));
  }
  ThrowInvalid(name, value);
}

bool Switch(const std::string& name, const json& value) {
  if (value.is_boolean()) return value.get<bool>();
  ThrowInvalid(name, value);
}

using Setter = std::function<void(const std::string& name, const json& value, OptionValues*)>;

Setter String(std::string InputOptionValues::*field) {
  return [field](const std::string& name, const json& value, OptionValues* out) {
    if (!value.is_string()) {
      ThrowInvalid(name, value);
    }
    out->input.*field = value.get<std::string>();
  };
}
Setter String(std::string ConvertOptionValues::*field) {
  return [field](const std::string& name, const json& value, OptionValues* out) {
    if (!value.is_string()) {
      ThrowInvalid(name, value);
    }
    out->convert.*field = value.get<std::string>();
  };
}
Setter Double(double InputOptionValues::*field) {
  return [field](const std::string& name, const json& value, OptionValues* out) {
    out->input.*field = Number(name, value);
  };
}
Setter Double(double ConvertOptionValues::*field) {
  return [field](const std::string& name, const json& value, OptionValues* out) {
    out->convert.*field = Number(name, value);
  };
}
Setter Double(double ReduceOptions::*field) {
  return [field](const std::string& name, const json& value, OptionValues* out) {
    out->convert.reduction.*field = Number(name, value);
  };
}
Setter String(std::string DiffOptionValues::*field) {
  return [field](const std::string& name, const json& value, OptionValues* out) {
    if (!value.is_string()) {
      ThrowInvalid(name, value);
    }
    out->diff.*field = value.get<std::string>();
  };
}
Setter Double(double DiffOptionValues::*field) {
  return [field](const std::string& name, const json& value, OptionValues* out) {
    out->diff.*field = Number(name, value);
  };
}
Setter Flag(bool ConvertOptionValues::*field) {
  return [field](const std::string& name, const json& value, OptionValues* out) {
    out->convert.*field = Switch(name, value);
  };
}

const std::map<std::string, Setter>& InputSetters() {
  static const std::map<std::string, Setter> setters = [] {
    std::map<std::string, Setter> table = {
        {"from", String(&InputOptionValues::from)},
        {"bones", String(&InputOptionValues::bones_file)},
        {"interval", Double(&InputOptionValues::interval_seconds)},
        {"fps", Double(&InputOptionValues::fps)},
        {"scale", Double(&InputOptionValues::scale)},
        {"max-input-mb",
         [](const std::string& name, const json& value, OptionValues* out) {
           if (value.is_string()) {
             out->input.max_input_mb = ParseUnsignedText(name, value.get<std::string>());
             return;
           }
           // A whole number not below 0 (JSON text reads 10 as unsigned, a C++ literal as signed).
           if (!value.is_number_integer() || value.get<int64_t>() < 0) {
             if (!value.is_number_unsigned()) ThrowInvalid(name, value);
           }
           out->input.max_input_mb = value.get<uint64_t>();
         }},
    };
    const std::vector<LimitOption>& limits = LimitOptions();
    for (size_t i = 0; i < limits.size(); ++i) {
      table[limits[i].name] = [i](const std::string& name, const json& value, OptionValues* out) {
        out->input.limits[i] = Text(name, value);
      };
    }
    return table;
  }();
  return setters;
}

const std::map<std::string, Setter>& ConvertSetters() {
  using V = ConvertOptionValues;
  static const std::map<std::string, Setter> setters = {
      {"mirror", String(&V::mirror)},
      {"source-rig", String(&V::source_rig)},
      {"skeleton", String(&V::skeleton)},
      {"source-facing", String(&V::source_facing)},
      {"bone-map", String(&V::bone_map)},
      {"expression-map", String(&V::expression_map)},
      {"bone-names", String(&V::bone_names)},
      {"clip",
       [](const std::string& name, const json& value, OptionValues* out) {
         out->convert.clip = Text(name, value);  // a name or a 0-based index, as on the CLI
       }},
      {"time-unit", String(&V::time_unit)},
      {"morph-tracks", String(&V::morph_tracks)},
      {"bvh-order", String(&V::bvh_order)},
      {"root-motion", String(&V::root_motion)},
      {"root-yaw", Flag(&V::root_yaw)},
      {"hips-scale", String(&V::hips_scale)},
      {"ground", Flag(&V::ground)},
      {"precision", [](const std::string& name, const json& value,
                       OptionValues* out) { out->convert.precision = Integer(name, value); }},
      {"three-array", Flag(&V::three_array)},
      {"allow-partial", Flag(&V::allow_partial)},
      {"trim", String(&V::trim)},
      {"speed", Double(&V::speed)},
      {"offset", Double(&V::offset_seconds)},
      {"resample", Double(&V::resample_fps)},
      {"interpolation", String(&V::interpolation)},
      {"loop", Flag(&V::loop)},
      {"loop-blend", Double(&V::loop_blend)},
      {"reduce", Flag(&V::reduce)},
      {"compress", Flag(&V::compress)},
      {"compress-without-meshopt", Flag(&V::compress_without_meshopt)},
      {"compress-keep-vertices", Flag(&V::compress_keep_vertices)},
      {"compress-keep-key-times", Flag(&V::compress_keep_key_times)},
      {"compress-meshes", Flag(&V::compress_meshes)},
      {"drop-unused-attributes", Flag(&V::drop_unused_attributes)},
      {"mesh-tolerance", Double(&V::mesh_tolerance)},
      {"reduce-rotation", Double(&ReduceOptions::rotation_degrees)},
      {"reduce-translation", Double(&ReduceOptions::translation_metres)},
      {"reduce-scale", Double(&ReduceOptions::scale_ratio)},
      {"reduce-weight", Double(&ReduceOptions::weight)},
      // --reduce-hierarchical alone means 0.1 m (the CLI's implicit value).
      {"reduce-hierarchical",
       [](const std::string& name, const json& value, OptionValues* out) {
         out->convert.hierarchical_distance =
             value.is_boolean() && value.get<bool>() ? 0.1 : Number(name, value);
       }},
      {"reduce-keep-rest",
       [](const std::string& name, const json& value, OptionValues*) {
         if (!Switch(name, value)) ThrowInternal("false switches are dropped before setters");
       }},
  };
  return setters;
}

// A clip is a name or a 0-based index, as on the CLI.
Setter Clip(std::string DiffOptionValues::*field) {
  return [field](const std::string& name, const json& value, OptionValues* out) {
    out->diff.*field = Text(name, value);
  };
}

const std::map<std::string, Setter>& DiffSetters() {
  using V = DiffOptionValues;
  static const std::map<std::string, Setter> setters = {
      {"clip", Clip(&V::clip_a)},
      {"clip-b", Clip(&V::clip_b)},
      {"mirror", String(&V::mirror)},
      {"space", String(&V::space)},
      {"hierarchical", Double(&V::hierarchical)},
      {"samples-between",
       [](const std::string& name, const json& value, OptionValues* out) {
         out->diff.samples_between = Integer(name, value);
       }},
      {"cubic-chord-fraction", Double(&V::cubic_chord_fraction)},
  };
  return setters;
}

// bake's own; its --max-input-mb and limits are the input ones, copied over by ReadOptionJson.
const std::map<std::string, Setter>& BakeSetters() {
  static const std::map<std::string, Setter> setters = {
      {"clip", [](const std::string& name, const json& value,
                  OptionValues* out) { out->bake.clip = Text(name, value); }},
      {"node",
       [](const std::string& name, const json& value, OptionValues* out) {
         if (!value.is_string()) ThrowInvalid(name, value);
         out->bake.node = value.get<std::string>();
       }},
      {"fps", [](const std::string& name, const json& value,
                 OptionValues* out) { out->bake.fps = Number(name, value); }},
  };
  return setters;
}

bool IsLimitOption(const std::string& name) {
  for (const LimitOption& limit : LimitOptions()) {
    if (name == limit.name) return true;
  }
  return name == "max-input-mb";
}

const Setter* FindSetter(const std::string& name, OptionSet set) {
  const auto in = [&name](const std::map<std::string, Setter>& table) -> const Setter* {
    const auto found = table.find(name);
    return found == table.end() ? nullptr : &found->second;
  };
  if (set == OptionSet::kBake) {
    if (const Setter* bake = in(BakeSetters())) return bake;
    return IsLimitOption(name) ? in(InputSetters()) : nullptr;
  }
  if (const Setter* input = in(InputSetters())) return input;
  switch (set) {
    case OptionSet::kConvert:
      return in(ConvertSetters());
    case OptionSet::kInfo:
      return name == "bone-map" ? in(ConvertSetters()) : nullptr;
    case OptionSet::kDiff:
      return in(DiffSetters());
    case OptionSet::kBake:
      break;
  }
  return nullptr;
}

}  // namespace

OptionValues ReadOptionJson(const json& options, OptionSet set) {
  OptionValues values;
  values.input.limits.assign(LimitOptions().size(), std::string());
  const StructureLimits defaults;
  for (size_t i = 0; i < LimitOptions().size(); ++i) {
    values.input.limits[i] = std::to_string(defaults.*LimitOptions()[i].field);
  }
  if (options.is_null()) return values;
  if (!options.is_object()) ThrowUsage("options must be an object of option names and values");
  for (const auto& [name, value] : options.items()) {
    // A false switch or a null value is an option not given, as on a command line without it.
    if (value.is_null() || (value.is_boolean() && !value.get<bool>())) continue;
    const Setter* setter = FindSetter(name, set);
    if (!setter) ThrowUsage(fmt::format("unrecognised option '--{}'", name));
    (*setter)(name, value, &values);
    values.given.insert(name);
  }
  values.bake.max_input_mb = values.input.max_input_mb;
  values.bake.limits = values.input.limits;
  return values;
}

// boost::lexical_cast<double> reads what a stream reads, all of it: an optional sign, decimal
// digits with an optional point and exponent; also inf, infinity and nan(...) in any case. Out of
// range ("1e400") is invalid, as there.
namespace {

bool IsDecimalText(const std::string& text) {
  size_t i = text[0] == '+' || text[0] == '-' ? 1 : 0;
  const auto digits = [&text, &i] {
    const size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - start;
  };
  size_t mantissa = digits();
  if (i < text.size() && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == text.size();
}

bool IsSpecialText(const std::string& text, bool* is_nan) {
  const size_t sign = text[0] == '+' || text[0] == '-' ? 1 : 0;
  std::string word = text.substr(sign);
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  *is_nan = word == "nan" || (word.size() > 4 && word.compare(0, 4, "nan(") == 0 &&
                              word.back() == ')' && word.find(')') == word.size() - 1);
  return *is_nan || word == "inf" || word == "infinity";
}

}  // namespace

double ParseRealText(const std::string& name, const std::string& text) {
  if (text.empty()) ThrowInvalid(name, json(text));
  bool is_nan = false;
  if (IsSpecialText(text, &is_nan)) {
    if (is_nan) return std::numeric_limits<double>::quiet_NaN();
    return text[0] == '-' ? -std::numeric_limits<double>::infinity()
                          : std::numeric_limits<double>::infinity();
  }
  if (!IsDecimalText(text)) ThrowInvalid(name, json(text));
  errno = 0;
  const double value = std::strtod(text.c_str(), nullptr);
  if (errno == ERANGE && std::isinf(value)) ThrowInvalid(name, json(text));
  return value;
}

namespace {

bool IsWholeText(const std::string& text) {
  const size_t start = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
  if (start == text.size()) return false;
  for (size_t i = start; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

}  // namespace

int64_t ParseIntegerText(const std::string& name, const std::string& text, int64_t min,
                         int64_t max) {
  if (!IsWholeText(text)) ThrowInvalid(name, json(text));
  errno = 0;
  const long long value = std::strtoll(text.c_str(), nullptr, 10);
  if (errno == ERANGE || value < min || value > max) ThrowInvalid(name, json(text));
  return value;
}

// lexical_cast to an unsigned type takes a leading '-' and wraps the value around, as C's
// strtoull does ("-1" is 2^64 - 1): kept, so the same command line means the same here.
uint64_t ParseUnsignedText(const std::string& name, const std::string& text) {
  if (!IsWholeText(text)) ThrowInvalid(name, json(text));
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE) ThrowInvalid(name, json(text));
  return value;
}

}  // namespace animconv::web
