#include "animconv/io.h"

#include <gtest/gtest.h>
#include <unistd.h>

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

}  // namespace
}  // namespace animconv
