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
};

// `source` names the file (or "<memory>"), `location` is "line:column" for text formats or a JSON
// pointer such as "/animations/0/samplers/2/output"; either may be empty. All three are kept
// escaped for a terminal (EscapeForTerminal in text.h): they quote bytes of untrusted files.
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

}  // namespace animconv
