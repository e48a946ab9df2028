#include "animconv/diagnostic.h"

#include <utility>

namespace animconv {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kDebug:
      return "debug";
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
  }
  return "?";
}

void AddDiagnostic(Diagnostics* sink, Severity severity, std::string text) {
  if (sink) sink->push_back({severity, std::move(text)});
}

}  // namespace animconv
