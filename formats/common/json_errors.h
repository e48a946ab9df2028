// Located JSON syntax errors for every JSON reader (three.js, glTF).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace animconv {

// Once nlohmann::json::parse has failed on `bytes`: Error(kBadInput) with the first error's
// line:column and what was expected.
[[noreturn]] void ThrowJsonSyntaxError(const std::string& source, std::string_view bytes);

// nlohmann::json::parse(bytes), with any failure reported by ThrowJsonSyntaxError.
nlohmann::json ParseJsonOrThrow(std::string_view bytes, const std::string& source);

// "line:column" (1-based, columns in bytes) of the byte at 0-based `offset` of `text`, where
// every JSON syntax error is reported.
std::string JsonLineColumn(std::string_view text, size_t offset);

}  // namespace animconv
