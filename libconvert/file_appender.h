// Appends an output's pieces to its open temporary file (WriteFileAtomic, libconvert/io.cpp).
// Private to the project.
//
// The first 8 MiB are written through the page cache, and the disk is set to work on each 8 MiB
// as soon as it is there (Linux sync_file_range), so that the closing fsync waits only for the
// tail; but a call that hands over 8 MiB or more at once (a whole output, or a .glb's binary
// chunk) goes direct from the first aligned offset it reaches (session 33: 18 ms of fresh page
// cache at a 30 MB .vrma's end, with nothing left to overlap). Past them, on Linux, the rest goes
// to the disk directly (O_DIRECT) from an aligned
// staging buffer of 2 MiB that is reused: no page of the page cache is filled, and none has to be
// freed when the output is replaced later. On a VM whose fresh pages are costly, that was
// 0.07-0.08 s of a 72 MB three.js JSON's 0.34-0.40 s after another process had freed 1.2 GB
// (docs/performance.md, "Direct writes past the first 8 MiB"). The stage is itself fresh memory
// the first time it fills: 2 MiB of it, not 8, took a further 0.01-0.02 s of system time off
// ("A smaller stage", session 32). A file system that
// refuses direct writes (tmpfs before Linux 6.6, some FUSE and network ones), or refuses one
// write of them (EINVAL), gets the rest through the page cache. The bytes are the same either
// way, and the fsync after Finish makes them durable either way.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace animconv {

// The size from which an output is written directly (smaller ones are written as they always
// were, and never allocate the stage), and the staging buffer's size: one huge page.
constexpr size_t kDirectWriteFromBytes = size_t{8} << 20;
constexpr size_t kDirectWriteStageBytes = size_t{2} << 20;
// Direct writes need their buffer, offset and length aligned to the device's logical block
// (512 or 4096 bytes); the last direct write is rounded down to this, the rest goes buffered.
constexpr size_t kDirectAlignBytes = 4096;

class FileAppender {
 public:
  // `direct_align_bytes` (a power of two) rounds down the last direct write; tests pass 1 to have
  // it refused (EINVAL), as a device with larger blocks would.
  explicit FileAppender(int descriptor, size_t direct_align_bytes = kDirectAlignBytes)
      : descriptor_(descriptor), direct_align_bytes_(direct_align_bytes) {}
  ~FileAppender();
  FileAppender(const FileAppender&) = delete;
  FileAppender& operator=(const FileAppender&) = delete;

  // Appends the pieces in order (empty ones are passed over). False when a write failed, with
  // errno saying why; the file then holds an unknown prefix of the output.
  bool Append(const std::vector<std::string_view>& pieces);
  // Writes what is still staged. False when a write failed, as Append.
  bool Finish();

  size_t bytes_written() const { return written_; }
  // Of those, the bytes that went to the disk directly (tests, docs).
  size_t direct_bytes() const { return direct_written_; }

 private:
  bool WriteBuffered(const char* data, size_t bytes);
  bool WriteStaged(size_t bytes);
  void StartWriteback();
  void TryDirect();
  bool StopDirect();

  int descriptor_;
  size_t direct_align_bytes_;
  size_t written_ = 0;
  size_t sent_to_disk_ = 0;  // bytes whose writeback has been started (buffered part)
  size_t direct_written_ = 0;
  char* stage_ = nullptr;  // set while writing directly
  size_t staged_ = 0;
  bool direct_tried_ = false;
};

}  // namespace animconv
