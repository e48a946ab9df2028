// Fault injection against the real binary (docs/reliability.md "Faults"): a full disk and a
// read-only folder (a tmpfs mounted by the test), an output folder removed mid-batch, SIGKILL in
// the middle of a batch and of a write, two processes writing one output. Mounting needs root (CI
// runs as root); without it those tests report themselves SKIPPED with the reason.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli_process.h"
#include "test_support.h"

namespace animconv {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;
using testing::Copies;
using testing::ExitCode;
using testing::Names;
using testing::ReadText;
using testing::RunCli;
using testing::SourcePath;
using testing::Start;
using testing::TempDir;
using testing::TemporaryCount;
using testing::Tree;

// The test's mounts live in a mount namespace of its own (inherited by the animconv it starts),
// so a test that crashes leaves nothing mounted on the machine.
void PrivateMounts() {
  static const bool done = ::unshare(CLONE_NEWNS) == 0 &&
                           ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0;
  (void)done;  // without it, mounts go to the shared namespace and are undone by ~Tmpfs
}

class Tmpfs {
 public:
  Tmpfs(const std::string& dir, const std::string& size) : dir_(dir) {
    fs::create_directories(dir_);
    PrivateMounts();
    const std::string options = "size=" + size;
    if (::mount("tmpfs", dir_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) != 0) {
      error_ = std::string("cannot mount a tmpfs (needs root): ") + std::strerror(errno);
    }
  }
  ~Tmpfs() {
    if (error_.empty()) ::umount2(dir_.c_str(), MNT_DETACH);
  }
  Tmpfs(const Tmpfs&) = delete;
  Tmpfs& operator=(const Tmpfs&) = delete;
  const std::string& error() const { return error_; }
  std::string ReadOnly() {
    if (::mount(nullptr, dir_.c_str(), nullptr, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV,
                nullptr) != 0) {
      return std::string("cannot remount the tmpfs read-only: ") + std::strerror(errno);
    }
    return "";
  }

 private:
  std::string dir_;
  std::string error_;
};

// Polls until `count` outputs (not temporaries) exist under `folder`.
void WaitForOutputs(const std::string& folder, size_t count) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    size_t outputs = 0;
    for (const std::string& name : Names(folder)) outputs += fs::path(name).extension() != ".tmp";
    if (outputs >= count) return;
    std::this_thread::sleep_for(std::chrono::microseconds(300));
  }
  ADD_FAILURE() << "no " << count << " outputs in 60 s";
}

const std::string kOld = "old output\n";

TEST(FaultTest, FullDiskNamesTheOutputAndLeavesTheOldOne) {
  TempDir dir;
  const std::string input = SourcePath("data/unity/walk.csv");
  ASSERT_EQ(RunCli(dir, {"convert", input, "-o", dir.File("clean.json")}).exit_code, 0);
  ASSERT_GT(fs::file_size(dir.File("clean.json")), 65536u);  // larger than the disk
  Tmpfs disk(dir.File("disk"), "64k");
  if (!disk.error().empty()) GTEST_SKIP() << disk.error();
  for (const bool with_old : {true, false}) {
    const std::string output = dir.File("disk/out.json");
    if (with_old) testing::WriteText(output, kOld);
    const CliRun run = RunCli(dir, {"convert", input, "-o", output});
    EXPECT_EQ(run.exit_code, 3) << run.errors;
    EXPECT_EQ(run.errors,
              "animconv: error: " + output + ": cannot write output: No space left on device\n");
    const auto left = Tree(dir.File("disk"));
    if (with_old) {
      EXPECT_EQ(left, (std::map<std::string, std::string>{{"out.json", kOld}}));
      fs::remove(output);
    } else {
      EXPECT_TRUE(left.empty()) << left.size() << " files left";
    }
  }
  // A batch: each file fails naming its output; nothing is left on the disk.
  Copies(input, dir.File("in"), 3);
  const CliRun run = RunCli(
      dir, {"batch", dir.File("in"), "-o", dir.File("disk/out"), "--to", "three", "-j", "2"});
  EXPECT_EQ(run.exit_code, 3) << run.errors;
  for (const char* name : {"000", "001", "002"}) {
    EXPECT_NE(run.errors.find(dir.File("disk/out/") + name +
                              ".json: cannot write output: No space left on device"),
              std::string::npos)
        << run.errors;
  }
  EXPECT_TRUE(Tree(dir.File("disk")).empty());
}

TEST(FaultTest, UnwritableFolderIsAnIoErrorAndKeepsTheOldOutput) {
  TempDir dir;
  const std::string input = SourcePath("data/unity/anim.csv");
  {
    Tmpfs disk(dir.File("ro"), "1m");
    if (!disk.error().empty()) GTEST_SKIP() << disk.error();
    const std::string output = dir.File("ro/out.json");
    testing::WriteText(output, kOld);
    const std::string remount = disk.ReadOnly();
    if (!remount.empty()) GTEST_SKIP() << remount;
    CliRun run = RunCli(dir, {"convert", input, "-o", output});
    EXPECT_EQ(run.exit_code, 3);
    EXPECT_EQ(run.errors,
              "animconv: error: " + output + ": cannot create output: Read-only file system\n");
    EXPECT_EQ(Tree(dir.File("ro")), (std::map<std::string, std::string>{{"out.json", kOld}}));
    run = RunCli(dir, {"batch", input, "-o", dir.File("ro/sub"), "--to", "three"});
    EXPECT_EQ(run.exit_code, 3);
    EXPECT_NE(run.errors.find(dir.File("ro/sub") + ": cannot create the output folder"),
              std::string::npos)
        << run.errors;
  }
  // The output's folder is a regular file (works as root too).
  testing::WriteText(dir.File("file"), kOld);
  const std::string output = dir.File("file/out.json");
  const CliRun run = RunCli(dir, {"convert", input, "-o", output});
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_EQ(run.errors, "animconv: error: " + output + ": cannot create output: '" +
                            dir.File("file") + "' is not a folder: Not a directory\n");
}

TEST(FaultTest, OutputFolderRemovedMidBatch) {
  TempDir dir;
  Copies(SourcePath("data/unity/anim.csv"), dir.File("in"), 200);
  const std::string out = dir.File("out");
  const pid_t pid = Start({"batch", dir.File("in"), "-o", out, "--to", "three", "-j", "2",
                           "--report", dir.File("report.json")},
                          dir.File("stderr"));
  ASSERT_GT(pid, 0);
  // Remove the folder once 20 outputs exist, as `mv out gone && rm -r gone` would: at once (a
  // plain remove_all races with the files renamed into the folder meanwhile). `gone` itself is
  // removed once the batch has ended: a write already open in it may still add or unlink its
  // temporary there, which made a throwing remove_all fail the test now and then.
  WaitForOutputs(out, 20);
  fs::rename(out, dir.File("gone"));
  EXPECT_EQ(ExitCode(pid), 3);
  std::error_code ignored;
  fs::remove_all(dir.File("gone"), ignored);
  EXPECT_FALSE(fs::exists(out));  // nothing recreated it, no temporary left in it
  const nlohmann::json report = nlohmann::json::parse(ReadText(dir.File("report.json")));
  size_t failed = 0;
  for (const nlohmann::json& file : report["files"]) {
    if (file["status"] == "converted" || file["status"] == "not started") continue;
    ++failed;
    EXPECT_EQ(file["status"], "failed");
    const std::string message = file["message"];
    EXPECT_EQ(message.rfind(file["output"].get<std::string>() + ": cannot ", 0), 0u) << message;
    EXPECT_TRUE(message.find(": the folder '" + out + "' does not exist (or was removed)") !=
                    std::string::npos ||
                message.find(": the temporary file was removed during the write") !=
                    std::string::npos)
        << message;
  }
  // The batch stops at the first file the missing folder fails (plus those already in flight on
  // the other job): the rest are not started, each saying why, and so does stderr.
  size_t not_started = 0;
  for (const nlohmann::json& file : report["files"]) {
    if (file["status"] != "not started") continue;
    ++not_started;
    EXPECT_EQ(file["message"],
              "not started: the output folder '" + out + "' was removed during the batch");
  }
  EXPECT_GE(failed, 1u);
  EXPECT_LE(failed, 4u);
  EXPECT_GT(not_started, 150u);
  EXPECT_NE(ReadText(dir.File("stderr"))
                .find("stopped: not started: the output folder '" + out + "' was removed"),
            std::string::npos);
  std::cerr << failed << " failed, " << not_started << " not started of 200\n";
}

// A `batch` of 40 copies of walk.csv in DIR/in, resampled to 60 fps (1.4 MB outputs, so a signal
// often lands while a temporary exists); the function appends the options given to it.
std::function<std::vector<std::string>(std::vector<std::string>)> ResampledBatch(
    const TempDir& dir) {
  Copies(SourcePath("data/unity/walk.csv"), dir.File("in"), 40);
  const std::vector<std::string> batch = {"batch", dir.File("in"), "--to", "three", "-j",
                                          "2",     "--resample",   "60"};
  return [batch](std::vector<std::string> more) {
    more.insert(more.begin(), batch.begin(), batch.end());
    return more;
  };
}

TEST(FaultTest, SigkillMidBatchThenSkipExistingCompletesEveryOutputWhole) {
  TempDir dir;
  const auto with = ResampledBatch(dir);
  ASSERT_EQ(RunCli(dir, with({"-o", dir.File("clean")})).exit_code, 0);
  const auto clean = Tree(dir.File("clean"));
  ASSERT_EQ(clean.size(), 40u);
  size_t temporaries_seen = 0;
  for (int round = 0; round < 3; ++round) {
    const std::string out = dir.File("out" + std::to_string(round));
    const pid_t pid = Start(with({"-o", out}), dir.File("stderr"));
    WaitForOutputs(out, 5 + 10 * round);
    ::kill(pid, SIGKILL);
    EXPECT_EQ(ExitCode(pid), 128 + SIGKILL);
    const auto killed = Tree(out);
    temporaries_seen += TemporaryCount(out);
    for (const auto& [name, bytes] : killed) {
      if (fs::path(name).extension() == ".tmp") continue;
      EXPECT_TRUE(clean.count(name) && clean.at(name) == bytes) << name << " is not whole";
    }
    const CliRun rerun = RunCli(dir, with({"-o", out, "--skip-existing"}));
    EXPECT_EQ(rerun.exit_code, 0) << rerun.errors;
    EXPECT_TRUE(Tree(out) == clean) << "round " << round << ": not the clean run's files";
  }
  std::cerr << temporaries_seen << " temporaries left by the 3 kills, removed by the reruns\n";
}

// SIGTERM is Ctrl-C for `batch`: the files in flight finish, no new one starts, exit 130, no
// temporary; `--skip-existing` then completes the folder as a clean run would.
TEST(FaultTest, SigtermMidBatchStopsCleanlyAndResumes) {
  TempDir dir;
  const auto with = ResampledBatch(dir);
  ASSERT_EQ(RunCli(dir, with({"-o", dir.File("clean")})).exit_code, 0);
  const std::string out = dir.File("out");
  const pid_t pid = Start(with({"-o", out}), dir.File("stderr"));
  WaitForOutputs(out, 10);
  ::kill(pid, SIGTERM);
  EXPECT_EQ(ExitCode(pid), 130);
  EXPECT_EQ(TemporaryCount(out), 0u);
  const auto clean = Tree(dir.File("clean"));
  const auto stopped = Tree(out);
  EXPECT_LT(stopped.size(), clean.size());
  for (const auto& [name, bytes] : stopped) {
    EXPECT_TRUE(clean.count(name) && clean.at(name) == bytes) << name << " is not whole";
  }
  EXPECT_EQ(RunCli(dir, with({"-o", out, "--skip-existing"})).exit_code, 0);
  EXPECT_TRUE(Tree(out) == clean);
}

// A write SIGKILLed while its temporary exists leaves it (no handler runs); the next write of
// the same output removes it, and a temporary still held by a live writer is kept.
TEST(FaultTest, TemporaryOfAKilledWriteIsRemovedByTheNextWrite) {
  TempDir dir;
  const std::string output = dir.File("out/out.json");
  fs::create_directories(dir.File("out"));
  const pid_t pid =
      Start({"convert", SourcePath("data/unity/walk.csv"), "--resample", "1500", "-o", output},
            dir.File("stderr"));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (TemporaryCount(dir.File("out")) == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ::kill(pid, SIGKILL);
  EXPECT_EQ(ExitCode(pid), 128 + SIGKILL);
  ASSERT_EQ(TemporaryCount(dir.File("out")), 1u);
  ASSERT_FALSE(fs::exists(output));
  // A live writer's temporary (held with flock, as WriteFileAtomic holds its own) is kept.
  const std::string busy = dir.File("out/.out.json.0123abcd.tmp");
  const int held = ::open(busy.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_EQ(::flock(held, LOCK_EX), 0);
  const std::string small = dir.File("out.csv");  // batch names its output out.json
  fs::copy_file(SourcePath("data/unity/anim.csv"), small);
  EXPECT_EQ(RunCli(dir, {"convert", small, "-o", output}).exit_code, 0);
  EXPECT_EQ(Tree(dir.File("out")).size(), 2u);  // the output and the busy temporary
  ::close(held);
  // `batch --skip-existing` removes those of the outputs it skips.
  EXPECT_EQ(RunCli(dir, {"batch", small, "-o", dir.File("out"), "--to", "three", "--skip-existing"})
                .exit_code,
            0);
  EXPECT_EQ(Tree(dir.File("out")).size(), 1u);
  EXPECT_TRUE(fs::exists(output));
}

// Two `convert`s of different inputs into one output at the same time, 20 times: the output is
// always one of the two clean outputs, never a mixture, and both succeed.
TEST(FaultTest, TwoWritersOfOneOutputNeverMix) {
  TempDir dir;
  const std::string input = SourcePath("data/unity/walk.csv");
  const std::vector<std::string> jobs[2] = {{"convert", input, "--resample", "120"},
                                            {"convert", input, "--resample", "121"}};
  std::string clean[2];
  for (int j = 0; j < 2; ++j) {
    std::vector<std::string> arguments = jobs[j];
    arguments.insert(arguments.end(), {"-o", dir.File("clean.json")});
    ASSERT_EQ(RunCli(dir, arguments).exit_code, 0);
    clean[j] = ReadText(dir.File("clean.json"));
  }
  ASSERT_NE(clean[0], clean[1]);
  fs::create_directories(dir.File("out"));
  const std::string output = dir.File("out/out.json");
  int wins[2] = {0, 0};
  for (int round = 0; round < 20; ++round) {
    pid_t pids[2];
    for (int j = 0; j < 2; ++j) {
      std::vector<std::string> arguments = jobs[j];
      arguments.insert(arguments.end(), {"-o", output});
      pids[j] = Start(arguments, dir.File("stderr" + std::to_string(j)));
    }
    for (int j = 0; j < 2; ++j) {
      EXPECT_EQ(ExitCode(pids[j]), 0) << ReadText(dir.File("stderr" + std::to_string(j)));
    }
    const std::string result = ReadText(output);
    EXPECT_TRUE(result == clean[0] || result == clean[1]) << "round " << round << ": a mixture";
    ++wins[result == clean[0] ? 0 : 1];
    EXPECT_EQ(Tree(dir.File("out")).size(), 1u);
  }
  std::cerr << "last writer: first " << wins[0] << " times, second " << wins[1] << " times\n";
}

}  // namespace
}  // namespace animconv
