#include "cli/input_options.h"

#include <fmt/format.h>

#include <cmath>
#include <iostream>

#include "animconv/error.h"
#include "animconv/io.h"
#include "formats/csv/unity_csv.h"

namespace animconv::cli {
namespace {

struct LimitOption {
  const char* name;
  size_t StructureLimits::*field;
  const char* help;
};

// One row per StructureLimits field, in the order of docs/reliability.md's table.
constexpr LimitOption kLimitOptions[] = {
    {"max-nodes", &StructureLimits::nodes, "refuse inputs with more nodes (bones, joints)"},
    {"max-depth", &StructureLimits::depth, "refuse hierarchies with more nodes on one chain"},
    {"max-channels", &StructureLimits::channels,
     "refuse clips with more channels (tracks, column groups)"},
    {"max-keys", &StructureLimits::keys_per_channel,
     "refuse channels with more keys (CSV rows, BVH frames)"},
    {"max-morph-targets", &StructureLimits::morph_targets, "refuse meshes with more morph targets"},
    {"max-name-bytes", &StructureLimits::name_bytes,
     "refuse node, clip or track names longer than this many bytes"},
};
constexpr size_t kLimitCount = sizeof(kLimitOptions) / sizeof(kLimitOptions[0]);

}  // namespace

void AddLimitOptions(po::options_description* description, std::vector<std::string>* texts) {
  const StructureLimits defaults;
  texts->assign(kLimitCount, std::string());
  for (size_t i = 0; i < kLimitCount; ++i) {
    const std::string shown = std::to_string(defaults.*kLimitOptions[i].field);
    description->add_options()(kLimitOptions[i].name,
                               po::value(&(*texts)[i])->default_value(shown, shown),
                               kLimitOptions[i].help);
  }
}

void ApplyLimitOptions(const std::vector<std::string>& texts, const po::variables_map& map,
                       StructureLimits* limits) {
  for (size_t i = 0; i < kLimitCount && i < texts.size(); ++i) {
    if (map[kLimitOptions[i].name].defaulted()) continue;
    const std::string& text = texts[i];
    size_t value = 0;
    bool ok = !text.empty() && text.size() <= 19;  // 19 digits fit a 64-bit size_t
    for (const char c : text) {
      ok = ok && c >= '0' && c <= '9';
      if (ok) value = value * 10 + static_cast<size_t>(c - '0');
    }
    if (!ok || value == 0) {
      ThrowUsage(fmt::format("--{} must be a whole number of at least 1, not '{}'",
                             kLimitOptions[i].name, text));
    }
    limits->*kLimitOptions[i].field = value;
  }
}

po::options_description InputOptions(InputOptionValues* values, bool writes) {
  po::options_description description("Input");
  const char* interval_help =
      writes ? "unity-csv: seconds between rows (default 0.2, the reference exporter's rate). "
               "Output: the grid to sample on when writing unity-csv, or when baking cubic "
               "splines for formats without them"
             : "unity-csv: seconds between rows (default 0.2, the reference exporter's rate)";
  // clang-format off
  description.add_options()
      ("from", po::value(&values->from),
       "input format id (see `animconv formats`); default: detected from content, then "
       "extension")
      ("bones", po::value(&values->bones_file),
       "unity-csv: file with one bone name per line (the article's bone.txt); sets the column "
       "order and count. Default: the 55 HumanBodyBones in enum order (UpperChest last)")
      ("interval", po::value(&values->interval_seconds), interval_help)
      ("fps", po::value(&values->fps), "the same as a rate: --fps 30 = --interval 1/30")
      ("scale", po::value(&values->scale),
       "multiply every length by this after reading (BVH is read as centimetres and FBX in its "
       "own unit, both turned to metres; a BVH in inches needs --scale 2.54)")
      ("max-input-mb", po::value(&values->max_input_mb)->default_value(values->max_input_mb),
       "refuse inputs larger than this many MiB");
  // clang-format on
  AddLimitOptions(&description, &values->limits);
  return description;
}

void ApplyInputOptions(const InputOptionValues& values, const po::variables_map& map,
                       ConvertOptions* options) {
  options->from = values.from;
  options->max_input_bytes = values.max_input_mb << 20;
  ApplyLimitOptions(values.limits, map, &options->read.limits);
  if (map.count("interval") && map.count("fps")) {
    ThrowUsage("give --interval or --fps, not both");
  }
  if (map.count("interval")) {
    if (!(values.interval_seconds > 0)) ThrowUsage("--interval must be a positive number");
    options->read.row_interval_seconds = values.interval_seconds;
    options->write.row_interval_seconds = values.interval_seconds;
  }
  if (map.count("fps")) {
    if (!(values.fps > 0)) ThrowUsage("--fps must be a positive number");
    options->read.row_interval_seconds = 1.0 / values.fps;
    options->write.row_interval_seconds = 1.0 / values.fps;
  }
  if (map.count("scale")) {
    if (!(values.scale > 0) || !std::isfinite(values.scale)) {
      ThrowUsage("--scale must be a positive number");
    }
    options->length_scale = values.scale;
  }
  if (!values.bones_file.empty()) {
    options->read.bone_names = ParseBoneList(ReadFile(values.bones_file), values.bones_file);
    options->write.bone_names = options->read.bone_names;
    options->bones_file = values.bones_file;
  }
}

bool ParseCommandLine(const std::vector<std::string>& args, const char* usage,
                      const po::options_description& visible, const std::string& positional_name,
                      po::variables_map* map) {
  po::options_description all;
  all.add(visible);
  all.add_options()(positional_name.c_str(), po::value<std::string>());
  po::positional_options_description positional;
  positional.add(positional_name.c_str(), 1);
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), *map);
    // --help wins over missing required options, so check it before notify() enforces them.
    if (map->count("help")) {
      std::cout << usage << "\n" << visible << "\n";
      return false;
    }
    po::notify(*map);
  } catch (const po::error& error) {
    ThrowUsage(error.what());
  }
  if (!map->count(positional_name)) {
    ThrowUsage(fmt::format("missing {}; usage: {}", positional_name, usage));
  }
  return true;
}

}  // namespace animconv::cli
