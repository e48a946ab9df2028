#include "libconvert/mapped_input.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "animconv/error.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::TempDir;

// `bytes` bytes of lowercase letters, each its offset's ('a' + offset % 26): no zero anywhere.
std::string LetterText(size_t bytes) {
  std::string text(bytes, '\0');
  for (size_t i = 0; i < bytes; ++i) text[i] = static_cast<char>('a' + i % 26);
  return text;
}

#if defined(__linux__)
// The guard is process-wide (a SIGBUS handler), so each case runs in a child (a death test forks)
// and reports through its exit code.
TEST(MappedInputTest, ALargeFileIsMappedOnceTheGuardIsInstalledWithTheSameBytes) {
  TempDir dir;
  const std::string large = LetterText((size_t{9} << 20) + 123);
  const std::string small = LetterText(1000);
  testing::WriteText(dir.File("large.txt"), large);
  testing::WriteText(dir.File("small.txt"), small);
  EXPECT_EXIT(
      {
        if (WouldMapInput(large.size())) std::_Exit(2);
        const InputBytes unguarded = ReadInput(dir.File("large.txt"));
        if (unguarded.mapped() || unguarded.view() != large) std::_Exit(3);
        InstallMappedInputGuard();
        if (!WouldMapInput(large.size()) || WouldMapInput(small.size())) std::_Exit(4);
        const InputBytes mapped = ReadInput(dir.File("large.txt"));
        if (!mapped.mapped() || mapped.view() != large) std::_Exit(5);
        const InputBytes read = ReadInput(dir.File("small.txt"));  // below 8 MiB: read
        if (read.mapped() || read.view() != small) std::_Exit(6);
        try {
          mapped.ThrowIfCutShort();
        } catch (const Error&) {
          std::_Exit(7);
        }
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

// For a child: maps `path` (holding `text`) with the guard installed, truncates the file to
// `cut_bytes` as another program would, and checks that the byte at `kept` is still the file's,
// the one at `zero` reads 0 (no SIGBUS), and the input reports an I/O error naming the file and
// the cut. 0 when all hold.
int CutWhileMapped(const std::string& path, const std::string& text, size_t cut_bytes, size_t kept,
                   size_t zero) {
  InstallMappedInputGuard();
  const InputBytes input = ReadInput(path);
  if (!input.mapped()) return 2;
  if (::truncate(path.c_str(), static_cast<off_t>(cut_bytes)) != 0) return 3;
  const volatile char* bytes = input.view().data();
  if (bytes[kept] != text[kept]) return 4;
  if (bytes[zero] != 0) return 5;
  try {
    input.ThrowIfCutShort();
  } catch (const Error& error) {
    const std::string message = error.what();
    const bool named =
        message.find(path) != std::string::npos && message.find("cut short") != std::string::npos;
    return error.kind() == ErrorKind::kIo && named ? 0 : 6;
  }
  return 7;  // not reported
}

// Its pages past the cut leave the mapping: a read there would raise SIGBUS, the guard's zeros
// answer it.
TEST(MappedInputTest, AFileCutShortWhileMappedReadsZerosThereAndIsReported) {
  TempDir dir;
  const std::string text = LetterText(size_t{16} << 20);
  testing::WriteText(dir.File("input.txt"), text);
  EXPECT_EXIT(std::_Exit(CutWhileMapped(dir.File("input.txt"), text, size_t{4} << 20,
                                        size_t{1} << 20, size_t{12} << 20)),
              ::testing::ExitedWithCode(0), "");
}

// Cut within its last page, a file reads zeros there without any fault (the kernel fills a page
// past the end so): the size the file has now tells.
TEST(MappedInputTest, AFileCutWithinItsLastPageIsReportedToo) {
  TempDir dir;
  const size_t nine_mib = size_t{9} << 20;
  const std::string text = LetterText(nine_mib + 3000);
  testing::WriteText(dir.File("input.txt"), text);
  EXPECT_EXIT(std::_Exit(CutWhileMapped(dir.File("input.txt"), text, nine_mib + 1000,
                                        nine_mib + 500, nine_mib + 2000)),
              ::testing::ExitedWithCode(0), "");
}

// Cut short, read past the cut, then written whole again before the check: the file's size no
// longer tells, so the guard's own mark must (the bytes read past the cut were its zeros). The
// message then says the file could not be read, not that it is shorter.
TEST(MappedInputTest, AFileCutAndWrittenWholeAgainIsReportedByTheGuardsMark) {
  TempDir dir;
  const std::string path = dir.File("input.txt");
  const std::string text = LetterText(size_t{16} << 20);
  testing::WriteText(path, text);
  EXPECT_EXIT(
      {
        InstallMappedInputGuard();
        const InputBytes input = ReadInput(path);
        if (!input.mapped()) std::_Exit(2);
        if (::truncate(path.c_str(), static_cast<off_t>(size_t{4} << 20)) != 0) std::_Exit(3);
        const volatile char* bytes = input.view().data();
        if (bytes[size_t{12} << 20] != 0) std::_Exit(4);  // the guard's zeros
        testing::WriteText(path, text);                   // whole again, same size
        try {
          input.ThrowIfCutShort();
        } catch (const Error& error) {
          const std::string message = error.what();
          const bool said = message.find(path) != std::string::npos &&
                            message.find("could not be read") != std::string::npos;
          std::_Exit(error.kind() == ErrorKind::kIo && said ? 0 : 5);
        }
        std::_Exit(6);  // not reported
      },
      ::testing::ExitedWithCode(0), "");
}

// A named pipe is opened once, by the read: an input that is looked at before it is read must
// not be opened and closed first, or the program writing into the pipe dies of SIGPIPE and the
// second open waits for a writer that is gone (it hung, or read a cut stream, before the name was
// looked at with stat). The writer here is a child that writes 9 MiB and exits 0 only if every
// write went through.
TEST(MappedInputTest, ANamedPipeIsOpenedOnceAndReadWhole) {
  TempDir dir;
  const std::string path = dir.File("input.pipe");
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  const std::string text = LetterText((size_t{9} << 20) + 123);
  EXPECT_EXIT(
      {
        ::alarm(20);  // a hang fails the test instead of stopping the suite
        const pid_t writer = ::fork();
        if (writer == 0) {
          ::signal(SIGPIPE, SIG_IGN);  // a closed reader shows as EPIPE
          const int fd = ::open(path.c_str(), O_WRONLY);
          size_t done = 0;
          while (fd >= 0 && done < text.size()) {
            const ssize_t put = ::write(fd, text.data() + done, text.size() - done);
            if (put <= 0) std::_Exit(1);
            done += static_cast<size_t>(put);
          }
          std::_Exit(fd >= 0 ? 0 : 2);
        }
        InstallMappedInputGuard();
        const InputBytes input = ReadInput(path);
        int status = 0;
        if (::waitpid(writer, &status, 0) != writer) std::_Exit(3);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) std::_Exit(4);
        std::_Exit(!input.mapped() && input.view() == text ? 0 : 5);
      },
      ::testing::ExitedWithCode(0), "");
}

// Killed by SIGBUS; or, in a sanitizer build, ended by the sanitizer's own report (its handler
// was the one before the guard's, so the guard hands the fault to it).
bool EndedByTheSigbus(int status) {
  if (WIFSIGNALED(status)) return WTERMSIG(status) == SIGBUS;
  return testing::kMallocReplaced && WIFEXITED(status) && WEXITSTATUS(status) == 1;
}

// The guard only answers for the inputs it mapped: any other SIGBUS still ends the process.
TEST(MappedInputTest, ASigbusElsewhereStillEndsTheProcess) {
  TempDir dir;
  const std::string path = dir.File("other.bin");
  testing::WriteText(path, LetterText(size_t{1} << 20));
  EXPECT_EXIT(
      {
        InstallMappedInputGuard();
        const int fd = ::open(path.c_str(), O_RDONLY);
        auto* const bytes = static_cast<const volatile char*>(
            ::mmap(nullptr, size_t{1} << 20, PROT_READ, MAP_PRIVATE, fd, 0));
        if (bytes == MAP_FAILED || ::truncate(path.c_str(), 0) != 0) std::_Exit(2);
        std::_Exit(bytes[size_t{512} << 10] == 0 ? 3 : 4);  // never reached
      },
      EndedByTheSigbus, "");
}

// A SIGBUS sent by another process is no fault of a mapped input: it ends the process as before.
TEST(MappedInputTest, ASentSigbusStillEndsTheProcess) {
  EXPECT_EXIT(
      {
        InstallMappedInputGuard();
        ::raise(SIGBUS);
        std::_Exit(2);
      },
      EndedByTheSigbus, "");
}
#endif

}  // namespace
}  // namespace animconv
