// `animconv batch`: many inputs, one conversion each, in parallel (animconv/batch.h). This file
// parses options, shows progress and writes the report; the work is the library's.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
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

namespace animconv::cli {
namespace {

std::atomic<bool> g_stop{false};

// Ctrl-C or SIGTERM: start no new file; the ones in flight finish (their outputs are written
// atomically), so an interrupted batch leaves only complete files and resumes with
// --skip-existing. A second signal ends at once, removing the temporaries of writes in progress.
extern "C" void RequestStop(int signal_number) {
  if (g_stop.exchange(true)) RemoveTemporariesAndDie(signal_number);
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
    if (!terminal_) {
      std::cerr << BatchFileLine(result, done_, total_);
      return;
    }
    if (result.status == BatchStatus::kFailed) std::cerr << "\r\033[K" << BatchFailedLine(result);
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::cerr << "\r\033[K" << BatchStatusLine(done_, total_, failed_, elapsed) << std::flush;
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

  // -q still lists the failures.
  const BatchEnd end = SummarizeBatch(results, wall);
  std::cerr << end.problems;
  if (!quiet) std::cerr << end.summary;
  if (!report.empty()) WriteFileAtomic(report, BatchReportJson(results, wall));
  if (g_stop) return 130;  // interrupted, as shells report SIGINT
  return end.exit_code;
}

}  // namespace animconv::cli
