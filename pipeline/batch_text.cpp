// What `animconv batch` prints on stderr besides diagnostics (animconv/batch.h, docs/cli.md):
// the CLI and the npm CLI (web/cli) print these same texts.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "animconv/batch.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

std::string Duration(double seconds) {
  if (seconds < 60) return fmt::format("{:.0f}s", seconds);
  if (seconds < 3600) return fmt::format("{:.0f}m{:02.0f}s", seconds / 60, std::fmod(seconds, 60));
  return fmt::format("{:.0f}h{:02.0f}m", seconds / 3600, std::fmod(seconds / 60, 60));
}

}  // namespace

std::string BatchFileLine(const BatchResult& result, size_t done, size_t total) {
  return fmt::format("[{}/{}] {} {}{}\n", done, total, BatchStatusName(result.status),
                     EscapeForTerminal(result.item.input),
                     result.message.empty() ? "" : ": " + EscapeForTerminal(result.message));
}

std::string BatchFailedLine(const BatchResult& result) {
  return fmt::format("failed {}: {}\n", EscapeForTerminal(result.item.input),
                     EscapeForTerminal(result.message));
}

std::string BatchStatusLine(size_t done, size_t total, size_t failed, double elapsed_seconds) {
  const double rate = static_cast<double>(done) / std::max(elapsed_seconds, 1e-9);
  return fmt::format("{}/{} files, {} failed, {:.1f} files/s, ETA {}", done, total, failed, rate,
                     Duration(static_cast<double>(total - done) / rate));
}

BatchEnd SummarizeBatch(const std::vector<BatchResult>& results, double wall_seconds) {
  BatchEnd end;
  size_t counts[4] = {};
  for (const BatchResult& result : results) {
    ++counts[static_cast<int>(result.status)];
    if (result.status == BatchStatus::kFailed) {
      end.exit_code = std::max(end.exit_code, result.exit_code);
      end.problems += fmt::format("failed: {}: {}\n", EscapeForTerminal(result.item.input),
                                  EscapeForTerminal(result.message));
    }
  }
  // Why files were not started when nothing interrupted the batch (an output folder removed):
  // said once, like the failures.
  for (const BatchResult& result : results) {
    if (result.status == BatchStatus::kNotStarted && !result.message.empty()) {
      end.problems += fmt::format("stopped: {}\n", EscapeForTerminal(result.message));
      break;
    }
  }
  end.summary = fmt::format("{} converted, {} skipped, {} failed, {} not started in {:.2f} s\n",
                            counts[0], counts[1], counts[2], counts[3], wall_seconds);
  return end;
}

}  // namespace animconv
