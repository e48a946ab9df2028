// A large input read in place (mmap) instead of copied into fresh memory (docs/performance.md,
// "The input read in place"), made safe against the file being cut short meanwhile.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "animconv/io.h"

namespace animconv {

// What InputBytes holds of a mapped file (ReadInput fills it).
struct FileMapping {
  void* address = nullptr;  // nullptr: not mapped
  size_t file_bytes = 0;    // the file's size when mapped
  size_t mapped_bytes = 0;  // whole pages
  int guard_slot = -1;      // where the SIGBUS guard knows it
  int descriptor = -1;      // the file's, open while mapped: ThrowIfCutShort asks it the size
};

// An input file's bytes: mapped, or read into memory as ReadFile reads them. Mapped bytes are the
// page cache's own pages, so a 50 MB input costs no fresh memory (on the VMs measured, each fresh
// page is what a large job pays for most). Move-only; unmaps on destruction.
class InputBytes {
 public:
  InputBytes() = default;
  ~InputBytes();
  InputBytes(InputBytes&& other) noexcept;
  InputBytes& operator=(InputBytes&& other) noexcept;
  InputBytes(const InputBytes&) = delete;
  InputBytes& operator=(const InputBytes&) = delete;

  std::string_view view() const;
  bool mapped() const { return mapping_.address != nullptr; }
  // Throws Error(kIo) naming the file when it was cut short while mapped: the bytes past its new
  // end then read as zeros (the guard's doing, below, or the kernel's within the last page), so
  // what was read from them is not the file. Every reader of mapped bytes calls this after reading,
  // and also when its read failed (the zeros are then the likelier cause than the error it found).
  void ThrowIfCutShort() const;

 private:
  friend InputBytes ReadInput(const std::string& path, uint64_t max_bytes);
  void Release() noexcept;

  std::string path_;
  std::string owned_;
  FileMapping mapping_;
};

// Installs, once per process, the SIGBUS handler that makes mapped inputs safe: a read past the
// end of a mapped input that was truncated meanwhile finds zeros (and marks the input cut short)
// instead of killing the process. A SIGBUS anywhere else gets the action it had before. For a
// program's owner (cli/main.cpp), like PrepareHeapForLargeJob: the library never installs it.
void InstallMappedInputGuard();

// Whether ReadInput maps a regular file of `file_bytes` (the guard installed, a build that can
// map, at least 8 MiB), for a caller that plans its memory around the input.
bool WouldMapInput(uint64_t file_bytes);

// Reads `path` as ReadFile does (same errors, same limit). A regular file of at least 8 MiB is
// mapped instead when the guard is installed and this build can map (Linux, not WebAssembly);
// if the file grows while it is mapped, it is read again the usual way.
InputBytes ReadInput(const std::string& path, uint64_t max_bytes = kDefaultMaxInputBytes);

}  // namespace animconv
