// The bad-input corpus (tests/bad/cases.txt): every broken file must make the real
// `animconv convert` fail cleanly — the documented exit code, one error line naming the file, the
// location and what was expected, no output file, an existing output untouched, and the input
// byte-identical. Each run is bounded in time and memory, so a hang or a memory blow-up fails its
// case instead of the machine.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_support.h"

namespace animconv {
namespace {

namespace fs = std::filesystem;
using testing::ReadText;
using testing::TempDir;
using testing::WriteText;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// Far above what any corpus file needs, far below what a runaway allocation would take.
constexpr int kMemoryKiB = 1 << 20;
constexpr int kTimeoutSeconds = 60;

const std::string kCorpus = testing::SourcePath("tests/bad");

struct BadCase {
  std::string file;     // relative to tests/bad
  std::string options;  // extra `convert` options, {bad} = tests/bad
  int exit_code = 0;
  std::string location;  // "-" when the error has none; "{bad}/FILE:LOC" in another file
  std::string fragment;  // part of the message
  std::string name;      // gtest name
};

std::string Trim(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
}

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// Reads a manifest: "file | options | exit | location | fragment" per line, # comments.
std::vector<BadCase> LoadCases(const std::string& manifest) {
  std::ifstream in(manifest);
  if (!in) throw std::runtime_error("cannot read " + manifest);
  std::vector<BadCase> cases;
  std::set<std::string> names;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (Trim(line).empty() || Trim(line)[0] == '#') continue;
    std::vector<std::string> fields;
    std::istringstream split(line);
    // The fragment is last and may contain '|', so split at the first four only.
    for (std::string field; fields.size() < 4 && std::getline(split, field, '|');) {
      fields.push_back(Trim(field));
    }
    std::string rest;
    std::getline(split, rest);
    fields.push_back(Trim(rest));
    if (fields.size() != 5 || fields[0].empty() || fields[4].empty()) {
      throw std::runtime_error(manifest + ":" + std::to_string(number) + ": expected 5 fields");
    }
    BadCase c{fields[0], fields[1], std::stoi(fields[2]), fields[3], fields[4], ""};
    // A case about another file the options name (a --bone-map file) is named after that file.
    const std::string named = c.location.rfind("{bad}/", 0) == 0
                                  ? c.location.substr(6, c.location.find(':') - 6)
                                  : c.file;
    for (const char ch : named) c.name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
    if (c.options.find("--from") == std::string::npos) c.name += "_detected";
    while (!names.insert(c.name).second) c.name += "_again";
    cases.push_back(std::move(c));
  }
  return cases;
}

struct CommandRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

CommandRun RunAnimconv(const std::string& arguments) {
  // ASan reserves terabytes of address space for its shadow memory, so under ASan the bound is
  // its own resident-memory watchdog instead.
  std::string command = kAddressSanitizer ? "ASAN_OPTIONS=\"$ASAN_OPTIONS:hard_rss_limit_mb=" +
                                                std::to_string(kMemoryKiB >> 10) + "\" "
                                          : "ulimit -v " + std::to_string(kMemoryKiB) + "; ";
  command += "exec timeout " + std::to_string(kTimeoutSeconds) + " " ANIMCONV_BINARY " " +
             arguments + " 2>&1";
  CommandRun run;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + command);
  std::array<char, 4096> buffer{};
  for (size_t got; (got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) {
    run.output.append(buffer.data(), got);
  }
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::set<std::string> FilesIn(const std::string& folder) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

// The error line `animconv: error: FILE:LOCATION: ...fragment...`, printed once, nothing else.
// FILE is the input, or the file a "{bad}/FILE:LOCATION" location names.
void ExpectOneErrorLine(const CommandRun& run, const std::string& input, int exit_code,
                        const std::string& location, const std::string& fragment) {
  std::string prefix = "animconv: error: ";
  if (location.rfind("{bad}/", 0) == 0) {
    prefix += ReplaceAll(location, "{bad}", kCorpus) + ": ";
  } else if (exit_code != 1) {
    prefix += input + (location == "-" ? "" : ":" + location) + ": ";
  }
  EXPECT_EQ(run.output.rfind(prefix, 0), 0u) << "expected the line to start with: " << prefix;
  EXPECT_NE(run.output.find(fragment, prefix.size()), std::string::npos)
      << "expected the message to contain: " << fragment;
  EXPECT_EQ(run.output.find('\n'), run.output.size() - 1) << "expected exactly one line";
  for (const char* internals : {"std::", "basic_string", "what()", "terminate called"}) {
    EXPECT_EQ(run.output.find(internals), std::string::npos) << "leaks '" << internals << "'";
  }
}

// Converts `source` (copied into a fresh folder) twice: into a new output, then over an existing
// one; both must fail as described and leave the folder as it was.
void ExpectCleanFailure(const std::string& source, const std::string& options, int exit_code,
                        const std::string& location, const std::string& fragment) {
  TempDir dir;
  const std::string name = fs::path(source).filename().string();
  const std::string input = dir.File(name);
  fs::copy_file(source, input);
  const std::string original = ReadText(source);
  const std::string output = dir.File("out.json");
  // -q: errors only, so the error line is the whole output.
  const std::string arguments =
      "-q convert " + input + " -o " + output + " " + ReplaceAll(options, "{bad}", kCorpus);

  const CommandRun fresh = RunAnimconv(arguments);
  SCOPED_TRACE("animconv " + arguments + "\n" + fresh.output);
  EXPECT_EQ(fresh.exit_code, exit_code);
  ExpectOneErrorLine(fresh, input, exit_code, location, fragment);
  EXPECT_EQ(FilesIn(dir.path()), std::set<std::string>{name}) << "a file was left behind";
  EXPECT_EQ(ReadText(input), original) << "the input changed";

  const std::string existing = "an existing output\n";
  WriteText(output, existing);
  const CommandRun over = RunAnimconv(arguments);
  EXPECT_EQ(over.exit_code, exit_code);
  EXPECT_EQ(over.output, fresh.output);
  EXPECT_EQ(ReadText(output), existing) << "the existing output changed";
  EXPECT_EQ(FilesIn(dir.path()), (std::set<std::string>{name, "out.json"}))
      << "a file was left behind";
  EXPECT_EQ(ReadText(input), original) << "the input changed";
}

// gtest prints the parameter of a failing case; the file says which one it was.
void PrintTo(const BadCase& c, std::ostream* out) { *out << c.file << " " << c.options; }

class BadCorpusTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadCorpusTest, FailsCleanly) {
  const BadCase& c = GetParam();
  ExpectCleanFailure(kCorpus + "/" + c.file, c.options, c.exit_code, c.location, c.fragment);
}

std::string CaseName(const ::testing::TestParamInfo<BadCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(bad, BadCorpusTest, ::testing::ValuesIn(LoadCases(kCorpus + "/cases.txt")),
                         CaseName);
// Known failures, waiting for a reader fix (tests/bad/pending/cases.txt).
INSTANTIATE_TEST_SUITE_P(DISABLED_bad_pending, BadCorpusTest,
                         ::testing::ValuesIn(LoadCases(kCorpus + "/pending/cases.txt")), CaseName);

TEST(BadInputLimitsTest, InputsOverMaxInputMbAreRefusedBeforeReading) {
  TempDir dir;
  const std::string big = dir.File("big.csv");
  WriteText(big, "");
  fs::resize_file(big, 3u << 20);  // sparse: no disk, and the reader never runs
  const CommandRun run =
      RunAnimconv("convert " + big + " -o " + dir.File("out.json") + " --max-input-mb 1");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  ExpectOneErrorLine(run, big, 2, "-", "file is 3 MiB, larger than the limit of 1 MiB");
  EXPECT_EQ(FilesIn(dir.path()), std::set<std::string>{"big.csv"});
}

// unity-csv reserves its keys before parsing: from the newline count alone, 4 MiB of blank lines
// around one row would ask for ~9 GB. Memory must follow what the bytes can hold.
TEST(BadInputLimitsTest, BlankLinesDoNotMultiplyMemory) {
  if (kAddressSanitizer) GTEST_SKIP() << "ASan reserves more address space than the limit";
  TempDir dir;
  const std::string input = dir.File("padded.csv");
  const std::string rows = ReadText(testing::SourcePath("data/unity/anim.csv"));
  WriteText(input, rows.substr(0, rows.find('\n') + 1) + std::string(4u << 20, '\n'));
  const CommandRun run = RunAnimconv("convert " + input + " -o " + dir.File("out.json"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
}

// The output may not be any input: `--bones FILE` and `--bone-map FILE` are inputs too.
TEST(BadInputLimitsTest, OutputMayNotBeTheBoneList) {
  TempDir dir;
  const std::string bones = dir.File("bone.txt");
  fs::copy_file(testing::SourcePath("data/unity/bone.txt"), bones);
  const std::string original = ReadText(bones);
  const CommandRun run = RunAnimconv("-q convert " + testing::SourcePath("data/unity/anim.csv") +
                                     " --bones " + bones + " -o " + bones + " --to unity-csv");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_EQ(run.output, "animconv: error: the output '" + bones +
                            "' is the --bones list; choose another name\n");
  EXPECT_EQ(ReadText(bones), original);
  EXPECT_EQ(FilesIn(dir.path()), std::set<std::string>{"bone.txt"});
}

TEST(BadInputLimitsTest, OutputMayNotBeTheBoneMap) {
  TempDir dir;
  const std::string map = dir.File("map.csv");
  const std::string original = "Hips,pelvis\n";
  WriteText(map, original);
  // Another spelling of the same file: the check compares files, not names.
  const CommandRun run =
      RunAnimconv("-q convert " + testing::SourcePath("data/unity/anim.csv") + " --bone-map " +
                  map + " -o " + dir.path() + "/./map.csv --to csv");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("is the --bone-map file; choose another name"), std::string::npos)
      << run.output;
  EXPECT_EQ(ReadText(map), original);
  EXPECT_EQ(FilesIn(dir.path()), std::set<std::string>{"map.csv"});
}

}  // namespace
}  // namespace animconv
