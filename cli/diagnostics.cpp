#include "cli/diagnostics.h"

#include <spdlog/spdlog.h>

namespace animconv::cli {
namespace {

spdlog::level::level_enum Level(Severity severity) {
  switch (severity) {
    case Severity::kDebug:
      return spdlog::level::debug;
    case Severity::kInfo:
      return spdlog::level::info;
    case Severity::kWarning:
      return spdlog::level::warn;
  }
  return spdlog::level::warn;
}

}  // namespace

bool Shown(Severity severity) { return spdlog::default_logger()->should_log(Level(severity)); }

void PrintDiagnostics(const Diagnostics& diagnostics, const std::string& file) {
  for (const Diagnostic& diagnostic : diagnostics) {
    if (file.empty()) {
      spdlog::log(Level(diagnostic.severity), "{}", diagnostic.text);
    } else {
      spdlog::log(Level(diagnostic.severity), "{}: {}", file, diagnostic.text);
    }
  }
}

}  // namespace animconv::cli
