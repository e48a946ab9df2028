// `animconv diff A B`: how far apart two clips are, in degrees, metres, scale ratio and weight
// units (animconv/clip_diff.h). The numbers are the result, so comparing always exits 0.
#include <fmt/format.h>

#include <iostream>

#include "animconv/diff_job.h"
#include "animconv/error.h"
#include "cli/commands.h"
#include "cli/diagnostics.h"
#include "cli/input_options.h"

namespace animconv::cli {
namespace {

constexpr const char* kUsage = "animconv diff A B [--clip NAME|INDEX] [--json] [options]";

}  // namespace

int RunDiff(const std::vector<std::string>& args) {
  InputOptionValues input;
  DiffOptionValues values;
  bool json = false;
  size_t top = 10;
  po::options_description general("Diff");
  // clang-format off
  general.add_options()
      ("help,h", "show this help")
      ("json", po::bool_switch(&json),
       "print everything (per channel, per bone, per unit, channels only in one clip) as JSON")
      ("clip", po::value(&values.clip_a),
       "A's clip (name or 0-based index); default: the first, or the one named like B's only "
       "clip")
      ("clip-b", po::value(&values.clip_b),
       "B's clip; default: the one named like A's clip, else B's only clip (never a guess by "
       "index)")
      ("top", po::value(&top)->default_value(top), "text output: the worst N channels per unit")
      ("hierarchical", po::value(&values.hierarchical),
       "also measure the ozz/ACL virtual-vertex error: how far points at this many metres from "
       "each joint move, errors accumulated down the hierarchy (e.g. 0.1)")
      ("samples-between",
       po::value(&values.samples_between)->default_value(values.samples_between),
       "evenly spaced samples between consecutive key times, besides the keys of both clips")
      ("cubic-chord-fraction",
       po::value(&values.cubic_chord_fraction)->default_value(values.cubic_chord_fraction),
       "also sample cubic splines until each is within this fraction of the --reduce tolerance "
       "of its chord between samples (0: off)")
      ("space", po::value(&values.space)->default_value(values.space),
       "auto: local values where the rigs agree, else model space (world); local or world: "
       "force one")
      ("skeleton-b", po::value(&values.skeleton_b),
       "the model B was written for (convert --skeleton MODEL): a clip that holds no rest pose "
       "(three.js JSON, CSV) is played on MODEL's, each track on the node of its name")
      ("mirror", po::value(&values.mirror),
       "how to bring a left-handed input (Unity CSV) to right-handed for the comparison: z, x or "
       "none, as in convert. Default z");
  // clang-format on
  po::options_description visible;
  visible.add(general).add(InputOptions(&input));
  po::options_description all;
  all.add(visible);
  all.add_options()("inputs", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add("inputs", 2);
  po::variables_map map;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), map);
    if (map.count("help")) {
      std::cout << kUsage << "\n" << visible << "\n";
      return 0;
    }
    po::notify(map);
  } catch (const po::error& error) {
    ThrowUsage(error.what());
  }
  if (!map.count("inputs") || map["inputs"].as<std::vector<std::string>>().size() != 2) {
    ThrowUsage(fmt::format("diff needs two inputs; usage: {}", kUsage));
  }
  const auto inputs = map["inputs"].as<std::vector<std::string>>();
  PrepareHeapForInputs(inputs);
  ConvertOptions options;
  ApplyInputOptions(input, map, &options);
  DiffOptions diff_options;
  animconv::ApplyDiffOptions(values, GivenIn(map), &options, &diff_options);

  Diagnostics diagnostics;
  DiffJobResult result;
  PrintingDiagnostics(diagnostics, [&] {
    result = RunDiffJob(inputs[0], inputs[1], options, diff_options,
                        map.count("interval") || map.count("fps"), &diagnostics, values.skeleton_b);
  });
  if (json) {
    std::cout << DiffJson(inputs[0], inputs[1], result, diff_options) << "\n";
  } else {
    std::cout << DiffText(inputs[0], inputs[1], result, diff_options, top);
  }
  return 0;
}

}  // namespace animconv::cli
