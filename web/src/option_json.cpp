#include "web/src/option_json.h"

#include <fmt/format.h>

#include <functional>
#include <map>

#include "animconv/error.h"

namespace animconv::web {
namespace {

using nlohmann::json;

// A value of the wrong JSON type, in the words Boost.Program_options uses for one it cannot read.
[[noreturn]] void ThrowInvalid(const std::string& name, const json& value) {
  const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
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
           if (!value.is_number_unsigned()) {
             ThrowInvalid(name, value);
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
      {"bone-names", String(&V::bone_names)},
      {"clip",
       [](const std::string& name, const json& value, OptionValues* out) {
         out->convert.clip = Text(name, value);  // a name or a 0-based index, as on the CLI
       }},
      {"time-unit", String(&V::time_unit)},
      {"morph-tracks", String(&V::morph_tracks)},
      {"bvh-order", String(&V::bvh_order)},
      {"root-motion", String(&V::root_motion)},
      {"ground", Flag(&V::ground)},
      {"precision",
       [](const std::string& name, const json& value, OptionValues* out) {
         if (!value.is_number_integer()) {
           ThrowInvalid(name, value);
         }
         out->convert.precision = value.get<int>();
       }},
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
         if (!value.is_number_integer()) {
           ThrowInvalid(name, value);
         }
         out->diff.samples_between = value.get<int>();
       }},
      {"cubic-chord-fraction", Double(&V::cubic_chord_fraction)},
  };
  return setters;
}

const Setter* FindSetter(const std::string& name, OptionSet set) {
  const auto in = [&name](const std::map<std::string, Setter>& table) -> const Setter* {
    const auto found = table.find(name);
    return found == table.end() ? nullptr : &found->second;
  };
  if (const Setter* input = in(InputSetters())) return input;
  switch (set) {
    case OptionSet::kConvert:
      return in(ConvertSetters());
    case OptionSet::kInfo:
      return name == "bone-map" ? in(ConvertSetters()) : nullptr;
    case OptionSet::kDiff:
      return in(DiffSetters());
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
  return values;
}

}  // namespace animconv::web
