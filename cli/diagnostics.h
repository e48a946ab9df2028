// Printing the library's diagnostics (animconv/diagnostic.h) on the CLI's logger, the one place
// spdlog is used: each at its own level, so -v/-q filter them as docs/cli.md says.
#pragma once

#include <string>

#include "animconv/diagnostic.h"

namespace animconv::cli {

// True when the logger's level lets a diagnostic of this severity through.
bool Shown(Severity severity);

// Prints each diagnostic as `animconv: LEVEL: TEXT`; with `file`, as `... LEVEL: FILE: TEXT`
// (batch, where several files report). Texts are escaped for the terminal by the log pattern.
void PrintDiagnostics(const Diagnostics& diagnostics, const std::string& file = "");

// Runs `job` and prints `diagnostics` (which the job fills) after it, also when it throws: then
// they come before the error main prints, in the order they happened.
template <typename Job>
void PrintingDiagnostics(const Diagnostics& diagnostics, Job&& job) {
  try {
    job();
  } catch (...) {
    PrintDiagnostics(diagnostics);
    throw;
  }
  PrintDiagnostics(diagnostics);
}

}  // namespace animconv::cli
