#include "animconv/io.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <vector>

#include "animconv/error.h"
#include "libconvert/atomic_write.h"
#include "libconvert/file_appender.h"

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

std::string FolderOf(const std::string& path) {
  const std::filesystem::path target(path);
  return target.has_parent_path() ? target.parent_path().string() : ".";
}

std::string TemporaryNameFor(const std::string& path) {
  std::random_device device;
  const std::filesystem::path target(path);
  const std::string folder = target.has_parent_path() ? target.parent_path().string() + "/" : "";
  return fmt::format("{}.{}.{:08x}.tmp", folder, target.filename().string(), device());
}

// The output's folder is the usual cause of a failed create or rename (never created, removed
// while a batch runs, a file in its place): say so instead of a bare "No such file or directory".
[[noreturn]] void ThrowWriteError(const std::string& path, const char* what) {
  const int saved = errno;
  const std::string folder = FolderOf(path);
  struct stat info {};
  const bool folder_missing = ::stat(folder.c_str(), &info) != 0;
  std::string reason;
  if ((saved == ENOENT || saved == ENOTDIR) && folder_missing) {
    reason = fmt::format("the folder '{}' does not exist (or was removed)", folder);
  } else if (saved == ENOTDIR || (saved == ENOENT && !S_ISDIR(info.st_mode))) {
    reason = fmt::format("'{}' is not a folder", folder);
  } else if (saved == ENOENT) {
    // The folder is there but the temporary file is not: removed by someone else meanwhile.
    reason = "the temporary file was removed during the write";
  }
  errno = saved;
  ThrowIo(path, reason.empty() ? std::string(what) : fmt::format("{}: {}", what, reason));
}

// ".NAME.XXXXXXXX.tmp" for the output file name NAME, as TemporaryNameFor makes them.
bool IsTemporaryOf(const std::string& entry, const std::string& name) {
  const size_t size = 1 + name.size() + 1 + 8 + 4;
  if (entry.size() != size || entry[0] != '.' || entry.compare(1, name.size(), name) != 0 ||
      entry[1 + name.size()] != '.' || entry.compare(size - 4, 4, ".tmp") != 0) {
    return false;
  }
  for (size_t i = name.size() + 2; i < size - 4; ++i) {
    if (!std::isxdigit(static_cast<unsigned char>(entry[i]))) return false;
  }
  return true;
}

// A writer holds an exclusive flock on its temporary file from creation to rename, and the kernel
// drops it when the process dies, SIGKILL included (no handler runs then, so the file stays). A
// temporary nobody holds is therefore abandoned, whatever its age: removing it cannot break a
// write in progress. True when `path` is gone afterwards (removed, or already gone).
bool RemoveIfAbandoned(const std::string& path) {
  FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (file.get() < 0) return errno == ENOENT;
  struct stat held {};
  if (::fstat(file.get(), &held) != 0 || !S_ISREG(held.st_mode)) return false;
  // Busy, or a file system without locks (then nothing is ever taken for abandoned).
  if (::flock(file.get(), LOCK_EX | LOCK_NB) != 0) return false;
  struct stat named {};
  if (::lstat(path.c_str(), &named) == 0 && named.st_dev == held.st_dev &&
      named.st_ino == held.st_ino) {
    ::unlink(path.c_str());
  }
  return true;
}

// Each folder is listed once per process, at its first write (a batch of 10,000 outputs in one
// folder would otherwise read it 10,000 times); each write then tries only its own output's
// temporaries from that list. Temporaries abandoned later are the next run's to remove.
class StaleTemporaries {
 public:
  void RemoveFor(const std::string& path) {
    const std::string folder = FolderOf(path);
    const std::string name = std::filesystem::path(path).filename().string();
    const std::lock_guard<std::mutex> lock(mutex_);
    auto [found, inserted] = by_folder_.try_emplace(folder);
    std::vector<std::string>& entries = found->second;
    if (inserted) entries = List(folder);
    for (auto it = entries.begin(); it != entries.end();) {
      if (IsTemporaryOf(*it, name) && RemoveIfAbandoned(folder + "/" + *it)) {
        it = entries.erase(it);
      } else {
        ++it;
      }
    }
  }

 private:
  // The names that may be temporaries: ".*.tmp", at least ".N.XXXXXXXX.tmp" long.
  static std::vector<std::string> List(const std::string& folder) {
    std::vector<std::string> entries;
    DIR* listing = ::opendir(folder.c_str());
    if (!listing) return entries;
    while (const dirent* entry = ::readdir(listing)) {
      const std::string entry_name = entry->d_name;
      if (entry_name.size() >= 15 && entry_name[0] == '.' &&
          entry_name.compare(entry_name.size() - 4, 4, ".tmp") == 0) {
        entries.push_back(entry_name);
      }
    }
    ::closedir(listing);
    return entries;
  }

  std::mutex mutex_;
  std::map<std::string, std::vector<std::string>> by_folder_;
};

StaleTemporaries& Stale() {
  static StaleTemporaries stale;
  return stale;
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
  // A regular file is read straight into its string, in large calls (one copy, not two: a 50 MB
  // input took 764 reads through a 64 KiB buffer). A pipe, or a file that grows as it is read,
  // goes on through the buffer below; one that shrinks ends where its data does.
  std::string bytes;
  size_t filled = 0;
  if (S_ISREG(info.st_mode) && info.st_size > 0) {
    bytes.reserve(static_cast<size_t>(info.st_size));
    bytes.resize(static_cast<size_t>(info.st_size));
    while (filled < bytes.size()) {
      const ssize_t got = ::read(file.get(), bytes.data() + filled,
                                 std::min(bytes.size() - filled, size_t{1} << 30));
      if (got < 0) {
        if (errno == EINTR) continue;
        ThrowIo(path, "cannot read input");
      }
      if (got == 0) break;
      filled += static_cast<size_t>(got);
    }
    bytes.resize(filled);
    if (filled < static_cast<size_t>(info.st_size)) return bytes;
  }
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

namespace {

// The rename is durable only once the folder's entry is on disk too (POSIX leaves a renamed
// name to the folder's own fsync; ext4 and xfs need it after a crash). The output is whole and in
// place either way, so a failure here is reported (exit 3) without removing it. File systems that
// cannot sync a folder (EINVAL, some FUSE and network ones) have nothing more to give.
void SyncFolderOf(const std::string& path) {
  const std::string folder = FolderOf(path);
  FileDescriptor directory(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (directory.get() < 0) return;  // the output is in place; nothing to sync through
  if (::fsync(directory.get()) != 0 && errno != EINVAL && errno != EROFS) {
    ThrowWriteError(path, "written, but its folder cannot be flushed to disk");
  }
}

// One attempt of WriteFileAtomic; false when the temporary file was removed before it was locked
// (another process took it for abandoned in that instant, see RemoveIfAbandoned): try again.
// `feed` is called once the temporary is created and locked, with a function that writes pieces
// to it in order (as often as it likes, from one thread at a time); when feed throws, the
// temporary is removed and its exception goes on.
bool WriteThroughTemporary(const std::string& path, const OutputFeed& feed) {
  const std::string temporary = TemporaryNameFor(path);
  const PendingTemporary pending(temporary);  // listed before it exists, released after rename
  FileDescriptor file(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
  if (file.get() < 0) ThrowWriteError(path, "cannot create output");
  if (::flock(file.get(), LOCK_EX) == 0) {
    struct stat info {};
    if (::fstat(file.get(), &info) == 0 && info.st_nlink == 0) return false;
  }
  auto fail = [&](const char* what) {
    const int saved = errno;
    if (file.get() >= 0) ::close(file.release());
    ::unlink(temporary.c_str());
    errno = saved;
    ThrowWriteError(path, what);
  };
  FileAppender appender(file.get());
  const auto write_pieces = [&](const std::vector<std::string_view>& pieces) {
    if (!appender.Append(pieces)) fail("cannot write output");
  };
  try {
    feed(write_pieces);
  } catch (...) {
    if (file.get() >= 0) ::close(file.release());
    ::unlink(temporary.c_str());  // again after a failed write: gone already
    throw;
  }
  if (!appender.Finish()) fail("cannot write output");
  if (::fsync(file.get()) != 0) fail("cannot flush output");
  // A network file system (NFS) may report a failed write only when the file is closed, so the
  // descriptor written through is closed and checked before the rename makes the output visible.
  // The lock must last until the temporary name is gone: a duplicate keeps it (flock belongs to
  // the open file, not to one descriptor), close-on-exec as every descriptor here.
  const FileDescriptor lock(::fcntl(file.get(), F_DUPFD_CLOEXEC, 0));
  if (lock.get() < 0) fail("cannot write output");
  if (::close(file.release()) != 0) fail("cannot write output (reported on close)");
  if (::rename(temporary.c_str(), path.c_str()) != 0) fail("cannot move output into place");
  SyncFolderOf(path);
  return true;
}

}  // namespace

void WriteFileAtomic(const std::string& path, std::string_view bytes) {
  WriteFileAtomic(path, std::vector<std::string_view>{bytes});
}

void WriteFileAtomic(const std::string& path, const std::vector<std::string_view>& pieces) {
  WriteFileAtomicFed(path, [&](const PieceWriter& write) { write(pieces); });
}

void WriteFileAtomicFed(const std::string& path, const OutputFeed& feed) {
  for (int attempt = 1; !WriteThroughTemporary(path, feed); ++attempt) {
    if (attempt == 3) {
      throw Error(ErrorKind::kIo, path, "",
                  "cannot create output: its temporary file was removed as it was created, "
                  "three times");
    }
  }
  RemoveStaleTemporaryFiles(path);
}

void RemoveStaleTemporaryFiles(const std::string& path) noexcept {
  try {
    Stale().RemoveFor(path);
  } catch (...) {
    // Best effort: the output is written; a leftover temporary is only clutter.
  }
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat info_a {};
  struct stat info_b {};
  if (::stat(a.c_str(), &info_a) != 0 || ::stat(b.c_str(), &info_b) != 0) return false;
  return info_a.st_dev == info_b.st_dev && info_a.st_ino == info_b.st_ino;
}

}  // namespace animconv
