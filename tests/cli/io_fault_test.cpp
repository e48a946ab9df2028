// Failing system calls injected into the real binary (docs/reliability.md "Faults"): the
// LD_PRELOAD library tests/cli/fault_shim.cpp fails the chosen call with the chosen errno (a
// failing disk's EIO on write, fsync or read, a disk filling mid-write, NFS reporting a write
// error at close, a failed rename, the folder's fsync after the rename). Each write fault must
// leave no temporary file and an older output byte for byte; a read fault must name the input.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "animconv/convert.h"
#include "cli/cli_process.h"
#include "test_support.h"

namespace animconv {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;
using testing::Copies;
using testing::ReadText;
using testing::SourcePath;
using testing::TempDir;
using testing::Tree;

const std::string kOld = "old output\n";

// The environment that loads the shim with `rule` (fault_shim.cpp's ANIMCONV_FAULT). The
// sanitizer build's runtime refuses a preloaded library ahead of it unless told not to check.
std::vector<std::string> WithFault(const std::string& rule) {
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string asan_options =
      (asan && *asan ? std::string(asan) + ":" : "") + "verify_asan_link_order=0";
  return {"LD_PRELOAD=" ANIMCONV_FAULT_SHIM, "ANIMCONV_FAULT=" + rule,
          "ASAN_OPTIONS=" + asan_options};
}

CliRun RunWithFault(const TempDir& dir, const std::string& rule,
                    const std::vector<std::string>& arguments) {
  return testing::RunCli(dir, arguments, WithFault(rule));
}

std::string ErrorLine(const std::string& file, const std::string& message) {
  return "animconv: error: " + file + ": " + message + "\n";
}

struct WriteFault {
  std::string rule;
  std::string message;  // after "FILE: "
};

// Every way the write of the temporary file can fail before the rename: the output is not
// replaced, no temporary is left, exit 3 with the output's name and the errno's text.
const WriteFault kWriteFaults[] = {
    {"fsync:EIO", "cannot flush output: Input/output error"},
    {"close:EIO", "cannot write output (reported on close): Input/output error"},
    {"write:ENOSPC:after=65536", "cannot write output: No space left on device"},
    {"write:EIO", "cannot write output: Input/output error"},
    {"fsync:ENOSPC", "cannot flush output: No space left on device"},
    {"rename:EXDEV", "cannot move output into place: Invalid cross-device link"},
};

TEST(IoFaultTest, ShimRefusesAnUnknownRule) {
  TempDir dir;
  const CliRun run = RunWithFault(dir, "fsink:EIO", {"formats"});
  EXPECT_EQ(run.exit_code, 99);
  EXPECT_EQ(run.errors, "fault_shim: ANIMCONV_FAULT rule 'fsink:EIO': unknown call\n");
}

TEST(IoFaultTest, FailedWriteOfConvertNamesTheOutputAndKeepsTheOldOne) {
  TempDir dir;
  const std::string input = SourcePath("data/unity/walk.csv");
  ASSERT_EQ(testing::RunCli(dir, {"convert", input, "-o", dir.File("clean.json")}).exit_code, 0);
  ASSERT_GT(fs::file_size(dir.File("clean.json")), 65536u);  // so after=65536 cuts it short
  for (const WriteFault& fault : kWriteFaults) {
    for (const bool with_old : {true, false}) {
      SCOPED_TRACE(fault.rule + (with_old ? ", older output" : ", no older output"));
      const std::string folder = dir.File(with_old ? "old" : "new");
      fs::remove_all(folder);
      fs::create_directories(folder);
      const std::string output = folder + "/out.json";
      if (with_old) testing::WriteText(output, kOld);
      const CliRun run = RunWithFault(dir, fault.rule, {"convert", input, "-o", output});
      EXPECT_EQ(run.exit_code, 3);
      EXPECT_EQ(run.errors, ErrorLine(output, fault.message));
      const auto expected = with_old ? std::map<std::string, std::string>{{"out.json", kOld}}
                                     : std::map<std::string, std::string>{};
      EXPECT_EQ(Tree(folder), expected);
    }
  }
}

// Past its first 8 MiB an output goes to the disk directly (libconvert/file_appender.h): a
// write that fails there, at its first direct write or in the middle of one, is reported as any
// other, and the older output is kept.
TEST(IoFaultTest, FailedDirectWriteOfALargeOutputKeepsTheOldOne) {
  TempDir dir;
  const std::string input = SourcePath("data/unity/walk.csv");
  const std::vector<std::string> resample = {"--resample", "1000"};  // about 21 MB of JSON
  std::vector<std::string> clean = {"convert", input, "-o", dir.File("clean.json")};
  clean.insert(clean.end(), resample.begin(), resample.end());
  ASSERT_EQ(testing::RunCli(dir, clean).exit_code, 0);
  ASSERT_GT(fs::file_size(dir.File("clean.json")), size_t{16} << 20);
  const WriteFault faults[] = {
      {"write:EIO:after=8388608", "cannot write output: Input/output error"},
      {"write:ENOSPC:after=9437184", "cannot write output: No space left on device"},
  };
  for (const WriteFault& fault : faults) {
    SCOPED_TRACE(fault.rule);
    const std::string output = dir.File("out.json");
    testing::WriteText(output, kOld);
    std::vector<std::string> arguments = {"convert", input, "-o", output};
    arguments.insert(arguments.end(), resample.begin(), resample.end());
    const CliRun run = RunWithFault(dir, fault.rule, arguments);
    EXPECT_EQ(run.exit_code, 3);
    EXPECT_EQ(run.errors, ErrorLine(output, fault.message));
    EXPECT_EQ(ReadText(output), kOld);
    EXPECT_EQ(testing::TemporaryCount(dir.path()), 0u);
  }
}

// The output is renamed into place before its folder is synced: a failure there is an error
// (the rename may not survive a crash) but the output is whole, and left where it is.
TEST(IoFaultTest, FailedFolderSyncIsAnErrorWithTheOutputWholeInPlace) {
  TempDir dir;
  const std::string input = SourcePath("data/unity/walk.csv");
  ASSERT_EQ(testing::RunCli(dir, {"convert", input, "-o", dir.File("clean.json")}).exit_code, 0);
  fs::create_directories(dir.File("out"));
  const std::string output = dir.File("out/out.json");
  testing::WriteText(output, kOld);
  const CliRun run = RunWithFault(dir, "fsync:EIO:dir", {"convert", input, "-o", output});
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_EQ(
      run.errors,
      ErrorLine(output, "written, but its folder cannot be flushed to disk: Input/output error"));
  EXPECT_EQ(Tree(dir.File("out")),
            (std::map<std::string, std::string>{{"out.json", ReadText(dir.File("clean.json"))}}));
}

// A read error is the disk's fault, not the input's: exit 3 (I/O), naming the file read, never
// a parse error about a truncated file (exit 2), and nothing written.
TEST(IoFaultTest, FailedReadNamesTheInputAsAnIoError) {
  TempDir dir;
  const std::string input = dir.File("walk.csv");
  fs::copy_file(SourcePath("data/unity/walk.csv"), input);
  ASSERT_GT(fs::file_size(input), 65536u);  // read in 64 KiB blocks: after=65536 fails the 2nd
  for (const std::string rule : {"read:EIO:path=walk.csv", "read:EIO:path=walk.csv:after=65536"}) {
    SCOPED_TRACE(rule);
    for (const std::string command : {"convert", "info"}) {
      std::vector<std::string> arguments = {command, input};
      if (command == "convert") arguments.insert(arguments.end(), {"-o", dir.File("out.json")});
      const CliRun run = RunWithFault(dir, rule, arguments);
      EXPECT_EQ(run.exit_code, 3);
      EXPECT_EQ(run.errors, ErrorLine(input, "cannot read input: Input/output error"));
      EXPECT_FALSE(fs::exists(dir.File("out.json")));
    }
  }
  // A glTF's external buffer: the error names the .bin, and the .gltf's pointer to it.
  const std::string morph = std::string(ANIMCONV_SHARED_DATA_DIR) +
                            "/morph/khronos_AnimatedMorphCube/glTF/AnimatedMorphCube";
  ASSERT_TRUE(fs::exists(morph + ".bin"));
  const CliRun run = RunWithFault(dir, "read:EIO:path=AnimatedMorphCube.bin",
                                  {"convert", morph + ".gltf", "-o", dir.File("morph.json")});
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_EQ(run.errors, ErrorLine(fs::canonical(morph + ".bin").string() + ":/buffers/0/uri",
                                  "cannot read input: Input/output error"));
  EXPECT_FALSE(fs::exists(dir.File("morph.json")));
}

// One file of a batch failing its fsync fails alone, with its message; the others are written
// as a clean run writes them; exit 3. The report says which.
// A Unity CSV of at least 8 MiB, which animconv reads in place (libconvert/mapped_input.h):
// walk.csv's rows over and over.
std::string LargeUnityCsv(const TempDir& dir) {
  const std::string rows = ReadText(SourcePath("data/unity/walk.csv"));
  std::string text;
  while (text.size() < (size_t{9} << 20)) text += rows;
  const std::string path = dir.File("large.csv");
  testing::WriteText(path, text);
  return path;
}

// An input read in place and truncated by another program meanwhile: its bytes past the cut read
// as zeros (not a SIGBUS), and the job fails with exit 3 naming the input, writing nothing. Read
// whole, the same file converts to what the library reads from it with read().
TEST(IoFaultTest, AnInputCutShortWhileReadInPlaceIsAnIoErrorAndWritesNothing) {
  TempDir dir;
  const std::string input = LargeUnityCsv(dir);
  const std::string output = dir.File("large.json");
  const CliRun whole = testing::RunCli(dir, {"convert", input, "-o", output});
  ASSERT_EQ(whole.exit_code, 0) << whole.errors;
  ConvertFile(input, dir.File("read.json"), ConvertOptions{});
  EXPECT_EQ(ReadText(output), ReadText(dir.File("read.json")));
  fs::remove(output);
  fs::remove(dir.File("read.json"));

  const CliRun cut = RunWithFault(dir, "mmap:CUT:path=large.csv", {"convert", input, "-o", output});
  EXPECT_EQ(cut.exit_code, 3) << cut.errors;
  EXPECT_EQ(cut.errors, ErrorLine(input,
                                  "the file was cut short while it was read (truncated by another "
                                  "program?); nothing was written"));
  EXPECT_LT(fs::file_size(input), size_t{5} << 20);  // the shim did cut it
  EXPECT_FALSE(fs::exists(output));
  for (const auto& [name, bytes] : Tree(dir.path())) {
    EXPECT_EQ(name.find(".tmp"), std::string::npos) << "left: " << name;
  }
}

// A large input given as a named pipe (`<(...)`, `mkfifo`) is read once, whole: the program
// writing into it never finds the pipe without a reader. Looking at the input before reading it
// used to open and close the pipe, and a writer that wrote in that moment got EPIPE (SIGPIPE in a
// shell) while the read waited for a writer that was gone (a race the CLI mostly won;
// MappedInputTest.ANamedPipeIsOpenedOnceAndReadWhole lost it every time). The writer here opens
// the pipe again after an EPIPE, so that the run ends either way, and reports how many writes the
// pipe refused.
TEST(IoFaultTest, ALargeInputFromANamedPipeIsReadWhole) {
  TempDir dir;
  const std::string file = LargeUnityCsv(dir);
  const std::string text = ReadText(file);
  const std::string pipe = dir.File("large.pipe");
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
  const pid_t writer = ::fork();
  if (writer == 0) {
    ::signal(SIGPIPE, SIG_IGN);
    ::alarm(60);
    int refused = 0;
    for (size_t done = 0; done < text.size();) {
      const int fd = ::open(pipe.c_str(), O_WRONLY);
      if (fd < 0) std::_Exit(100);
      while (done < text.size()) {
        const ssize_t put = ::write(fd, text.data() + done, text.size() - done);
        if (put < 0) break;
        done += static_cast<size_t>(put);
      }
      ::close(fd);
      if (done < text.size()) ++refused;  // EPIPE: the reader went away
    }
    std::_Exit(refused);
  }
  const CliRun run =
      testing::RunCli(dir, {"convert", pipe, "--from", "unity-csv", "-o", dir.File("pipe.json")});
  int status = 0;
  ASSERT_EQ(::waitpid(writer, &status, 0), writer);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "writes the pipe refused";
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  ConvertFile(file, dir.File("file.json"), ConvertOptions{});
  EXPECT_EQ(ReadText(dir.File("pipe.json")), ReadText(dir.File("file.json")));
}

// A process that can start no more threads (a limit on threads: pthread_create says EAGAIN)
// converts on the threads it has. Before, a large file's parallel parse, formatting or streamed
// write ended with "internal error: Resource temporarily unavailable", and `batch -j 3` with one
// thread started and the next refused was killed by std::terminate (found in review, session 32).
// In a sanitizer build the sanitizer's own pthread_create comes first and the rule changes
// nothing; the runs must pass all the same.
TEST(IoFaultTest, NoThreadToBeHadIsNoError) {
  TempDir dir;
  const std::string input = LargeUnityCsv(dir);
  ASSERT_EQ(testing::RunCli(dir, {"convert", input, "-o", dir.File("clean.json")}).exit_code, 0);
  for (const std::string rule : {"thread:EAGAIN", "thread:EAGAIN:after=1"}) {
    SCOPED_TRACE(rule);
    const std::string output = dir.File("out.json");
    const CliRun run = RunWithFault(dir, rule, {"convert", input, "-o", output});
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    EXPECT_EQ(ReadText(output), ReadText(dir.File("clean.json")));
  }
  Copies(SourcePath("data/unity/walk.csv"), dir.File("in"), 4);
  const std::vector<std::string> batch = {"batch", dir.File("in"), "--to", "three", "-j", "3"};
  std::vector<std::string> clean = batch;
  clean.insert(clean.end(), {"-o", dir.File("batch_clean")});
  ASSERT_EQ(testing::RunCli(dir, clean).exit_code, 0);
  std::vector<std::string> limited = batch;
  limited.insert(limited.end(), {"-o", dir.File("batch_out")});
  const CliRun run = RunWithFault(dir, "thread:EAGAIN:after=1", limited);
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_EQ(Tree(dir.File("batch_out")), Tree(dir.File("batch_clean")));
}

TEST(IoFaultTest, BatchWithOneFailingFileWritesTheOthers) {
  TempDir dir;
  Copies(SourcePath("data/unity/walk.csv"), dir.File("in"), 3);
  const std::vector<std::string> batch = {"batch", dir.File("in"), "--to", "three", "-j", "2"};
  auto with = [&](std::vector<std::string> more) {
    more.insert(more.begin(), batch.begin(), batch.end());
    return more;
  };
  ASSERT_EQ(testing::RunCli(dir, with({"-o", dir.File("clean")})).exit_code, 0);
  const std::string out = dir.File("out");
  const CliRun run = RunWithFault(dir, "fsync:EIO:path=001.json",
                                  with({"-o", out, "--report", dir.File("report.json")}));
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_NE(run.errors.find(out + "/001.json: cannot flush output: Input/output error"),
            std::string::npos)
      << run.errors;
  auto expected = Tree(dir.File("clean"));
  expected.erase("001.json");
  EXPECT_EQ(Tree(out), expected);
  const nlohmann::json report = nlohmann::json::parse(ReadText(dir.File("report.json")));
  std::map<std::string, std::string> statuses;
  for (const nlohmann::json& file : report["files"]) {
    statuses[fs::path(file["output"].get<std::string>()).filename().string()] = file["status"];
  }
  EXPECT_EQ(statuses,
            (std::map<std::string, std::string>{
                {"000.json", "converted"}, {"001.json", "failed"}, {"002.json", "converted"}}));
}

// The batch report is written like an output: its own failure is reported, exit 3.
TEST(IoFaultTest, BatchReportWriteFailureIsAnIoError) {
  TempDir dir;
  const std::string report = dir.File("report.json");
  const CliRun run = RunWithFault(dir, "fsync:EIO:path=report.json",
                                  {"batch", SourcePath("data/unity/anim.csv"), "-o",
                                   dir.File("out"), "--to", "three", "--report", report});
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_NE(run.errors.find(ErrorLine(report, "cannot flush output: Input/output error")),
            std::string::npos)
      << run.errors;
  EXPECT_FALSE(fs::exists(report));
  EXPECT_EQ(Tree(dir.File("out")).size(), 1u);  // the converted file itself is written
}

TEST(IoFaultTest, FailedWriteOfBakeKeepsTheOldOutput) {
  TempDir dir;
  const std::string input = SourcePath("data/gltf/morph_cube.gltf");
  for (const WriteFault& fault : {kWriteFaults[0], kWriteFaults[1], kWriteFaults[3]}) {
    SCOPED_TRACE(fault.rule);
    const std::string output = dir.File("frames.json");
    testing::WriteText(output, kOld);
    const CliRun run = RunWithFault(dir, fault.rule, {"bake", input, "-o", output});
    EXPECT_EQ(run.exit_code, 3);
    EXPECT_EQ(run.errors, ErrorLine(output, fault.message));
    EXPECT_EQ(ReadText(output), kOld);
    EXPECT_EQ(testing::TemporaryCount(dir.path()), 0u);
  }
}

}  // namespace
}  // namespace animconv
