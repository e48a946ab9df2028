// The CLI's commands. Each parses its own options and calls the library; exit codes in
// docs/cli.md (0 ok, 1 usage, 2 bad input, 3 I/O, 4 internal error).
#pragma once

#include <string>
#include <vector>

namespace animconv::cli {

int RunConvert(const std::vector<std::string>& args);
int RunInfo(const std::vector<std::string>& args);
int RunFormats(const std::vector<std::string>& args);
int RunBake(const std::vector<std::string>& args);
int RunBatch(const std::vector<std::string>& args);
int RunBones(const std::vector<std::string>& args);
int RunDiff(const std::vector<std::string>& args);
int RunPreview(const std::vector<std::string>& args);

}  // namespace animconv::cli
