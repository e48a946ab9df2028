// WriteFileAtomicStreamed (libconvert/streamed_write.cpp): an output written on one thread while
// it is made on others, with WriteFileAtomic's rules (a whole output or none).
#include <gtest/gtest.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <chrono>
#include <deque>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "animconv/error.h"
#include "animconv/io.h"
#include "animconv/text_pieces.h"
#include "libconvert/file_appender.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::TempDir;

// Streamed: the pieces are written as they are published, from whichever thread publishes them.
TEST(StreamedWriteTest, WritesThePublishedPiecesInOrderFromAnyThread) {
  TempDir dir;
  const std::string path = dir.File("out.json");
  std::vector<std::string> texts;
  for (int i = 0; i < 3000; ++i)
    texts.push_back(std::string(static_cast<size_t>(i % 97), static_cast<char>('a' + i % 26)));
  texts.push_back(std::string((9u << 20) + 5, 'x'));
  std::string expected;
  for (const std::string& text : texts) expected += text;
  WriteFileAtomicStreamed(path, [&](PieceSink& sink) {
    std::thread other([&] {
      for (size_t i = 0; i < texts.size() / 2; ++i) sink.Publish(texts[i]);
    });
    other.join();
    for (size_t i = texts.size() / 2; i < texts.size(); ++i) sink.Publish(texts[i]);
  });
  EXPECT_EQ(ReadFile(path), expected);
  EXPECT_EQ(dir.FileCount(), 1u);
}

#if defined(__GLIBC__)
// The bytes glibc's heap has handed out and not had back.
size_t HeapBytesInUse() {
  const struct mallinfo2 info = ::mallinfo2();
  return info.uordblks + info.hblkhd;
}

// Owned pieces are written in order with the others, and each is freed once written: here the
// producer hands over 64 MiB, 1 MiB at a time, and waits before each piece until the one before
// the last is freed, so at most ~2 MiB of them are ever held (a streamed three.js output held all
// of its 72 MB of arrays to the end before, all fresh pages). Past the first 8 MiB the writer
// also holds its 2 MiB staging buffer for direct writes (libconvert/file_appender.h).
TEST(StreamedWriteTest, OwnedPiecesAreWrittenInOrderAndFreedOnceWritten) {
  if (testing::kMallocReplaced) GTEST_SKIP() << "a sanitizer's allocator replaces glibc's heap";
  TempDir dir;
  const std::string path = dir.File("out.json");
  constexpr size_t kPiece = size_t{1} << 20;
  constexpr int kPieces = 64;
  const auto letter = [](int i) { return static_cast<char>('a' + i % 26); };
  std::deque<std::string> headers;  // published as views: they stay where they are
  size_t most_held = 0;
  WriteFileAtomicStreamed(path, [&](PieceSink& sink) {
    const size_t before = HeapBytesInUse() + kDirectWriteStageBytes;
    for (int i = 0; i < kPieces; ++i) {
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      while (HeapBytesInUse() > before + 2 * kPiece + (kPiece >> 1) &&
             std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      most_held = std::max(most_held, HeapBytesInUse() - std::min(before, HeapBytesInUse()));
      headers.push_back(std::to_string(i) + ":");
      sink.Publish(headers.back());
      sink.PublishOwned(std::string(kPiece, letter(i)));
    }
  });
  std::string expected;
  for (int i = 0; i < kPieces; ++i)
    expected += std::to_string(i) + ":" + std::string(kPiece, letter(i));
  EXPECT_LT(most_held, 3 * kPiece);  // beyond the stage
  EXPECT_EQ(ReadFile(path), expected);
}
#endif

// A producer that fails after publishing leaves the old output as it was, and no temporary.
TEST(StreamedWriteTest, AProducerThatFailsLeavesTheOldOutput) {
  TempDir dir;
  const std::string path = dir.File("out.json");
  WriteFileAtomic(path, "old");
  const std::string piece(1 << 20, 'n');
  EXPECT_THROW(WriteFileAtomicStreamed(path,
                                       [&](PieceSink& sink) {
                                         for (int i = 0; i < 20; ++i) sink.Publish(piece);
                                         throw std::runtime_error("the writer found a fault");
                                       }),
               std::runtime_error);
  EXPECT_EQ(ReadFile(path), "old");
  EXPECT_EQ(dir.FileCount(), 1u);
}

// A producer whose texts die with its exception: its TextPieces published a 64 MiB text, which
// the writing thread is still writing while the exception unwinds. The published piece keeps its
// text alive (PublishKept), so the producer's own error is reported and nothing is read after it
// was freed. Before, the writing thread read freed memory: "Bad address" from the write instead
// of the producer's error, or SIGSEGV in the copy into the direct-write stage (found in review,
// session 32); under AddressSanitizer a heap-use-after-free.
TEST(StreamedWriteTest, AProducerWhoseTextsDieWithItsExceptionIsReportedAsItself) {
  TempDir dir;
  const std::string path = dir.File("out.json");
  WriteFileAtomic(path, "old");
  for (int round = 0; round < 5; ++round) {
    SCOPED_TRACE(round);
    try {
      WriteFileAtomicStreamed(path, [&](PieceSink& sink) {
        TextPieces pieces;
        pieces.StreamTo(&sink);
        pieces.Append("[");
        pieces.AppendKept(pieces.Keep(std::string(size_t{64} << 20, 'k')));
        throw std::runtime_error("the second clip has a fault");
      });
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& error) {
      EXPECT_STREQ(error.what(), "the second clip has a fault");
    }
    EXPECT_EQ(ReadFile(path), "old");
    EXPECT_EQ(dir.FileCount(), 1u);
  }
}

// Streams 1,000 pieces of 1 MiB under a file size limit of 4 MiB and exits with 0 if the write
// failed with an I/O error, stopped the producer and left nothing in `dir`.
[[noreturn]] void StreamPastTheFileSizeLimit(const TempDir& dir, const std::string& path) {
  if (!testing::LimitFileSize(size_t{4} << 20)) std::_Exit(2);
  const std::string piece(1 << 20, 'n');
  int published = 0;
  try {
    WriteFileAtomicStreamed(path, [&](PieceSink& sink) {
      for (; published < 1000; ++published) {
        sink.Publish(piece);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
    std::_Exit(3);
  } catch (const Error& error) {
    if (error.kind() != ErrorKind::kIo) std::_Exit(4);
  }
  std::_Exit(published < 1000 && dir.FileCount() == 0 ? 0 : 5);
}

// A write that fails (here the file size limit: EFBIG) stops the producer at its next Publish, and
// the write's error is the one reported. In a child: the limit is the whole process's.
TEST(StreamedWriteTest, AWriteThatFailsStopsTheProducer) {
  TempDir dir;
  const std::string path = dir.File("out.json");
  EXPECT_EXIT(StreamPastTheFileSizeLimit(dir, path), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace animconv
