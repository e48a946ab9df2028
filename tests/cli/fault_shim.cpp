// An LD_PRELOAD library that makes chosen I/O calls of the process it is loaded into fail, for
// tests/cli/io_fault_test.cpp (docs/reliability.md "Faults"): a failing disk (EIO), a disk that
// fills during a write (ENOSPC), a network file system reporting a write error at close, a rename
// across file systems. Linux/glibc only; built for the tests, never installed.
//
//   ANIMCONV_FAULT=RULE[,RULE...]      RULE = CALL:ERRNO[:OPTION...]
//
//   CALL    write   write, pwrite, writev
//           read    read, pread, readv
//           fsync   fsync, fdatasync
//           close   close (the descriptor is closed, as Linux does, then the error returned)
//           rename  rename, renameat, renameat2
//           mmap    mmap of a file; its one "error" is CUT: the mapping is made, then the file
//                   is truncated to half its size, as by another program (an input read in
//                   place, libconvert/mapped_input.h)
//           thread  pthread_create (a limit on threads reached: EAGAIN)
//   ERRNO   its name: EIO, ENOSPC, EDQUOT, EXDEV, EROFS, EACCES, EPERM, EINTR, EAGAIN (CUT for
//           mmap)
//   OPTION  after=N         read/write: the first N bytes go through (the call crossing N is
//                           shortened to end there), every later call fails; other calls: the
//                           first N matching calls go through
//           path=SUBSTRING  only files whose path contains SUBSTRING (a descriptor's path is
//                           the one /proc/self/fd shows; rename: either name)
//           dir | file      only descriptors of folders | of regular files
//
// Descriptor calls never fail on pipes, terminals or sockets (stderr stays usable), so
// `write:EIO` means every write to a file. Examples: `fsync:EIO`, `fsync:EIO:dir`,
// `write:ENOSPC:after=65536`, `read:EIO:path=walk.csv`, `close:EIO:path=.tmp`, `rename:EXDEV`,
// `mmap:CUT:path=big.csv`, `thread:EAGAIN:after=1`. (A sanitizer build's own pthread_create, in
// the program itself, comes before this library's: there `thread` rules change nothing.)
// An unreadable rule makes the process exit 99 at start, so a typo cannot pass as "no fault".
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace {

enum class Call { kWrite, kRead, kFsync, kClose, kRename, kMmap, kThread };

constexpr int kCut = -1;  // mmap's "error": the file truncated once mapped
enum class Kind { kAny, kFolder, kFile };

struct Rule {
  Call call = Call::kWrite;
  int error = 0;
  long long after = 0;  // bytes (read, write) or calls (the others) let through
  char path[256] = {};  // substring; empty: any
  Kind kind = Kind::kAny;
  std::atomic<long long> used{0};  // bytes or calls seen so far
};

constexpr int kMaxRules = 8;
Rule g_rules[kMaxRules];
int g_rule_count = 0;

[[noreturn]] void Refuse(const char* rule, const char* why) {
  fprintf(stderr, "fault_shim: ANIMCONV_FAULT rule '%s': %s\n", rule, why);
  _exit(99);
}

bool ParseCall(const char* name, Call* call) {
  static const struct {
    const char* name;
    Call call;
  } kCalls[] = {{"write", Call::kWrite},  {"read", Call::kRead},     {"fsync", Call::kFsync},
                {"close", Call::kClose},  {"rename", Call::kRename}, {"mmap", Call::kMmap},
                {"thread", Call::kThread}};
  for (const auto& known : kCalls) {
    if (strcmp(name, known.name) == 0) {
      *call = known.call;
      return true;
    }
  }
  return false;
}

int ParseErrno(const char* name) {
  static const struct {
    const char* name;
    int value;
  } kErrors[] = {{"EIO", EIO},     {"ENOSPC", ENOSPC}, {"EDQUOT", EDQUOT},
                 {"EXDEV", EXDEV}, {"EROFS", EROFS},   {"EACCES", EACCES},
                 {"EPERM", EPERM}, {"EINTR", EINTR},   {"EAGAIN", EAGAIN}};
  for (const auto& known : kErrors) {
    if (strcmp(name, known.name) == 0) return known.value;
  }
  return 0;
}

// Fills `rule` from "CALL:ERRNO[:OPTION...]" (`text` is modified: split at ':').
void ParseRule(char* text, const char* whole, Rule* rule) {
  char* save = nullptr;
  const char* call = strtok_r(text, ":", &save);
  const char* error = strtok_r(nullptr, ":", &save);
  if (!call || !ParseCall(call, &rule->call)) Refuse(whole, "unknown call");
  if (rule->call == Call::kMmap) {
    if (!error || strcmp(error, "CUT") != 0) Refuse(whole, "mmap's only fault is CUT");
    rule->error = kCut;
  } else if (!error || (rule->error = ParseErrno(error)) == 0) {
    Refuse(whole, "unknown errno name");
  }
  while (const char* option = strtok_r(nullptr, ":", &save)) {
    if (strncmp(option, "after=", 6) == 0) {
      char* end = nullptr;
      rule->after = strtoll(option + 6, &end, 10);
      if (*end != '\0' || rule->after < 0) Refuse(whole, "after= needs a count");
    } else if (strncmp(option, "path=", 5) == 0) {
      if (strlen(option + 5) >= sizeof rule->path) Refuse(whole, "path= is too long");
      strcpy(rule->path, option + 5);
    } else if (strcmp(option, "dir") == 0) {
      rule->kind = Kind::kFolder;
    } else if (strcmp(option, "file") == 0) {
      rule->kind = Kind::kFile;
    } else {
      Refuse(whole, "unknown option");
    }
  }
}

__attribute__((constructor)) void ParseRules() {
  const char* spec = getenv("ANIMCONV_FAULT");
  if (!spec || !*spec) return;
  static char copy[1024];
  if (strlen(spec) >= sizeof copy) Refuse(spec, "too long");
  strcpy(copy, spec);
  char* save = nullptr;
  for (char* text = strtok_r(copy, ",", &save); text; text = strtok_r(nullptr, ",", &save)) {
    if (g_rule_count == kMaxRules) Refuse(spec, "too many rules");
    static char whole[1024];
    strcpy(whole, text);
    ParseRule(text, whole, &g_rules[g_rule_count++]);
  }
}

template <typename Function>
Function Real(const char* name) {
  void* found = dlsym(RTLD_NEXT, name);
  if (!found) {
    fprintf(stderr, "fault_shim: no next definition of %s\n", name);
    _exit(99);
  }
  return reinterpret_cast<Function>(found);
}

bool KindMatches(Kind kind, mode_t mode) {
  if (kind == Kind::kFolder) return S_ISDIR(mode);
  if (kind == Kind::kFile) return S_ISREG(mode);
  return S_ISDIR(mode) || S_ISREG(mode);
}

bool FdMatches(const Rule& rule, int fd) {
  struct stat info {};
  if (fstat(fd, &info) != 0 || !KindMatches(rule.kind, info.st_mode)) return false;
  if (!rule.path[0]) return true;
  char link[64];
  char target[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t size = readlink(link, target, sizeof target - 1);
  if (size < 0) return false;
  target[size] = '\0';
  return strstr(target, rule.path) != nullptr;
}

// The rule for `call` on `fd` (nullptr: none applies).
Rule* RuleForFd(Call call, int fd) {
  for (int i = 0; i < g_rule_count; ++i) {
    if (g_rules[i].call == call && FdMatches(g_rules[i], fd)) return &g_rules[i];
  }
  return nullptr;
}

// How many of `wanted` bytes may go through (0: fail the call), counting them as used.
size_t BytesAllowed(Rule* rule, size_t wanted) {
  const long long before = rule->used.fetch_add(static_cast<long long>(wanted));
  if (before >= rule->after) return 0;
  const long long left = rule->after - before;
  return wanted < static_cast<size_t>(left) ? wanted : static_cast<size_t>(left);
}

// Whether this call of a counted rule fails (the first `after` calls go through).
bool CallFails(Rule* rule) { return rule->used.fetch_add(1) >= rule->after; }

template <typename Result>
Result Fail(int error) {
  errno = error;
  return static_cast<Result>(-1);
}

size_t IovecBytes(const struct iovec* iov, int count) {
  size_t total = 0;
  for (int i = 0; i < count; ++i) total += iov[i].iov_len;
  return total;
}

// Data calls: shortened at the rule's byte budget, failing once it is spent.
template <typename Transfer>
ssize_t Transferred(Call call, int fd, size_t wanted, Transfer transfer) {
  Rule* rule = RuleForFd(call, fd);
  if (!rule) return transfer(wanted);
  const size_t allowed = BytesAllowed(rule, wanted);
  if (allowed == 0 && wanted > 0) return Fail<ssize_t>(rule->error);
  return transfer(allowed);
}

bool RenameFails(const char* from, const char* to) {
  for (int i = 0; i < g_rule_count; ++i) {
    Rule& rule = g_rules[i];
    if (rule.call != Call::kRename) continue;
    if (rule.path[0] && !strstr(from, rule.path) && !strstr(to, rule.path)) continue;
    if (CallFails(&rule)) {
      errno = rule.error;
      return true;
    }
  }
  return false;
}

}  // namespace

extern "C" {

ssize_t write(int fd, const void* buffer, size_t size) {
  static const auto real = Real<ssize_t (*)(int, const void*, size_t)>("write");
  return Transferred(Call::kWrite, fd, size, [&](size_t n) { return real(fd, buffer, n); });
}

ssize_t pwrite(int fd, const void* buffer, size_t size, off_t offset) {
  static const auto real = Real<ssize_t (*)(int, const void*, size_t, off_t)>("pwrite");
  return Transferred(Call::kWrite, fd, size, [&](size_t n) { return real(fd, buffer, n, offset); });
}

ssize_t writev(int fd, const struct iovec* iov, int count) {
  static const auto real = Real<ssize_t (*)(int, const struct iovec*, int)>("writev");
  Rule* rule = RuleForFd(Call::kWrite, fd);
  // Not shortened (the vector would need cutting): all of it, or the error.
  if (rule && BytesAllowed(rule, IovecBytes(iov, count)) == 0) return Fail<ssize_t>(rule->error);
  return real(fd, iov, count);
}

ssize_t read(int fd, void* buffer, size_t size) {
  static const auto real = Real<ssize_t (*)(int, void*, size_t)>("read");
  return Transferred(Call::kRead, fd, size, [&](size_t n) { return real(fd, buffer, n); });
}

ssize_t pread(int fd, void* buffer, size_t size, off_t offset) {
  static const auto real = Real<ssize_t (*)(int, void*, size_t, off_t)>("pread");
  return Transferred(Call::kRead, fd, size, [&](size_t n) { return real(fd, buffer, n, offset); });
}

ssize_t readv(int fd, const struct iovec* iov, int count) {
  static const auto real = Real<ssize_t (*)(int, const struct iovec*, int)>("readv");
  Rule* rule = RuleForFd(Call::kRead, fd);
  if (rule && BytesAllowed(rule, IovecBytes(iov, count)) == 0) return Fail<ssize_t>(rule->error);
  return real(fd, iov, count);
}

int fsync(int fd) {
  static const auto real = Real<int (*)(int)>("fsync");
  Rule* rule = RuleForFd(Call::kFsync, fd);
  return rule && CallFails(rule) ? Fail<int>(rule->error) : real(fd);
}

int fdatasync(int fd) {
  static const auto real = Real<int (*)(int)>("fdatasync");
  Rule* rule = RuleForFd(Call::kFsync, fd);
  return rule && CallFails(rule) ? Fail<int>(rule->error) : real(fd);
}

int close(int fd) {
  static const auto real = Real<int (*)(int)>("close");
  Rule* rule = RuleForFd(Call::kClose, fd);  // before the descriptor and its path are gone
  const bool fails = rule && CallFails(rule);
  const int result = real(fd);
  return fails ? Fail<int>(rule->error) : result;
}

// The loader maps libraries with its own calls, and malloc maps no file (fd -1): only the
// program's own mappings of files come here.
void* mmap(void* address, size_t length, int protection, int flags, int fd, off_t offset) {
  static const auto real = Real<void* (*)(void*, size_t, int, int, int, off_t)>("mmap");
  void* const mapped = real(address, length, protection, flags, fd, offset);
  if (mapped == MAP_FAILED || fd < 0) return mapped;
  Rule* rule = RuleForFd(Call::kMmap, fd);
  struct stat info {};
  if (rule && CallFails(rule) && fstat(fd, &info) == 0) {
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    if (truncate(link, info.st_size / 2) != 0) {
      fprintf(stderr, "fault_shim: cannot cut %s short\n", link);
      _exit(99);
    }
  }
  return mapped;
}

// Returns the error, as pthread_create does (errno is not its channel).
int pthread_create(pthread_t* thread, const pthread_attr_t* attributes, void* (*start)(void*),
                   void* argument) {
  static const auto real =
      Real<int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*)>("pthread_create");
  for (int i = 0; i < g_rule_count; ++i) {
    if (g_rules[i].call == Call::kThread && CallFails(&g_rules[i])) return g_rules[i].error;
  }
  return real(thread, attributes, start, argument);
}

int rename(const char* from, const char* to) noexcept {
  static const auto real = Real<int (*)(const char*, const char*)>("rename");
  return RenameFails(from, to) ? -1 : real(from, to);
}

int renameat(int from_dir, const char* from, int to_dir, const char* to) noexcept {
  static const auto real = Real<int (*)(int, const char*, int, const char*)>("renameat");
  return RenameFails(from, to) ? -1 : real(from_dir, from, to_dir, to);
}

int renameat2(int from_dir, const char* from, int to_dir, const char* to,
              unsigned int flags) noexcept {
  static const auto real =
      Real<int (*)(int, const char*, int, const char*, unsigned int)>("renameat2");
  return RenameFails(from, to) ? -1 : real(from_dir, from, to_dir, to, flags);
}

}  // extern "C"
