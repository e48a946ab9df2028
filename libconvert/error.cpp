#include "libconvert/error.h"

namespace animconv {
namespace {

std::string Describe(const std::string& source, const std::string& location,
                     const std::string& message) {
  std::string text;
  if (!source.empty()) text += source + ":";
  if (!location.empty()) text += location + ":";
  if (!text.empty()) text += " ";
  return text + message;
}

}  // namespace

Error::Error(ErrorKind kind, std::string source, std::string location, std::string message)
    : std::runtime_error(Describe(source, location, message)),
      kind_(kind),
      source_(std::move(source)),
      location_(std::move(location)),
      message_(std::move(message)) {}

void ThrowBadInput(const std::string& source, const std::string& location,
                   const std::string& message) {
  throw Error(ErrorKind::kBadInput, source, location, message);
}

void ThrowUsage(const std::string& message) { throw Error(ErrorKind::kUsage, "", "", message); }

}  // namespace animconv
