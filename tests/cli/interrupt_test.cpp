// A signal in the middle of a write (cli/interrupt.cpp, RemovePendingTemporaryFiles in
// animconv/io.h): `convert` and `bake`, stopped by SIGINT or SIGTERM while their temporary file
// exists, leave no temporary file, no partial output, and an older output untouched; the process
// dies by that signal (the shell's 130/143).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"

extern char** environ;

namespace animconv {
namespace {

using testing::SourcePath;
using testing::TempDir;

bool HasTemporaryFile(const std::string& folder) {
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() == ".tmp") return true;
  }
  return false;
}

struct Interrupted {
  bool caught_mid_write = false;  // the signal came while the temporary file existed
  int status = 0;
};

// Starts animconv with `arguments` (output into `folder`), waits until its temporary file
// appears, sends `signal_number`, and waits for the end.
Interrupted InterruptMidWrite(const std::vector<std::string>& arguments, const std::string& folder,
                              int signal_number) {
  std::vector<std::string> argv_strings{ANIMCONV_BINARY};
  argv_strings.insert(argv_strings.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& argument : argv_strings) argv.push_back(argument.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  Interrupted result;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
    ADD_FAILURE() << "cannot start " << argv[0];
    return result;
  }
  posix_spawn_file_actions_destroy(&actions);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (HasTemporaryFile(folder)) {
      result.caught_mid_write = true;
      ::kill(pid, signal_number);
      break;
    }
    if (::waitpid(pid, &result.status, WNOHANG) == pid) return result;  // finished first
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  if (!result.caught_mid_write) ::kill(pid, SIGKILL);
  ::waitpid(pid, &result.status, 0);
  return result;
}

// The job, made larger until its write lasts long enough to be caught (the machine's speed
// varies); `size` scales the output.
void ExpectCleanInterruption(
    const std::function<std::vector<std::string>(int size, const std::string& output)>& job,
    int signal_number, bool with_old_output) {
  for (int size = 1; size <= 8; size *= 2) {
    TempDir dir;
    const std::string output = dir.File("out.json");
    if (with_old_output) testing::WriteText(output, "old output\n");
    const Interrupted run = InterruptMidWrite(job(size, output), dir.path(), signal_number);
    if (!run.caught_mid_write) continue;  // it finished before the poll saw its temporary file
    EXPECT_TRUE(WIFSIGNALED(run.status) && WTERMSIG(run.status) == signal_number)
        << "status " << run.status;
    EXPECT_FALSE(HasTemporaryFile(dir.path()));
    if (with_old_output) {
      EXPECT_EQ(testing::ReadText(output), "old output\n");
      EXPECT_EQ(dir.FileCount(), 1u);
    } else {
      EXPECT_EQ(dir.FileCount(), 0u);
    }
    return;
  }
  FAIL() << "never caught a write in progress";
}

std::vector<std::string> ConvertJob(int size, const std::string& output) {
  // walk.csv resampled at a high rate: ~70 MB of three.js JSON per size step.
  return {"convert",    SourcePath("data/unity/walk.csv"),
          "--resample", std::to_string(1500 * size),
          "-o",         output};
}

std::vector<std::string> BakeJob(int size, const std::string& output) {
  return {"bake",  SourcePath("data/gltf/morph_cube.gltf"),
          "--fps", std::to_string(2000 * size),
          "-o",    output};
}

TEST(InterruptTest, SigtermDuringConvertLeavesNothing) {
  ExpectCleanInterruption(ConvertJob, SIGTERM, false);
}

TEST(InterruptTest, CtrlCDuringConvertKeepsTheOldOutput) {
  ExpectCleanInterruption(ConvertJob, SIGINT, true);
}

TEST(InterruptTest, SigtermDuringBakeLeavesNothing) {
  ExpectCleanInterruption(BakeJob, SIGTERM, false);
}

TEST(InterruptTest, CtrlCDuringBakeKeepsTheOldOutput) {
  ExpectCleanInterruption(BakeJob, SIGINT, true);
}

}  // namespace
}  // namespace animconv
