// Running the real animconv as a child process, for the tests that need its exit status, its
// stderr or its resource use rather than RunAnimconv's combined output: fault_test.cpp,
// io_fault_test.cpp, process_memory_test.cpp.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

#include "test_support.h"

namespace animconv::testing {

// Starts `animconv -q` with `arguments`, stdout to /dev/null, stderr into `stderr_path`, the
// test's environment plus `environment` ("NAME=VALUE", replacing a variable of that name).
pid_t Start(const std::vector<std::string>& arguments, const std::string& stderr_path,
            const std::vector<std::string>& environment = {});

// Waits for `pid`: its exit code, or 128 + the signal that ended it; -1 when it cannot. With
// `usage`, the child's resource use (wait4), `ru_maxrss` its peak resident set in KiB.
int ExitCode(pid_t pid, struct rusage* usage = nullptr);

struct CliRun {
  int exit_code = -1;
  std::string errors;  // stderr
};

// Start + ExitCode, stderr kept in a fresh file under `scratch`.
CliRun RunCli(const TempDir& scratch, const std::vector<std::string>& arguments,
              const std::vector<std::string>& environment = {});

// The regular files under `folder`, relative to it.
std::vector<std::string> Names(const std::string& folder);

// Every regular file under `folder`, by relative path, with its bytes.
std::map<std::string, std::string> Tree(const std::string& folder);

// The `.tmp` files under `folder`.
size_t TemporaryCount(const std::string& folder);

// `count` copies of `source` named NNN.csv in `folder`.
void Copies(const std::string& source, const std::string& folder, int count);

}  // namespace animconv::testing
