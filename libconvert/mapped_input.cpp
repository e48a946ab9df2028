#include "libconvert/mapped_input.h"

#include <atomic>
#include <optional>
#include <utility>

#include "animconv/error.h"

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#define ANIMCONV_MAPPED_INPUT 1
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#define ANIMCONV_MAPPED_INPUT 0
#endif

namespace animconv {
namespace {

#if ANIMCONV_MAPPED_INPUT
// Below this a read costs no more than a mapping (the job takes milliseconds either way); the
// same threshold as the large-job heap (cli/input_options.cpp).
constexpr uint64_t kMapFromBytes = uint64_t{8} << 20;

// The mapped inputs the SIGBUS handler knows, in fixed slots it can read without locks or
// allocation. A slot is taken by compare-and-swap of `end` from 0, filled, then published by
// `begin`; the handler only looks at slots whose `begin` is set. `changes` is odd while a slot's
// range is being set or cleared, and counts every change, so that the handler never pairs one
// input's `begin` with another's `end` when another thread frees and takes the slot between its
// two loads (`batch -j N`): it reads the pair only when `changes` is even and the same around it.
struct GuardSlot {
  std::atomic<uint64_t> changes{0};
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};
  std::atomic<bool> cut_short{false};
};
constexpr int kGuardSlots = 16;
GuardSlot g_slots[kGuardSlots];
std::atomic<bool> g_guard_installed{false};
struct sigaction g_previous_action {};
uintptr_t g_page_bytes = 4096;  // sysconf's, read when the guard is installed (not in the handler)

// A fault inside a mapped input: its file was truncated and this page is past the new end. Zeros
// are mapped over the rest of the input (a truncation cuts the tail), so the reader goes on and
// sees no number where the file ended, and the input is marked. Only async-signal-safe calls.
extern "C" void OnSigbus(int signal_number, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  // Only a fault the kernel raised for an access has an address (si_code > 0); one sent by
  // kill(2) does not. A machine-check code (memory the hardware found corrupt) is never ours.
  const bool access =
      info->si_code > 0 && info->si_code != BUS_MCEERR_AR && info->si_code != BUS_MCEERR_AO;
  for (int i = 0; access && i < kGuardSlots; ++i) {
    GuardSlot& slot = g_slots[i];
    const uint64_t changes = slot.changes.load();
    const uintptr_t begin = slot.begin.load();
    const uintptr_t end = slot.end.load();
    if (changes % 2 != 0 || slot.changes.load() != changes) continue;  // changing: not this one
    if (begin == 0 || address < begin || address >= end) continue;
    const uintptr_t page = address & ~(g_page_bytes - 1);
    if (::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
      slot.cut_short.store(true);
      return;  // the faulting read runs again, on the zeros
    }
  }
  // Not ours: the action from before the guard. Returning re-runs a faulting access under it
  // (the default one ends the process with SIGBUS, as without the guard); a signal sent by
  // kill(2) is raised again for it (it stays pending, blocked, until this handler returns).
  const bool sent = info->si_code <= 0;
  if (g_previous_action.sa_flags & SA_SIGINFO) {
    if (g_previous_action.sa_sigaction != nullptr) {
      g_previous_action.sa_sigaction(signal_number, info, context);
      return;
    }
  } else if (g_previous_action.sa_handler == SIG_IGN) {
    if (sent) return;  // ignored, as it was (the kernel never lets a fault be ignored)
  } else if (g_previous_action.sa_handler != SIG_DFL) {
    g_previous_action.sa_handler(signal_number);
    return;
  }
  ::signal(SIGBUS, SIG_DFL);
  if (sent) ::raise(SIGBUS);
}

int TakeSlot(uintptr_t begin, uintptr_t end) {
  for (int i = 0; i < kGuardSlots; ++i) {
    uintptr_t free_end = 0;
    if (g_slots[i].end.compare_exchange_strong(free_end, end)) {
      g_slots[i].changes.fetch_add(1);  // odd: the handler passes it by until it is filled
      g_slots[i].cut_short.store(false);
      g_slots[i].begin.store(begin);
      g_slots[i].changes.fetch_add(1);
      return i;
    }
  }
  return -1;  // all taken (16 large inputs at once): read instead
}

void FreeSlot(int i) {
  g_slots[i].changes.fetch_add(1);
  g_slots[i].begin.store(0);
  g_slots[i].changes.fetch_add(1);
  g_slots[i].end.store(0);  // last: the slot can be taken again from here
}

// A regular file the guard is there for, large enough to pay, within the limit.
bool WorthMapping(const struct stat& info, uint64_t max_bytes) {
  const auto bytes = static_cast<uint64_t>(info.st_size);
  return S_ISREG(info.st_mode) && WouldMapInput(bytes) && bytes <= max_bytes;
}

// The file mapped and registered with the guard; nothing when mapping is not worth it or not
// possible (the caller reads the file then, and reports any error).
std::optional<FileMapping> MapRegularFile(const std::string& path, uint64_t max_bytes) {
  // Looked at by name first: a named pipe must be opened once only, by ReadFile (opened here and
  // closed, a writer that writes meanwhile would die of SIGPIPE, and the pipe's second open would
  // wait for a writer that is gone). O_NONBLOCK: should the name become a pipe before the open,
  // it does not wait for a writer either (and the checks below send it to ReadFile).
  struct stat named {};
  if (::stat(path.c_str(), &named) != 0 || !WorthMapping(named, max_bytes)) return std::nullopt;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;  // ReadFile reports it
  struct stat before {};
  std::optional<FileMapping> mapping;
  if (::fstat(fd, &before) == 0 && WorthMapping(before, max_bytes)) {
    const auto length = static_cast<size_t>(before.st_size);
    const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t length_in_pages = (length + page - 1) / page * page;
    // MAP_POPULATE: the page-cache pages are entered now, not by a fault on each 4 KiB as the
    // parse reaches it.
    void* const address =
        ::mmap(nullptr, length_in_pages, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (address != MAP_FAILED) {
      const auto begin = reinterpret_cast<uintptr_t>(address);
      const int taken = TakeSlot(begin, begin + length_in_pages);
      struct stat after {};
      // A file that grew meanwhile is read the usual way, to its new end (as ReadFile does); one
      // that shrank is what the guard and ThrowIfCutShort are for.
      if (taken >= 0 && ::fstat(fd, &after) == 0 && after.st_size <= before.st_size) {
        mapping = FileMapping{address, length, length_in_pages, taken, fd};
      } else {
        if (taken >= 0) FreeSlot(taken);
        ::munmap(address, length_in_pages);
      }
    }
  }
  if (!mapping) ::close(fd);
  return mapping;
}
#endif

}  // namespace

InputBytes::~InputBytes() { Release(); }

InputBytes::InputBytes(InputBytes&& other) noexcept { *this = std::move(other); }

InputBytes& InputBytes::operator=(InputBytes&& other) noexcept {
  if (this != &other) {
    Release();
    path_ = std::move(other.path_);
    owned_ = std::move(other.owned_);
    mapping_ = std::exchange(other.mapping_, FileMapping{});
  }
  return *this;
}

void InputBytes::Release() noexcept {
#if ANIMCONV_MAPPED_INPUT
  if (mapping_.address == nullptr) return;
  FreeSlot(mapping_.guard_slot);
  ::munmap(mapping_.address, mapping_.mapped_bytes);
  ::close(mapping_.descriptor);
  mapping_ = FileMapping{};
#endif
}

std::string_view InputBytes::view() const {
  if (mapping_.address != nullptr) {
    return std::string_view(static_cast<const char*>(mapping_.address), mapping_.file_bytes);
  }
  return owned_;
}

void InputBytes::ThrowIfCutShort() const {
#if ANIMCONV_MAPPED_INPUT
  if (mapping_.address == nullptr) return;
  // The guard saw a read past the new end; or the file ends short of what was mapped, its last
  // page's tail read as zeros without a fault (the kernel fills a page past the end so).
  struct stat now {};
  const bool shorter = ::fstat(mapping_.descriptor, &now) == 0 &&
                       static_cast<uint64_t>(now.st_size) < mapping_.file_bytes;
  if (shorter) {
    throw Error(ErrorKind::kIo, path_, "",
                "the file was cut short while it was read (truncated by another program?); "
                "nothing was written");
  }
  // A page that faulted though the file is whole now: it was cut short and written again, or the
  // page could not be read from the disk (an I/O error also raises SIGBUS for a mapped file).
  if (g_slots[mapping_.guard_slot].cut_short.load()) {
    throw Error(ErrorKind::kIo, path_, "",
                "part of the file could not be read while it was read in place (cut short and "
                "written again, or an I/O error); nothing was written");
  }
#endif
}

void InstallMappedInputGuard() {
#if ANIMCONV_MAPPED_INPUT
  bool installed = false;
  if (!g_guard_installed.compare_exchange_strong(installed, true)) return;
  g_page_bytes = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  struct sigaction action {};
  action.sa_sigaction = OnSigbus;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  if (::sigaction(SIGBUS, &action, &g_previous_action) != 0) g_guard_installed.store(false);
#endif
}

bool WouldMapInput(uint64_t file_bytes) {
#if ANIMCONV_MAPPED_INPUT
  return g_guard_installed.load() && file_bytes >= kMapFromBytes;
#else
  (void)file_bytes;
  return false;
#endif
}

InputBytes ReadInput(const std::string& path, uint64_t max_bytes) {
  InputBytes input;
  input.path_ = path;
#if ANIMCONV_MAPPED_INPUT
  if (std::optional<FileMapping> mapping = MapRegularFile(path, max_bytes)) {
    input.mapping_ = *mapping;
    return input;
  }
#endif
  input.owned_ = ReadFile(path, max_bytes);
  return input;
}

}  // namespace animconv
