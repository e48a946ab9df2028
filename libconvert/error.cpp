#include "animconv/error.h"

#include "libconvert/text.h"

namespace animconv {
namespace {

std::string Describe(ErrorKind kind, const std::string& source, const std::string& location,
                     const std::string& message) {
  std::string text;
  if (!source.empty()) text += source + ":";
  if (!location.empty()) text += location + ":";
  if (!text.empty()) text += " ";
  // A bug, not the input's fault: said so wherever what() is printed (docs/cli.md, exit code 4).
  if (kind == ErrorKind::kInternal) text = "internal error: " + text;
  return text + message;
}

}  // namespace

Error::Error(ErrorKind kind, std::string source, std::string location, std::string message)
    // Messages quote input bytes (names, cells, URIs) and every error printed passes here, so
    // this one place keeps a crafted file from writing terminal controls.
    : std::runtime_error(Describe(kind, EscapeForTerminal(source), EscapeForTerminal(location),
                                  EscapeForTerminal(message))),
      kind_(kind),
      source_(EscapeForTerminal(source)),
      location_(EscapeForTerminal(location)),
      message_(EscapeForTerminal(message)) {}

void ThrowBadInput(const std::string& source, const std::string& location,
                   const std::string& message) {
  throw Error(ErrorKind::kBadInput, source, location, message);
}

void ThrowUsage(const std::string& message) { throw Error(ErrorKind::kUsage, "", "", message); }

void ThrowInternal(const std::string& message) {
  throw Error(ErrorKind::kInternal, "", "", message);
}

}  // namespace animconv
