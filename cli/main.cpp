// animconv: convert and retarget character animation clips. This file only dispatches commands
// and turns errors into messages and exit codes (docs/cli.md).
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <ctime>
#include <iostream>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "animconv/error.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "libconvert/mapped_input.h"
#include "libconvert/text.h"

namespace {

constexpr const char* kUsage = R"(animconv - convert and retarget character animation clips

usage: animconv [-v|-q] COMMAND [options]

commands:
  convert INPUT -o OUTPUT   convert a clip file (formats detected from content/extension)
  info INPUT [--json]       describe clips, timing, channels, targets, missing bones
  batch INPUT... -o OUTDIR --to FORMAT
                            convert many files (folders too) in parallel, with a report
  bake INPUT -o OUTPUT      bake a glTF morph animation into per-frame geometry for p5.js
  formats                   list readable and writable formats
  bones [NAME...]           list humanoid bone names, or translate names between namings
  diff A B [--json]         compare two clips: max and p99 error in degrees, metres, weights
  preview INPUT -o PAGE.html [--model MODEL]
                            one HTML page that plays the conversion (three.js, from file://)

global options:
  -v, --verbose   more detail on stderr
  -q, --quiet     errors only
  -h, --help      this help (COMMAND --help: the command's options and defaults)
  --version       print the version

exit codes: 0 ok, 1 usage error, 2 bad input, 3 I/O error, 4 internal error
)";

constexpr int kExitInternal = 4;

// The message text, escaped for the terminal (`%*` in the log pattern). Warnings and notes quote
// node, clip and track names from input files; escaping every message here covers all of them,
// present and future, so a crafted name cannot recolour, move the cursor or fake a log line.
// Error messages are escaped already, and escaping is idempotent.
class EscapedMessage : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& message, const std::tm&,
              spdlog::memory_buf_t& out) override {
    const std::string escaped = animconv::EscapeForTerminal(
        std::string_view(message.payload.data(), message.payload.size()));
    out.append(escaped.data(), escaped.data() + escaped.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<EscapedMessage>();
  }
};

}  // namespace

int main(int argc, char** argv) {
  animconv::cli::RemoveTemporariesOnSignals();
  // Large inputs are read in place; a file truncated meanwhile is then reported, not a crash.
  animconv::InstallMappedInputGuard();
  // Multi-threaded sink: `batch` converts files on several threads, each may log.
  auto logger = spdlog::stderr_color_mt("animconv");
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<EscapedMessage>('*').set_pattern("animconv: %^%l%$: %*");
  logger->set_formatter(std::move(formatter));
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::info);

  std::vector<std::string> args(argv + 1, argv + argc);
  while (!args.empty() && (args.front() == "-v" || args.front() == "--verbose" ||
                           args.front() == "-q" || args.front() == "--quiet")) {
    const bool verbose = args.front() == "-v" || args.front() == "--verbose";
    spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::err);
    args.erase(args.begin());
  }
  if (args.empty() || args.front() == "-h" || args.front() == "--help" || args.front() == "help") {
    std::cout << kUsage;
    return args.empty() ? 1 : 0;
  }
  if (args.front() == "--version") {
    std::cout << "animconv " << ANIMCONV_VERSION << "\n";
    return 0;
  }
  const std::string command = args.front();
  args.erase(args.begin());
  try {
    if (command == "convert") return animconv::cli::RunConvert(args);
    if (command == "info") return animconv::cli::RunInfo(args);
    if (command == "bake") return animconv::cli::RunBake(args);
    if (command == "batch") return animconv::cli::RunBatch(args);
    if (command == "formats") return animconv::cli::RunFormats(args);
    if (command == "bones") return animconv::cli::RunBones(args);
    if (command == "diff") return animconv::cli::RunDiff(args);
    if (command == "preview") return animconv::cli::RunPreview(args);
    animconv::ThrowUsage("unknown command '" + command + "'; see animconv --help");
  } catch (const animconv::Error& error) {
    spdlog::error("{}", error.what());
    return static_cast<int>(error.kind());
  } catch (const std::bad_alloc&) {
    spdlog::error("out of memory");
    return kExitInternal;
  } catch (const std::exception& error) {
    spdlog::error("internal error: {}", error.what());
    return kExitInternal;
  }
}
