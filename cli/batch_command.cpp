// `animconv batch`: many inputs, one conversion each, in parallel (animconv/batch.h). This file
// parses options, shows progress and writes the report; the work is the library's.
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <iostream>

#include "animconv/batch.h"
#include "animconv/error.h"
#include "animconv/io.h"
#include "cli/commands.h"
#include "cli/convert_options.h"
#include "cli/diagnostics.h"
#include "cli/input_options.h"
#include "cli/interrupt.h"
#include "libconvert/text.h"

namespace animconv::cli {
namespace {

std::atomic<bool> g_stop{false};

// Ctrl-C or SIGTERM: start no new file; the ones in flight finish (their outputs are written
// atomically), so an interrupted batch leaves only complete files and resumes with
// --skip-existing. A second signal ends at once, removing the temporaries of writes in progress.
extern "C" void RequestStop(int signal_number) {
  if (g_stop.exchange(true)) RemoveTemporariesAndDie(signal_number);
}

std::string Duration(double seconds) {
  if (seconds < 60) return fmt::format("{:.0f}s", seconds);
  if (seconds < 3600) return fmt::format("{:.0f}m{:02.0f}s", seconds / 60, std::fmod(seconds, 60));
  return fmt::format("{:.0f}h{:02.0f}m", seconds / 3600, std::fmod(seconds / 60, 60));
}

// One status line rewritten in place on a terminal; plain lines per file otherwise (logs, CI).
class Progress {
 public:
  // `quiet` (-q, errors only): no progress at all; failures are still listed at the end.
  Progress(size_t total, bool quiet)
      : total_(total),
        quiet_(quiet),
        terminal_(isatty(STDERR_FILENO) != 0),
        start_(std::chrono::steady_clock::now()) {}

  // A file's diagnostics come first, each naming the file: threads finish files in any order.
  void Update(const BatchResult& result) {
    const bool any_shown =
        std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                    [](const Diagnostic& diagnostic) { return Shown(diagnostic.severity); });
    if (terminal_ && any_shown) std::cerr << "\r\033[K" << std::flush;
    PrintDiagnostics(result.diagnostics, result.item.input);
    ++done_;
    if (result.status == BatchStatus::kFailed) ++failed_;
    if (quiet_) return;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double rate = static_cast<double>(done_) / std::max(elapsed, 1e-9);
    if (!terminal_) {
      std::cerr << fmt::format(
          "[{}/{}] {} {}{}\n", done_, total_, BatchStatusName(result.status),
          EscapeForTerminal(result.item.input),
          result.message.empty() ? "" : ": " + EscapeForTerminal(result.message));
      return;
    }
    if (result.status == BatchStatus::kFailed) {
      std::cerr << fmt::format("\r\033[Kfailed {}: {}\n", EscapeForTerminal(result.item.input),
                               EscapeForTerminal(result.message));
    }
    std::cerr << fmt::format("\r\033[K{}/{} files, {} failed, {:.1f} files/s, ETA {}", done_,
                             total_, failed_, rate,
                             Duration(static_cast<double>(total_ - done_) / rate))
              << std::flush;
  }

  void Finish() {
    if (terminal_ && !quiet_) std::cerr << "\r\033[K";
  }

 private:
  size_t total_;
  bool quiet_;
  size_t done_ = 0;
  size_t failed_ = 0;
  bool terminal_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

int RunBatch(const std::vector<std::string>& args) {
  std::vector<std::string> inputs;
  std::string output_dir;
  std::string to;
  std::string report;
  int jobs = 0;
  bool overwrite = false;
  bool skip_existing = false;
  po::options_description batch("Batch");
  // clang-format off
  batch.add_options()
      ("help,h", "show this help")
      ("output,o", po::value(&output_dir)->required(),
       "output folder; outputs mirror the input tree (a folder's files keep their relative "
       "path), with the output format's extension")
      ("to", po::value(&to)->required(), "output format id (animconv formats)")
      ("jobs,j", po::value(&jobs)->default_value(jobs),
       "files converted in parallel; 0 = one per hardware thread")
      ("report", po::value(&report), "write per-file results and timings to this JSON file")
      ("overwrite", po::bool_switch(&overwrite), "replace existing outputs")
      ("skip-existing", po::bool_switch(&skip_existing),
       "leave existing outputs alone (resume an interrupted batch)");
  // clang-format on
  ConvertOptionValues convert_values;
  InputOptionValues input_values;
  po::options_description visible;
  visible.add(batch)
      .add(ConvertOptionsDescription(&convert_values))
      .add(InputOptions(&input_values, /*writes=*/true));
  po::options_description all;
  all.add(visible);
  all.add_options()("input", po::value(&inputs));
  po::positional_options_description positional;
  positional.add("input", -1);
  po::variables_map map;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), map);
    if (map.count("help")) {
      std::cout << "animconv batch INPUT... -o OUTDIR --to FORMAT [options]\n"
                << "  INPUT: files and folders (searched recursively for readable extensions)\n"
                << visible << "\n";
      return 0;
    }
    po::notify(map);
  } catch (const po::error& error) {
    ThrowUsage(error.what());
  }
  if (inputs.empty()) ThrowUsage("batch: give at least one input file or folder");
  if (overwrite && skip_existing) ThrowUsage("give --overwrite or --skip-existing, not both");

  BatchOptions options;
  options.inputs = inputs;
  options.output_dir = output_dir;
  options.to = to;
  options.jobs = jobs;
  options.overwrite = overwrite;
  options.skip_existing = skip_existing;
  ApplyInputOptions(input_values, map, &options.convert);
  ApplyConvertOptions(convert_values, map, &options.convert);
  const std::vector<BatchItem> plan = PlanBatch(options);

  // -q lets only errors through: no progress lines and no summary, only the failures.
  const bool quiet = spdlog::get_level() >= spdlog::level::err;
  // Per-file info lines would bury the warnings; -v still shows them.
  if (spdlog::get_level() == spdlog::level::info) spdlog::set_level(spdlog::level::warn);
  std::signal(SIGINT, RequestStop);
  std::signal(SIGTERM, RequestStop);
  Progress progress(plan.size(), quiet);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<BatchResult> results = ConvertBatch(
      plan, options, [&progress](const BatchResult& result) { progress.Update(result); }, &g_stop);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.Finish();

  size_t counts[4] = {};
  int exit_code = 0;
  for (const BatchResult& result : results) {
    ++counts[static_cast<int>(result.status)];
    if (result.status == BatchStatus::kFailed) {
      exit_code = std::max(exit_code, result.exit_code);
      std::cerr << fmt::format("failed: {}: {}\n", EscapeForTerminal(result.item.input),
                               EscapeForTerminal(result.message));
    }
  }
  // Why files were not started when nothing interrupted the batch (an output folder removed):
  // said once, like the failures, even with -q.
  for (const BatchResult& result : results) {
    if (result.status == BatchStatus::kNotStarted && !result.message.empty()) {
      std::cerr << fmt::format("stopped: {}\n", EscapeForTerminal(result.message));
      break;
    }
  }
  if (!quiet) {
    std::cerr << fmt::format("{} converted, {} skipped, {} failed, {} not started in {:.2f} s\n",
                             counts[0], counts[1], counts[2], counts[3], wall);
  }
  if (!report.empty()) WriteFileAtomic(report, BatchReportJson(results, wall));
  if (g_stop) return 130;  // interrupted, as shells report SIGINT
  return exit_code;
}

}  // namespace animconv::cli
