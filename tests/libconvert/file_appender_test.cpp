// FileAppender (libconvert/file_appender.cpp): an output's first 8 MiB go through the page
// cache, the rest directly to the disk where the file system takes it, and the bytes are the
// same either way.
#include "libconvert/file_appender.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "animconv/error.h"
#include "animconv/io.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::TempDir;

// Whether the file system of `folder` takes direct writes to a file there.
bool TakesDirectWrites(const std::string& folder) {
  const std::string probe = folder + "/direct_probe";
  const int descriptor = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (descriptor < 0) return false;
  const int flags = ::fcntl(descriptor, F_GETFL);
  const bool takes = flags >= 0 && ::fcntl(descriptor, F_SETFL, flags | O_DIRECT) == 0;
  ::close(descriptor);
  ::unlink(probe.c_str());
  return takes;
}

// `size` bytes that differ from one 4 KiB block to the next and within it, so a block written at
// the wrong offset or twice shows.
std::string Pattern(size_t size) {
  std::string text(size, '\0');
  for (size_t i = 0; i < size; ++i) text[i] = static_cast<char>('a' + (i * 7 + i / 4093) % 26);
  return text;
}

// Cuts `text` into pieces of uneven sizes (some empty, some larger than the 2 MiB stage).
std::vector<std::string_view> UnevenPieces(const std::string& text) {
  static const size_t kSizes[] = {0, 1, 4095, 70001, 0, (size_t{9} << 20) + 3, 333, 1 << 20};
  std::vector<std::string_view> pieces;
  size_t at = 0;
  for (size_t i = 0; at < text.size(); ++i) {
    const size_t size = std::min(kSizes[i % 8], text.size() - at);
    pieces.push_back(std::string_view(text).substr(at, size));
    at += size;
  }
  return pieces;
}

struct Written {
  std::string bytes;
  size_t direct_bytes = 0;
};

// Appends `pieces` in calls of `per_call` pieces, then finishes, to a new file in `folder`.
Written Append(const std::string& folder, const std::vector<std::string_view>& pieces,
               size_t per_call, size_t direct_align_bytes = kDirectAlignBytes) {
  const std::string path = folder + "/out.bin";
  const int descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  EXPECT_GE(descriptor, 0);
  Written written;
  {
    FileAppender appender(descriptor, direct_align_bytes);
    for (size_t at = 0; at < pieces.size(); at += per_call) {
      const std::vector<std::string_view> call(
          pieces.begin() + static_cast<std::ptrdiff_t>(at),
          pieces.begin() + static_cast<std::ptrdiff_t>(std::min(pieces.size(), at + per_call)));
      EXPECT_TRUE(appender.Append(call));
    }
    EXPECT_TRUE(appender.Finish());
    written.direct_bytes = appender.direct_bytes();
    size_t total = 0;
    for (std::string_view piece : pieces) total += piece.size();
    EXPECT_EQ(appender.bytes_written(), total);
  }
  ::close(descriptor);
  written.bytes = ReadFile(path);
  return written;
}

// The bytes FileAppender writes directly, by its rule: from kDirectWriteFromBytes on, or from
// the first aligned offset of a call that hands over at least that many bytes at once; whole
// blocks only.
size_t ExpectedDirectBytes(const std::vector<std::string_view>& pieces, size_t per_call) {
  size_t written = 0;
  std::optional<size_t> from;
  for (size_t at = 0; at < pieces.size(); at += per_call) {
    size_t call = 0;
    for (size_t p = at; p < std::min(pieces.size(), at + per_call); ++p) call += pieces[p].size();
    if (!from && call >= kDirectWriteFromBytes) {
      from = (written + kDirectAlignBytes - 1) & ~(kDirectAlignBytes - 1);
    }
    written += call;
    if (!from && written >= kDirectWriteFromBytes) from = kDirectWriteFromBytes;
  }
  return from && written > *from ? (written - *from) & ~(kDirectAlignBytes - 1) : 0;
}

// The sizes around the stage's edges, in pieces given one call at a time and all at once: the
// same bytes, and past the first 8 MiB the whole 4 KiB blocks went directly where the file system
// takes direct writes (this folder's, and /dev/shm's tmpfs where there is one).
TEST(FileAppenderTest, WritesTheSameBytesThroughThePageCacheOrDirectly) {
  TempDir dir;
  std::vector<std::string> folders = {dir.path()};
  if (std::filesystem::is_directory("/dev/shm") && ::access("/dev/shm", W_OK) == 0) {
    folders.push_back(dir.path() + "_shm");
    folders.back() = "/dev/shm/" + std::filesystem::path(folders.back()).filename().string();
    std::filesystem::create_directories(folders.back());
  }
  constexpr size_t kFrom = kDirectWriteFromBytes;
  constexpr size_t kStage = kDirectWriteStageBytes;
  for (const std::string& folder : folders) {
    const bool direct = TakesDirectWrites(folder);
    for (const size_t size :
         {size_t{0}, size_t{1}, kFrom - 1, kFrom, kFrom + 1, kFrom + kStage - 1, kFrom + kStage,
          kFrom + kStage + 4095, kFrom + kStage + 4096, kFrom + 3 * kStage + 123}) {
      const std::string text = Pattern(size);
      const std::vector<std::string_view> pieces = UnevenPieces(text);
      for (const size_t per_call : {size_t{1}, pieces.size() + 1}) {
        SCOPED_TRACE(folder + ": " + std::to_string(size) + " bytes, " + std::to_string(per_call) +
                     " pieces a call");
        const Written written = Append(folder, pieces, per_call);
        EXPECT_TRUE(written.bytes == text);
        const size_t expected_direct = direct ? ExpectedDirectBytes(pieces, per_call) : 0;
        EXPECT_EQ(written.direct_bytes, expected_direct);
      }
    }
    if (folder != dir.path()) std::filesystem::remove_all(folder);
  }
}

// A call that hands over kDirectWriteFromBytes or more at once after a small unaligned start (a
// .glb's binary chunk after its header and JSON) writes through the page cache only up to the
// next aligned offset, then directly: its first 8 MiB used to fill fresh page cache at the end of
// the job (18 ms of a 30 MB .vrma's). Fewer bytes: piece by piece as before.
TEST(FileAppenderTest, ALargeCallGoesDirectFromTheNextAlignedOffset) {
  TempDir dir;
  if (!TakesDirectWrites(dir.path())) GTEST_SKIP() << "no direct writes on " << dir.path();
  for (const size_t large : {kDirectWriteFromBytes - 1, kDirectWriteFromBytes,
                             kDirectWriteFromBytes + kDirectWriteStageBytes + 123}) {
    SCOPED_TRACE(std::to_string(large) + " bytes after 1000");
    const std::string text = Pattern(1000 + large);
    const std::vector<std::string_view> pieces = {std::string_view(text).substr(0, 1000),
                                                  std::string_view(text).substr(1000)};
    const Written written = Append(dir.path(), pieces, 1);
    EXPECT_TRUE(written.bytes == text);
    const size_t expected_direct =
        large >= kDirectWriteFromBytes
            ? (text.size() - kDirectAlignBytes) & ~(kDirectAlignBytes - 1)
            : 0;  // as before: past 8 MiB, 999 bytes, less than a block
    EXPECT_EQ(written.direct_bytes, expected_direct);
  }
}

// A direct write the file system refuses (EINVAL: here a last write that is not whole blocks, as
// a device with larger blocks than 4 KiB would refuse one) sends what is staged, and the rest,
// through the page cache: the same bytes.
TEST(FileAppenderTest, ARefusedDirectWriteGoesThroughThePageCache) {
  TempDir dir;
  if (!TakesDirectWrites(dir.path())) GTEST_SKIP() << "no direct writes on " << dir.path();
  const std::string text = Pattern(kDirectWriteFromBytes + kDirectWriteStageBytes + 1001);
  std::vector<std::string_view> pieces;  // 1 MiB each: direct from 8 MiB on
  for (size_t at = 0; at < text.size(); at += size_t{1} << 20) {
    pieces.push_back(std::string_view(text).substr(at, size_t{1} << 20));
  }
  const Written written = Append(dir.path(), pieces, 3, /*direct_align_bytes=*/1);
  EXPECT_TRUE(written.bytes == text);
  EXPECT_EQ(written.direct_bytes, kDirectWriteStageBytes);  // the full stage, then refused
}

// Writes 40 MiB under a file size limit of 20 MiB, past the point where the writes go directly,
// and exits with 0 if the write failed with an I/O error and left nothing in `dir`.
[[noreturn]] void WritePastTheFileSizeLimit(const TempDir& dir, const std::string& path) {
  if (!testing::LimitFileSize(size_t{20} << 20)) std::_Exit(2);
  const std::string piece(size_t{40} << 20, 'n');
  try {
    WriteFileAtomic(path, piece);
    std::_Exit(3);
  } catch (const Error& error) {
    if (error.kind() != ErrorKind::kIo) std::_Exit(4);
  }
  std::_Exit(dir.FileCount() == 0 ? 0 : 5);
}

// A direct write that fails is reported as one through the page cache is: an I/O error, and no
// output nor temporary left. In a child: the limit is the whole process's.
TEST(FileAppenderTest, AFailedDirectWriteIsReportedAndLeavesNothing) {
  TempDir dir;
  const std::string path = dir.File("out.json");
  EXPECT_EXIT(WritePastTheFileSizeLimit(dir, path), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace animconv
