#include <spdlog/spdlog.h>

#include "cli/commands.h"
#include "cli/convert_options.h"
#include "cli/diagnostics.h"
#include "cli/input_options.h"

namespace animconv::cli {

int RunConvert(const std::vector<std::string>& args) {
  InputOptionValues input;
  ConvertOptionValues values;
  std::string output;
  std::string to;
  po::options_description files("Output");
  // clang-format off
  files.add_options()
      ("help,h", "show this help")
      ("output,o", po::value(&output)->required(), "output file (written atomically)")
      ("to", po::value(&to),
       "output format id; default: from the output extension (.json -> three, .hierarchy.json "
       "-> three-hierarchy, .csv -> csv, .unity.csv -> unity-csv, .gltf -> gltf, .glb/.vrm "
       "-> glb, .vrma -> vrma, .bvh -> bvh)");
  // clang-format on
  po::options_description visible;
  visible.add(files)
      .add(ConvertOptionsDescription(&values))
      .add(InputOptions(&input, /*writes=*/true));

  po::variables_map map;
  if (!ParseCommandLine(args, "animconv convert INPUT -o OUTPUT [options]", visible, "input",
                        &map)) {
    return 0;
  }
  ConvertOptions options;
  ApplyInputOptions(input, map, &options);
  options.to = to;
  ApplyConvertOptions(values, map, &options);

  const std::string input_path = map["input"].as<std::string>();
  PrepareHeapForInputs({input_path});
  ConvertReport report;
  PrintingDiagnostics(report.diagnostics,
                      [&] { ConvertFile(input_path, output, options, &report); });
  spdlog::info("{} ({}, {} bytes) -> {} ({}, {} bytes)", input_path, report.input_format->id,
               report.input_bytes, output, report.output_format->id, report.output_bytes);
  return 0;
}

}  // namespace animconv::cli
