#include "animconv/io.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <random>

#include "animconv/error.h"

namespace animconv {
namespace {

[[noreturn]] void ThrowIo(const std::string& path, const std::string& what) {
  throw Error(ErrorKind::kIo, path, "", fmt::format("{}: {}", what, std::strerror(errno)));
}

// Closes the descriptor on every path out of a function.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

std::string TemporaryNameFor(const std::string& path) {
  std::random_device device;
  const std::filesystem::path target(path);
  const std::string folder = target.has_parent_path() ? target.parent_path().string() + "/" : "";
  return fmt::format("{}.{}.{:08x}.tmp", folder, target.filename().string(), device());
}

// The temporary files being written, for RemovePendingTemporaryFiles. A slot is claimed
// (kFree -> kFilling), its path copied, then published (kReady); a signal handler unlinks only
// published paths. A handler that runs between the rename and the release finds the temporary
// name gone (ENOENT): the finished output is never named here. Writes beyond the table's size
// (more parallel writes than any batch runs) go unlisted rather than fail.
enum SlotState : int { kFree, kFilling, kReady };
struct PendingSlot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX] = {};
};
std::array<PendingSlot, 256> g_pending;
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");

class PendingTemporary {
 public:
  explicit PendingTemporary(const std::string& path) {
    if (path.size() >= PATH_MAX) return;
    for (PendingSlot& slot : g_pending) {
      int expected = kFree;
      if (slot.state.compare_exchange_strong(expected, kFilling)) {
        std::memcpy(slot.path, path.c_str(), path.size() + 1);
        slot.state.store(kReady);
        slot_ = &slot;
        return;
      }
    }
  }
  ~PendingTemporary() {
    if (slot_) slot_->state.store(kFree);
  }
  PendingTemporary(const PendingTemporary&) = delete;
  PendingTemporary& operator=(const PendingTemporary&) = delete;

 private:
  PendingSlot* slot_ = nullptr;
};

}  // namespace

void RemovePendingTemporaryFiles() noexcept {
  for (PendingSlot& slot : g_pending) {
    if (slot.state.load() == kReady) ::unlink(slot.path);
  }
}

std::string ReadFile(const std::string& path, uint64_t max_bytes) {
  FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0) ThrowIo(path, "cannot open input");
  struct stat info {};
  if (::fstat(file.get(), &info) != 0) ThrowIo(path, "cannot stat input");
  if (S_ISDIR(info.st_mode)) {
    throw Error(ErrorKind::kIo, path, "", "is a folder, expected a file");
  }
  if (S_ISREG(info.st_mode) && static_cast<uint64_t>(info.st_size) > max_bytes) {
    throw Error(ErrorKind::kBadInput, path, "",
                fmt::format("file is {} MiB, larger than the limit of {} MiB (--max-input-mb)",
                            static_cast<uint64_t>(info.st_size) >> 20, max_bytes >> 20));
  }
  std::string bytes;
  if (S_ISREG(info.st_mode)) bytes.reserve(static_cast<size_t>(info.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(file.get(), buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) continue;
      ThrowIo(path, "cannot read input");
    }
    if (got == 0) break;
    if (bytes.size() + static_cast<size_t>(got) > max_bytes) {
      throw Error(ErrorKind::kBadInput, path, "",
                  fmt::format("input is larger than the limit of {} MiB (--max-input-mb)",
                              max_bytes >> 20));
    }
    bytes.append(buffer, static_cast<size_t>(got));
  }
  return bytes;
}

void WriteFileAtomic(const std::string& path, std::string_view bytes) {
  const std::string temporary = TemporaryNameFor(path);
  const PendingTemporary pending(temporary);  // listed before it exists, released after rename
  FileDescriptor file(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
  if (file.get() < 0) ThrowIo(path, "cannot create output");
  auto fail = [&](const char* what) {
    const int saved = errno;
    ::close(file.release());
    ::unlink(temporary.c_str());
    errno = saved;
    ThrowIo(path, what);
  };
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t put = ::write(file.get(), bytes.data() + written, bytes.size() - written);
    if (put < 0) {
      if (errno == EINTR) continue;
      fail("cannot write output");
    }
    written += static_cast<size_t>(put);
  }
  if (::fsync(file.get()) != 0) fail("cannot flush output");
  if (::close(file.release()) != 0) {
    ::unlink(temporary.c_str());
    ThrowIo(path, "cannot close output");
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temporary.c_str());
    errno = saved;
    ThrowIo(path, "cannot move output into place");
  }
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat info_a {};
  struct stat info_b {};
  if (::stat(a.c_str(), &info_a) != 0 || ::stat(b.c_str(), &info_b) != 0) return false;
  return info_a.st_dev == info_b.st_dev && info_a.st_ino == info_b.st_ino;
}

}  // namespace animconv
