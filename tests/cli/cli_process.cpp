#include "cli/cli_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace animconv::testing {

namespace fs = std::filesystem;

pid_t Start(const std::vector<std::string>& arguments, const std::string& stderr_path,
            const std::vector<std::string>& environment) {
  std::vector<std::string> strings{ANIMCONV_BINARY, "-q"};
  strings.insert(strings.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& argument : strings) argv.push_back(argument.data());
  argv.push_back(nullptr);
  std::vector<std::string> variables = environment;
  for (char** variable = environ; *variable; ++variable) {
    const char* equals = std::strchr(*variable, '=');
    const size_t name_size = equals ? static_cast<size_t>(equals - *variable) + 1 : 0;
    bool replaced = false;
    for (const std::string& added : environment) {
      replaced = replaced || (name_size && added.compare(0, name_size, *variable, name_size) == 0);
    }
    if (!replaced) variables.emplace_back(*variable);
  }
  std::vector<char*> envp;
  for (std::string& variable : variables) envp.push_back(variable.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  pid_t pid = -1;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data()) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

int ExitCode(pid_t pid, struct rusage* usage) {
  int status = 0;
  struct rusage ignored {};
  if (pid < 0 || ::wait4(pid, &status, 0, usage ? usage : &ignored) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

CliRun RunCli(const TempDir& scratch, const std::vector<std::string>& arguments,
              const std::vector<std::string>& environment) {
  static int counter = 0;
  const std::string log = scratch.File("stderr." + std::to_string(counter++));
  CliRun run;
  run.exit_code = ExitCode(Start(arguments, log, environment));
  run.errors = ReadText(log);
  return run;
}

std::vector<std::string> Names(const std::string& folder) {
  std::vector<std::string> names;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(folder, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    std::error_code ignored;  // a file a running batch removes meanwhile
    if (it->is_regular_file(ignored))
      names.push_back(it->path().lexically_relative(folder).string());
  }
  return names;
}

std::map<std::string, std::string> Tree(const std::string& folder) {
  std::map<std::string, std::string> files;
  for (const std::string& name : Names(folder)) files[name] = ReadText(folder + "/" + name);
  return files;
}

size_t TemporaryCount(const std::string& folder) {
  size_t count = 0;
  for (const std::string& name : Names(folder)) count += fs::path(name).extension() == ".tmp";
  return count;
}

void Copies(const std::string& source, const std::string& folder, int count) {
  fs::create_directories(folder);
  for (int i = 0; i < count; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "/%03d.csv", i);
    fs::copy_file(source, folder + name);
  }
}

}  // namespace animconv::testing
