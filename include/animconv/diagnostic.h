// What the library tells besides its result: one message type for readers, writers and the jobs,
// gathered per call instead of written to a global logger, so a library user (and each of
// ConvertBatch's threads) knows which file a message belongs to. The CLI prints them
// (docs/cli.md); nothing in the libraries logs.
#pragma once

#include <string>
#include <vector>

namespace animconv {

// The CLI shows kWarning and kInfo by default, kDebug with -v, only errors with -q.
enum class Severity { kDebug, kInfo, kWarning };

const char* SeverityName(Severity severity);  // "debug", "info", "warning"

// `text` is one sentence, not escaped: it may quote names from the input, so a caller printing
// it to a terminal escapes it (EscapeForTerminal in libconvert/text.h).
struct Diagnostic {
  Severity severity = Severity::kInfo;
  std::string text;

  bool operator==(const Diagnostic& other) const {
    return severity == other.severity && text == other.text;
  }
};

// Where a call puts its diagnostics, in the order they happen. Functions take it as a pointer
// that may be null (then the messages are dropped) and only ever append, so what was gathered
// before an Error is still there when the caller catches it.
using Diagnostics = std::vector<Diagnostic>;

// Appends to `sink` unless it is null.
void AddDiagnostic(Diagnostics* sink, Severity severity, std::string text);

}  // namespace animconv
