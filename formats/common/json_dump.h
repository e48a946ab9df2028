// Writing an nlohmann::json tree straight into an output, without the temporary string dump()
// returns (issue 14, docs/reliability.md "Time and memory bounds"): the writers measure the text
// first, reserve their output once, then write into it. The bytes are dump()'s, and a packed value
// in the tree (canonical_json.h) is written as the text it holds.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace animconv {

// The size of value.dump().
size_t JsonDumpSize(const nlohmann::json& value);
// out += value.dump(), without the temporary.
void AppendJsonDump(const nlohmann::json& value, std::string& out);

}  // namespace animconv
