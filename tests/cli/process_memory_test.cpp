// The whole-process memory bound of issue 14 (docs/reliability.md "Time and memory bounds"): the
// real `animconv convert`, as a child process, on a large input of each format it writes, to each
// format it writes, must peak at no more than 3 × (input + output bytes) + the binary's own
// baseline, by the kernel's count of its resident memory (wait4's ru_maxrss) rather than the
// fuzz harnesses' count of heap bytes. Prints the table docs/reliability.md shows.
//
// posix_spawn shares this process's memory until the exec, and the kernel carries the larger
// high-water mark over an exec: this test process stays small (it holds no input, only names).
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdio>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_process.h"
#include "test_support.h"

namespace animconv {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;
using testing::SourcePath;
using testing::TempDir;

// What `animconv convert` holds whatever its input: its code and that of the shared libraries
// it maps and touches (libstdc++, Boost, fmt, spdlog, Assimp), the format registry, the first
// stream buffers. Measured 10.0 MiB converting the 2.8 KB anim.csv (BaselineOfATinyInput,
// Release, GCC 12, Debian 12), plus 2 MiB: the size of the whole animconv binary, for the reader
// and writer code a tiny CSV does not touch.
constexpr double kBaselineMiB = 12;
constexpr double kBoundFactor = 3;  // × (input + output bytes)
// Every reader is held to it: the three.js clip and hierarchy JSON readers (once 4 and 8 here)
// stream their key arrays (formats/common/json_stream.h), and the glTF reader (once 4.5) decodes
// each accessor once, into its channel, with the GLB chunk read in place (docs/reliability.md,
// "The whole process").

struct Measured {
  int exit_code = -1;
  std::string errors;
  double peak_mib = 0;  // ru_maxrss
};

Measured Convert(const TempDir& dir, const std::vector<std::string>& arguments) {
  static int counter = 0;
  const std::string log = dir.File("stderr." + std::to_string(counter++));
  struct rusage usage {};
  Measured measured;
  measured.exit_code = testing::ExitCode(testing::Start(arguments, log), &usage);
  measured.errors = testing::ReadText(log);
  measured.peak_mib = static_cast<double>(usage.ru_maxrss) / 1024;
  return measured;
}

double MiB(const std::string& path) { return static_cast<double>(fs::file_size(path)) / (1 << 20); }

TEST(ProcessBaselineTest, BaselineOfATinyInput) {
  TempDir dir;
  const Measured run =
      Convert(dir, {"convert", SourcePath("data/unity/anim.csv"), "-o", dir.File("out.json")});
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  std::fprintf(stderr, "baseline: peak RSS %.1f MiB converting a 2.8 KB CSV\n", run.peak_mib);
  EXPECT_LE(run.peak_mib, kBaselineMiB);
  EXPECT_GT(run.peak_mib, 1.0);  // ru_maxrss read at all
}

struct Format {
  const char* id;
  const char* extension;
  std::vector<std::string> read_options;   // to read it back as written
  std::vector<std::string> write_options;  // for any input of the test
};

// Every format animconv writes (FBX and the other Assimp formats are read only: no large input
// can be made here). A Unity CSV stores neither its rate (read it back with the one it was
// written at) nor times (rows on a grid: the glTF float times are not exactly on one); a VRMA
// needs the facing, which the animconv CSV and hierarchy JSON do not record.
const std::vector<Format>& Formats() {
  static const std::vector<Format> formats = {
      {"unity-csv", ".unity.csv", {"--fps", "400"}, {"--fps", "400"}},
      {"csv", ".csv", {}, {}},
      {"three", ".json", {}, {}},
      {"three-hierarchy", ".hierarchy.json", {}, {}},
      {"gltf", ".gltf", {}, {}},
      {"glb", ".glb", {}, {}},
      {"vrma", ".vrma", {}, {"--source-facing", "-z"}},
      {"bvh", ".bvh", {}, {}},
  };
  return formats;
}

// Converts an input of `from` to every format, each within `factor` × (input + output bytes)
// + the baseline. The input: the 12 s walk resampled to 400 fps as a Unity CSV (6.9 MiB), then
// converted to `from` (the unity-csv input measures those conversions themselves). Prints the
// rows of docs/reliability.md's table.
void ExpectEveryOutputWithin(const Format& from, double factor) {
  TempDir dir;
  const std::string source = dir.File("source.unity.csv");
  {
    const Measured run = Convert(dir, {"convert", SourcePath("data/unity/walk.csv"), "--resample",
                                       "400", "-o", source, "--to", "unity-csv"});
    ASSERT_EQ(run.exit_code, 0) << run.errors;
  }
  const std::string input = dir.File(std::string("input") + from.extension);
  if (std::string(from.id) != "unity-csv") {
    const Measured run = Convert(dir, {"convert", source, "--fps", "400", "-o", input});
    ASSERT_EQ(run.exit_code, 0) << run.errors;
  } else {
    fs::rename(source, input);
  }
  std::string table;
  for (const Format& to : Formats()) {
    SCOPED_TRACE(std::string(from.id) + " -> " + to.id);
    const std::string output = dir.File(std::string("output") + to.extension);
    std::vector<std::string> arguments = {"convert", input};
    arguments.insert(arguments.end(), from.read_options.begin(), from.read_options.end());
    if (to.write_options != from.read_options) {  // unity-csv to unity-csv: one --fps for both
      arguments.insert(arguments.end(), to.write_options.begin(), to.write_options.end());
    }
    arguments.insert(arguments.end(), {"-o", output});
    const Measured run = Convert(dir, arguments);
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    const double bytes_mib = MiB(input) + MiB(output);
    char row[256];
    std::snprintf(row, sizeof row, "| %s | %s | %.1f | %.1f | %.1f | %.2f |\n", from.id, to.id,
                  MiB(input), MiB(output), run.peak_mib, (run.peak_mib - kBaselineMiB) / bytes_mib);
    table += row;
    EXPECT_LE(run.peak_mib, factor * bytes_mib + kBaselineMiB) << row;
    fs::remove(output);
  }
  std::fprintf(stderr, "| input | output | input MiB | output MiB | peak RSS MiB | ratio |\n%s",
               table.c_str());
}

// One input format (the test's parameter) to every format.
class ProcessMemoryTest : public ::testing::TestWithParam<Format> {};

TEST_P(ProcessMemoryTest, EveryOutputWithinTheBound) {
  ExpectEveryOutputWithin(GetParam(), kBoundFactor);
}

// For test names and failure messages: the format's id.
void PrintTo(const Format& format, std::ostream* out) { *out << format.id; }

// gtest names: letters, digits and '_'.
std::string TestName(const ::testing::TestParamInfo<Format>& format) {
  std::string name = format.param.id;
  for (char& c : name) c = c == '-' ? '_' : c;
  return name;
}

INSTANTIATE_TEST_SUITE_P(Formats, ProcessMemoryTest, ::testing::ValuesIn(Formats()), TestName);

}  // namespace
}  // namespace animconv
