// One error type for everything the library and the formats report. The CLI prints it once and maps
// its kind to the documented exit code (docs/cli.md).
#pragma once

#include <stdexcept>
#include <string>

namespace animconv {

enum class ErrorKind {
  kUsage = 1,     // the request itself is wrong (bad option, impossible combination)
  kBadInput = 2,  // the input data is malformed or unsupported
  kIo = 3,        // a file could not be read or written
  // A broken precondition of a library function: a bug in the caller (the CLI's "internal
  // error", docs/cli.md), never the fault of an input file.
  kInternal = 4,
};

// `source` names the file (or "<memory>"), `location` is "line:column" for text formats or a JSON
// pointer such as "/animations/0/samplers/2/output"; either may be empty. All three are kept
// escaped for a terminal (EscapeForTerminal in text.h): they quote bytes of untrusted files.
// what() is "source:location: message", led by "internal error: " for kInternal.
class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string source, std::string location, std::string message);

  ErrorKind kind() const { return kind_; }
  const std::string& source() const { return source_; }
  const std::string& location() const { return location_; }
  const std::string& message() const { return message_; }

 private:
  ErrorKind kind_;
  std::string source_;
  std::string location_;
  std::string message_;
};

[[noreturn]] void ThrowBadInput(const std::string& source, const std::string& location,
                                const std::string& message);
[[noreturn]] void ThrowUsage(const std::string& message);
// Error(kInternal) without source or location; `message` names the function and the precondition.
[[noreturn]] void ThrowInternal(const std::string& message);

}  // namespace animconv
