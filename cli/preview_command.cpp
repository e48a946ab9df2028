// `animconv preview INPUT -o PAGE.html [--model MODEL]`: the conversion written into one HTML page
// that plays it (animconv/preview.h; docs/cli.md, "preview").
#include <spdlog/spdlog.h>

#include <filesystem>
#include <system_error>

#include "animconv/error.h"
#include "animconv/io.h"
#include "animconv/preview.h"
#include "cli/commands.h"
#include "cli/convert_options.h"
#include "cli/diagnostics.h"
#include "cli/input_options.h"

namespace animconv::cli {
namespace {

constexpr const char* kViewerName = "animconv_viewer.html";

// The viewer template: --viewer, else beside the binary (the build tree: CMake writes it next to
// cli/animconv), else in ../share/animconv (the installed layout, cmake/install.cmake).
std::string FindViewer(const std::string& given) {
  if (!given.empty()) return given;
  std::error_code error;
  const std::filesystem::path binary = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::filesystem::path folder = binary.parent_path();
    for (const std::filesystem::path& candidate :
         {folder / kViewerName, folder / ".." / "share" / "animconv" / kViewerName}) {
      if (std::filesystem::is_regular_file(candidate, error)) return candidate.string();
    }
  }
  throw Error(ErrorKind::kIo, kViewerName, "",
              "the preview viewer is not installed beside animconv: build it with web/app's "
              "packages installed (npm ci --prefix web/app, then rebuild; docs/web.md, "
              "\"animconv preview\"), or give --viewer FILE");
}

}  // namespace

int RunPreview(const std::vector<std::string>& args) {
  InputOptionValues input;
  ConvertOptionValues values;
  std::string output;
  std::string viewer;
  PreviewOptions options;
  po::options_description page("Preview");
  // clang-format off
  page.add_options()
      ("help,h", "show this help")
      ("output,o", po::value(&output)->required(),
       "the HTML page to write (atomically): it plays the conversion from file://, no server")
      ("model", po::value(&options.model),
       "a glTF/GLB/VRM model to play the clip on: a VRM plays a .vrma (three-vrm-animation), "
       "another model is retargeted onto (as --skeleton)")
      ("to", po::value(&options.convert.to),
       "the format converted to and played: vrma, glb, three or bvh; default: vrma on a VRM "
       "model or a generated humanoid, glb onto another model or for a glTF model input, bvh "
       "for a skeleton without humanoid bones")
      ("viewer", po::value(&viewer),
       "the viewer template (web/app/build_viewer.mjs); default: the one installed with "
       "animconv (animconv_viewer.html beside the binary or in ../share/animconv; the npm "
       "package's dist/)");
  // clang-format on
  po::options_description visible;
  visible.add(page)
      .add(ConvertOptionsDescription(&values))
      .add(InputOptions(&input, /*writes=*/true));
  po::variables_map map;
  if (!ParseCommandLine(args, "animconv preview INPUT -o PAGE.html [--model MODEL] [options]",
                        visible, "input", &map)) {
    return 0;
  }
  const std::string to = options.convert.to;
  ApplyInputOptions(input, map, &options.convert);
  ApplyConvertOptions(values, map, &options.convert);
  options.convert.to = to;

  const std::string input_path = map["input"].as<std::string>();
  PrepareHeapForInputs({input_path});
  const std::string viewer_template = ReadFile(FindViewer(viewer));
  PreviewReport report;
  PrintingDiagnostics(report.convert.diagnostics,
                      [&] { PreviewFile(input_path, output, viewer_template, options, &report); });
  spdlog::info("{} ({}) -> {} ({}, {}) in {} ({} bytes)", input_path,
               report.convert.input_format->id, report.output_name,
               report.convert.output_format->id, PreviewShowId(report.show), output,
               report.page_bytes);
  return 0;
}

}  // namespace animconv::cli
