// Helpers for the unit tests: temporary folders, the sample data, running the CLI.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "animconv/error.h"
#include "animconv/model.h"

namespace animconv::testing {

// The sanitizers bring an allocator of their own in place of glibc's heap (scripts/sanitize.sh):
// the tests of what glibc's heap does (its options, its statistics) skip there.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kMallocReplaced = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
constexpr bool kMallocReplaced = true;
#else
constexpr bool kMallocReplaced = false;
#endif
#else
constexpr bool kMallocReplaced = false;
#endif

// A fresh folder under the system temp dir, removed with its contents on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  size_t FileCount() const;

 private:
  std::string path_;
};

std::string SourcePath(const std::string& relative);  // a file of the source tree
std::string ReadText(const std::string& path);
void WriteText(const std::string& path, const std::string& text);
// Limits the size of the files this process writes to `bytes`, a write past it then failing with
// EFBIG (SIGXFSZ ignored); false when the limit cannot be set. For a child of EXPECT_EXIT: the
// limit is the whole process's.
bool LimitFileSize(size_t bytes);

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};
// Runs the animconv binary with `arguments` (already shell-quoted where needed).
CommandResult RunAnimconv(const std::string& arguments);

// A one-clip asset with a node per name and one channel per entry of `paths`.
Asset MakeAsset(const std::vector<std::string>& node_names);
Channel MakeChannel(int node, Path path, std::vector<double> times, std::vector<double> values,
                    int width, Interpolation interpolation = Interpolation::kLinear);

// Lookups the reader tests share: whether a note contains `part`; the first node named `name`
// (-1 when none); the channel of `node` and `path` (nullptr when none).
bool HasNote(const Asset& asset, const std::string& part);
bool Has(const std::string& text, const std::string& part);  // `part` occurs in `text`
int NodeNamed(const Asset& asset, const std::string& name);
const Channel* FindChannel(const Clip& clip, int node, Path path);
// A rotation of `degrees` about the X, Y or Z axis ('X', 'Y', 'Z').
Quat AxisAngle(char axis, double degrees);

// The kind of the Error `call` throws; nullopt (and a test failure) when it throws no Error.
template <typename Call>
std::optional<ErrorKind> ErrorKindOf(Call call) {
  try {
    call();
  } catch (const Error& error) {
    return error.kind();
  }
  ADD_FAILURE() << "no animconv::Error thrown";
  return std::nullopt;
}

}  // namespace animconv::testing
