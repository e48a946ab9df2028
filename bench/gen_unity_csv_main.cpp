// animconv_gen_unity_csv --rows N --interval S -o FILE
// Writes the deterministic synthetic walk (bench/synthetic_unity_csv.h) as a Unity exporter CSV.
// data/unity/walk.csv is: animconv_gen_unity_csv --rows 60 --interval 0.2 -o data/unity/walk.csv
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bench/synthetic_unity_csv.h"

namespace {

constexpr const char* kUsage = "usage: animconv_gen_unity_csv --rows N --interval S -o FILE\n";

int UsageError(const std::string& message) {
  std::fprintf(stderr, "animconv_gen_unity_csv: %s\n%s", message.c_str(), kUsage);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  long long rows = -1;
  double interval = 0;
  bool have_interval = false;
  std::string output;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (i + 1 >= argc) return UsageError("missing value after " + arg);
    const char* value = argv[++i];
    char* end = nullptr;
    errno = 0;
    if (arg == "--rows") {
      rows = std::strtoll(value, &end, 10);
      if (errno != 0 || end == value || *end != '\0' || rows < 1) {
        return UsageError(std::string("--rows must be a positive integer, got '") + value + "'");
      }
    } else if (arg == "--interval") {
      interval = std::strtod(value, &end);
      if (errno != 0 || end == value || *end != '\0' || !(interval > 0) ||
          !std::isfinite(interval)) {
        return UsageError(std::string("--interval must be a positive number of seconds, got '") +
                          value + "'");
      }
      have_interval = true;
    } else if (arg == "-o" || arg == "--output") {
      output = value;
    } else {
      return UsageError("unknown argument '" + arg + "'");
    }
  }
  if (rows < 1 || !have_interval || output.empty()) {
    return UsageError("--rows, --interval and -o are all required");
  }

  const std::string csv = animconv::bench::SyntheticUnityCsv(static_cast<size_t>(rows), interval);
  std::FILE* file = std::fopen(output.c_str(), "wb");
  if (!file) {
    std::fprintf(stderr, "animconv_gen_unity_csv: cannot open %s: %s\n", output.c_str(),
                 std::strerror(errno));
    return 3;
  }
  const size_t written = std::fwrite(csv.data(), 1, csv.size(), file);
  const bool ok = written == csv.size() && std::fflush(file) == 0;
  if (std::fclose(file) != 0 || !ok) {
    std::fprintf(stderr, "animconv_gen_unity_csv: cannot write %s: %s\n", output.c_str(),
                 std::strerror(errno));
    return 3;
  }
  return 0;
}
