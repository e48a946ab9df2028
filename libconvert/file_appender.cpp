#include "libconvert/file_appender.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#if defined(__linux__) && defined(O_DIRECT) && !defined(__EMSCRIPTEN__)
#define ANIMCONV_DIRECT_WRITES 1
#else
#define ANIMCONV_DIRECT_WRITES 0
#endif

namespace animconv {
namespace {

// Buffered calls never cross a multiple of this, and the disk's writeback is started at each:
// the direct part then starts at an offset every device's block size divides.
constexpr size_t kWriteChunkBytes = kDirectWriteFromBytes;
constexpr int kMaxIovecs = 64;  // pieces per writev (IOV_MAX is 1024 on Linux)

}  // namespace

FileAppender::~FileAppender() { std::free(stage_); }

bool FileAppender::Append(const std::vector<std::string_view>& pieces) {
  size_t pending = 0;
  for (const std::string_view piece : pieces) pending += piece.size();
  // An output handed over whole, or a large part of one at once (a .glb's binary chunk after its
  // JSON), is known to reach kDirectWriteFromBytes: it goes direct from the first aligned offset
  // instead of filling 8 MiB of fresh page cache first, which took 18 ms of a 30 MB .vrma's end,
  // with nothing else left to do beside it.
  const bool large_call = pending >= kDirectWriteFromBytes;
  size_t piece = 0;
  size_t offset = 0;  // into pieces[piece]
  while (piece < pieces.size()) {
    const std::string_view rest = pieces[piece].substr(offset);
    if (rest.empty()) {
      ++piece;
      offset = 0;
      continue;
    }
    if (stage_ != nullptr) {
      const size_t bytes = std::min(rest.size(), kDirectWriteStageBytes - staged_);
      std::memcpy(stage_ + staged_, rest.data(), bytes);
      staged_ += bytes;
      offset += bytes;
      if (staged_ == kDirectWriteStageBytes && !WriteStaged(staged_)) return false;
      continue;
    }
    const bool direct_ahead = large_call && !direct_tried_;
    if (direct_ahead && written_ % direct_align_bytes_ == 0) {
      TryDirect();
      if (stage_ != nullptr) continue;
    }
    // Buffered: up to kMaxIovecs pieces a call, not past the next multiple of kWriteChunkBytes
    // (nor, when going direct next, past the next aligned offset).
    const size_t limit = direct_ahead && !direct_tried_
                             ? direct_align_bytes_ - written_ % direct_align_bytes_
                             : kWriteChunkBytes - written_ % kWriteChunkBytes;
    iovec vectors[kMaxIovecs];
    int count = 0;
    size_t bytes = 0;
    for (size_t p = piece, start = offset; p < pieces.size() && count < kMaxIovecs && bytes < limit;
         ++p, start = 0) {
      const size_t length = std::min(pieces[p].size() - start, limit - bytes);
      if (length == 0) continue;
      vectors[count].iov_base = const_cast<char*>(pieces[p].data() + start);
      vectors[count].iov_len = length;
      ++count;
      bytes += length;
    }
    const ssize_t put = count == 1 ? ::write(descriptor_, vectors[0].iov_base, vectors[0].iov_len)
                                   : ::writev(descriptor_, vectors, count);
    if (put < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    written_ += static_cast<size_t>(put);
    for (size_t left = static_cast<size_t>(put); left > 0;) {  // past what was written
      const size_t step = std::min(left, pieces[piece].size() - offset);
      offset += step;
      left -= step;
      if (offset == pieces[piece].size()) ++piece, offset = 0;
    }
    if (put > 0 && written_ % kWriteChunkBytes == 0) {
      StartWriteback();
      if (!direct_tried_) TryDirect();
    }
  }
  return true;
}

bool FileAppender::Finish() {
  if (stage_ == nullptr) return true;
  const size_t aligned = staged_ & ~(direct_align_bytes_ - 1);
  if (aligned > 0 && !WriteStaged(aligned)) return false;
  if (stage_ == nullptr) return true;  // a refused direct write wrote everything buffered
  return StopDirect() && WriteBuffered(stage_, staged_);
}

// Only a hint (start, do not wait); the fsync after Finish is what makes the file durable.
void FileAppender::StartWriteback() {
#if ANIMCONV_DIRECT_WRITES
  ::sync_file_range(descriptor_, static_cast<off_t>(sent_to_disk_),
                    static_cast<off_t>(written_ - sent_to_disk_), SYNC_FILE_RANGE_WRITE);
#endif
  sent_to_disk_ = written_;
}

// Buffered, at the descriptor's offset, which StopDirect has set to written_.
bool FileAppender::WriteBuffered(const char* data, size_t bytes) {
  while (bytes > 0) {
    const ssize_t put = ::write(descriptor_, data, bytes);
    if (put < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += put;
    bytes -= static_cast<size_t>(put);
    written_ += static_cast<size_t>(put);
  }
  return true;
}

// Writes the first `bytes` staged (a multiple of direct_align_bytes_) directly, and moves what
// follows them to the stage's start.
bool FileAppender::WriteStaged(size_t bytes) {
#if ANIMCONV_DIRECT_WRITES
  size_t done = 0;
  while (done < bytes) {
    const ssize_t put =
        ::pwrite(descriptor_, stage_ + done, bytes - done, static_cast<off_t>(written_));
    if (put < 0) {
      if (errno == EINTR) continue;
      if (errno != EINVAL) return false;
      // Refused (alignment this device does not take, a file system that takes the flag but not
      // the write): everything staged goes through the page cache, and so does the rest.
      if (!StopDirect() || !WriteBuffered(stage_ + done, staged_ - done)) return false;
      std::free(stage_);
      stage_ = nullptr;
      staged_ = 0;
      return true;
    }
    done += static_cast<size_t>(put);
    written_ += static_cast<size_t>(put);
    direct_written_ += static_cast<size_t>(put);
  }
  std::memmove(stage_, stage_ + bytes, staged_ - bytes);
  staged_ -= bytes;
  return true;
#else
  (void)bytes;
  return false;
#endif
}

void FileAppender::TryDirect() {
  direct_tried_ = true;
#if ANIMCONV_DIRECT_WRITES
  // Aligned to a huge page, so that where the heap has huge pages (libconvert/memory.h) the stage
  // is a few whole ones.
  constexpr size_t kStageAlignBytes = size_t{2} << 20;
  char* const stage =
      static_cast<char*>(std::aligned_alloc(kStageAlignBytes, kDirectWriteStageBytes));
  if (stage == nullptr) return;
  const int flags = ::fcntl(descriptor_, F_GETFL);
  if (flags < 0 || ::fcntl(descriptor_, F_SETFL, flags | O_DIRECT) != 0) {
    std::free(stage);  // not on this file system: buffered to the end
    return;
  }
  stage_ = stage;
#endif
}

// Back to buffered writes at written_ (direct writes do not move the descriptor's offset). The
// stage is kept: the caller writes what it holds. False, with errno, when the descriptor refuses.
bool FileAppender::StopDirect() {
#if ANIMCONV_DIRECT_WRITES
  const int flags = ::fcntl(descriptor_, F_GETFL);
  return flags >= 0 && ::fcntl(descriptor_, F_SETFL, flags & ~O_DIRECT) == 0 &&
         ::lseek(descriptor_, static_cast<off_t>(written_), SEEK_SET) >= 0;
#else
  return true;
#endif
}

}  // namespace animconv
