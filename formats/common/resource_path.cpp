#include "formats/common/resource_path.h"

#include <fmt/format.h>

#include <filesystem>
#include <vector>

#include "animconv/error.h"
#include "animconv/io.h"

namespace animconv {
namespace {

namespace fs = std::filesystem;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool HasScheme(const std::string& uri) {
  // RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
  for (size_t i = 0; i < uri.size(); ++i) {
    const char c = uri[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (c == ':') return i > 0;
    if (!(alpha || (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')))) {
      return false;
    }
  }
  return false;
}

}  // namespace

std::string LoadResourceBeside(const std::string& input_path, const std::string& uri,
                               uint64_t max_bytes) {
  auto refuse = [&](const std::string& why) {
    throw Error(ErrorKind::kBadInput, input_path, "",
                fmt::format("refusing to read '{}': {}", uri, why));
  };
  if (uri.empty()) refuse("the URI is empty");
  if (HasScheme(uri)) refuse("only relative file names and data: URIs are read");
  std::string decoded;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%') {
      const int high = i + 2 < uri.size() ? HexValue(uri[i + 1]) : -1;
      const int low = i + 2 < uri.size() ? HexValue(uri[i + 2]) : -1;
      if (high < 0 || low < 0) refuse("bad percent-encoding");
      decoded += static_cast<char>(high * 16 + low);
      i += 2;
    } else {
      decoded += uri[i];
    }
  }
  if (decoded.find('\0') != std::string::npos) refuse("the name contains a NUL byte");
  if (decoded.find('\\') != std::string::npos) refuse("backslashes are not path separators here");
  if (decoded.front() == '/') refuse("absolute paths are not allowed");
  std::vector<std::string> parts;
  size_t begin = 0;
  while (begin <= decoded.size()) {
    const size_t end = std::min(decoded.find('/', begin), decoded.size());
    const std::string part = decoded.substr(begin, end - begin);
    if (part == "..") {
      if (parts.empty()) refuse("it leads out of the input's folder");
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    begin = end + 1;
  }
  if (parts.empty()) refuse("it names no file");
  const fs::path folder = fs::absolute(fs::path(input_path)).parent_path();
  fs::path target = folder;
  for (const std::string& part : parts) target /= part;
  // Symbolic links may point anywhere: compare the resolved paths too.
  std::error_code error;
  const fs::path real_folder = fs::weakly_canonical(folder, error);
  const fs::path real_target = fs::weakly_canonical(target, error);
  const std::string prefix = real_folder.string() + "/";
  if (error || real_target.string().compare(0, prefix.size(), prefix) != 0) {
    refuse("it resolves outside the input's folder");
  }
  return ReadFile(real_target.string(), max_bytes);
}

}  // namespace animconv
