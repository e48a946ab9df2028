#include <spdlog/spdlog.h>

#include "animconv/bake.h"
#include "animconv/option_values.h"
#include "cli/commands.h"
#include "cli/diagnostics.h"
#include "cli/input_options.h"

namespace animconv::cli {

int RunBake(const std::vector<std::string>& args) {
  std::string output;
  BakeOptionValues values;
  po::options_description visible("Bake");
  // clang-format off
  visible.add_options()
      ("help,h", "show this help")
      ("output,o", po::value(&output)->required(),
       "output JSON for p5.js (written atomically; layout in docs/cookbook/p5js.md)")
      ("clip", po::value(&values.clip),
       "bake this clip (name or 0-based index); default: the first clip that animates morph "
       "weights")
      ("node", po::value(&values.node),
       "bake the morph weights of this node; needed when the clip animates several")
      ("fps", po::value(&values.fps),
       "frames per second on a uniform grid from 0 to the clip's end; default: one frame per "
       "key of the weights channel")
      ("max-input-mb", po::value(&values.max_input_mb)->default_value(values.max_input_mb),
       "refuse inputs larger than this many MiB");
  // clang-format on
  AddLimitOptions(&visible, &values.limits);
  po::variables_map map;
  if (!ParseCommandLine(args, "animconv bake INPUT -o OUTPUT [options]", visible, "input", &map)) {
    return 0;
  }
  P5BakeFileOptions options;
  ApplyBakeOptions(values, GivenIn(map), &options);

  const std::string input = map["input"].as<std::string>();
  PrepareHeapForInputs({input});
  P5BakeReport report;
  PrintingDiagnostics(report.diagnostics, [&] { BakeP5File(input, output, options, &report); });
  spdlog::info("{}: clip '{}', node '{}': {} frames of {} vertices -> {}", input, report.clip,
               report.node, report.frames, report.vertices, output);
  return 0;
}

}  // namespace animconv::cli
