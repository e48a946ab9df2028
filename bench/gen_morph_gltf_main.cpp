// animconv_gen_morph_gltf [--segments N] -o FILE
// Writes the deterministic morph cube (bench/synthetic_morph_gltf.h) as a .gltf.
// data/gltf/morph_cube.gltf is: animconv_gen_morph_gltf --segments 3 -o data/gltf/morph_cube.gltf
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bench/synthetic_morph_gltf.h"

namespace {

constexpr const char* kUsage = "usage: animconv_gen_morph_gltf [--segments N] -o FILE\n";
// Past this a uint16 index no longer addresses every vertex (6 faces of (N + 1)^2).
constexpr long kMaxSegments = 103;

int UsageError(const std::string& message) {
  std::fprintf(stderr, "animconv_gen_morph_gltf: %s\n%s", message.c_str(), kUsage);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  long segments = 3;
  std::string output;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (i + 1 >= argc) return UsageError("missing value after " + arg);
    const char* value = argv[++i];
    if (arg == "--segments") {
      char* end = nullptr;
      errno = 0;
      segments = std::strtol(value, &end, 10);
      if (errno != 0 || end == value || *end != '\0' || segments < 1 || segments > kMaxSegments) {
        return UsageError(std::string("--segments must be an integer from 1 to 103, got '") +
                          value + "'");
      }
    } else if (arg == "-o" || arg == "--output") {
      output = value;
    } else {
      return UsageError("unknown argument '" + arg + "'");
    }
  }
  if (output.empty()) return UsageError("-o is required");

  const std::string gltf = animconv::bench::SyntheticMorphCubeGltf(static_cast<int>(segments));
  std::FILE* file = std::fopen(output.c_str(), "wb");
  if (!file) {
    std::fprintf(stderr, "animconv_gen_morph_gltf: cannot open %s: %s\n", output.c_str(),
                 std::strerror(errno));
    return 3;
  }
  const size_t written = std::fwrite(gltf.data(), 1, gltf.size(), file);
  const bool ok = written == gltf.size() && std::fflush(file) == 0;
  if (std::fclose(file) != 0 || !ok) {
    std::fprintf(stderr, "animconv_gen_morph_gltf: cannot write %s: %s\n", output.c_str(),
                 std::strerror(errno));
    return 3;
  }
  return 0;
}
