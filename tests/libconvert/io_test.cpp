#include "animconv/io.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "animconv/error.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::TempDir;

TEST(IoTest, WriteFileAtomicCreatesAndReplaces) {
  TempDir dir;
  const std::string path = dir.File("out.json");
  WriteFileAtomic(path, "first");
  EXPECT_EQ(ReadFile(path), "first");
  WriteFileAtomic(path, "second");
  EXPECT_EQ(ReadFile(path), "second");
  EXPECT_EQ(dir.FileCount(), 1u);  // no temporary left behind
}

// Pieces are written in order without being joined: more of them than one writev takes, empty
// ones, and one larger than a write chunk (8 MiB), which a call then ends inside of.
TEST(IoTest, WriteFileAtomicWritesPiecesInOrder) {
  TempDir dir;
  const std::string path = dir.File("out.json");
  std::vector<std::string> texts;
  for (int i = 0; i < 200; ++i) texts.push_back(i % 7 == 0 ? "" : std::to_string(i) + ",");
  texts.push_back(std::string((9u << 20) + 5, 'x'));
  texts.push_back("end");
  std::vector<std::string_view> pieces;
  std::string expected;
  for (const std::string& text : texts) {
    pieces.emplace_back(text);
    expected += text;
  }
  WriteFileAtomic(path, pieces);
  EXPECT_EQ(ReadFile(path), expected);
  WriteFileAtomic(path, std::vector<std::string_view>{"", ""});
  EXPECT_EQ(ReadFile(path), "");
  EXPECT_EQ(dir.FileCount(), 1u);
}

TEST(IoTest, FailedWriteLeavesNothing) {
  TempDir dir;
  const std::string path = dir.File("missing_folder/out.json");
  try {
    WriteFileAtomic(path, "data");
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kIo);
    EXPECT_EQ(error.source(), path);
  }
  EXPECT_EQ(dir.FileCount(), 0u);
}

// A regular file is read straight into its string; one whose size says 0 but which has bytes
// (the kernel's /proc files) goes through the buffer, and a large one is read whole.
TEST(IoTest, ReadFileReadsLargeFilesAndThoseOfUnknownSize) {
  TempDir dir;
  const std::string path = dir.File("large.bin");
  std::string expected(size_t{3} << 20, '\0');
  for (size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<char>((i * 7919) >> 3);
  WriteFileAtomic(path, expected);
  EXPECT_EQ(ReadFile(path), expected);
  const std::string status = ReadFile("/proc/self/status");
  EXPECT_NE(status.find("Pid:"), std::string::npos);
}

TEST(IoTest, ReadFileReportsMissingFilesAndFolders) {
  TempDir dir;
  EXPECT_THROW(ReadFile(dir.File("nope")), Error);
  try {
    ReadFile(dir.path());
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kIo);
  }
}

TEST(IoTest, ReadFileEnforcesTheSizeLimitBeforeReading) {
  TempDir dir;
  const std::string path = dir.File("big");
  testing::WriteText(path, std::string(4096, 'x'));
  try {
    ReadFile(path, 1024);
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_NE(std::string(error.what()).find("--max-input-mb"), std::string::npos);
  }
  EXPECT_EQ(ReadFile(path, 4096).size(), 4096u);
}

TEST(IoTest, SameFileSeesThroughLinks) {
  TempDir dir;
  const std::string path = dir.File("a");
  testing::WriteText(path, "x");
  ASSERT_EQ(::symlink(path.c_str(), dir.File("b").c_str()), 0);
  EXPECT_TRUE(SameFile(path, dir.File("b")));
  EXPECT_TRUE(SameFile(path, dir.path() + "/./a"));
  EXPECT_FALSE(SameFile(path, dir.File("c")));
}

// Only this output's own unlocked temporaries go (docs/reliability.md "Faults"): not another
// output's, not a name that merely looks alike, not one a live writer holds with flock.
TEST(IoTest, WriteRemovesOnlyTheAbandonedTemporariesOfItsOutput) {
  TempDir dir;
  const std::vector<std::string> kept = {".other.json.0123abcd.tmp", ".out.json.0123abcz.tmp",
                                         ".out.json.0123abcd0.tmp", "out.json.0123abcd.tmp",
                                         ".out.json.busy0001.tmp"};
  for (const std::string& name : kept) testing::WriteText(dir.File(name), "x");
  testing::WriteText(dir.File(".out.json.0123abcd.tmp"), "abandoned");
  testing::WriteText(dir.File(".out.json.fedcba98.tmp"), "held");
  const int held = ::open(dir.File(".out.json.fedcba98.tmp").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(held, 0);
  // An open file description of its own: the lock conflicts with the writer's, as another
  // process's would.
  ASSERT_EQ(::flock(held, LOCK_EX), 0);
  WriteFileAtomic(dir.File("out.json"), "data");
  EXPECT_FALSE(std::filesystem::exists(dir.File(".out.json.0123abcd.tmp")));
  EXPECT_TRUE(std::filesystem::exists(dir.File(".out.json.fedcba98.tmp")));
  for (const std::string& name : kept) EXPECT_TRUE(std::filesystem::exists(dir.File(name))) << name;
  ::close(held);
  WriteFileAtomic(dir.File("out.json"), "again");  // released: abandoned now
  EXPECT_FALSE(std::filesystem::exists(dir.File(".out.json.fedcba98.tmp")));
  EXPECT_EQ(dir.FileCount(), kept.size() + 1);
}

}  // namespace
}  // namespace animconv
