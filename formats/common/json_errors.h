// Located JSON syntax errors for every JSON reader (three.js, glTF).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace animconv {

// Once nlohmann::json::parse has failed on `bytes`: Error(kBadInput) with the first error's
// line:column and what was expected.
[[noreturn]] void ThrowJsonSyntaxError(const std::string& source, std::string_view bytes);

// JSON nested deeper than this is refused before it is parsed (docs/reliability.md, "Limits"):
// no format we read nests more than a few levels (glTF `extras` may hold a user's JSON), and a
// tree of 36,000 nested arrays held 54 bytes of heap per byte of text (a fuzz finding).
constexpr size_t kMaxJsonNesting = 512;

// The 0-based offset of the first `[` or `{` that opens level kMaxJsonNesting + 1 outside strings,
// if any. Linear, no allocation; malformed text is left to the parser.
std::optional<size_t> FindExcessJsonNesting(std::string_view text);

// The message for that offset: "JSON nested deeper than 512 levels".
std::string ExcessJsonNestingMessage();

// nlohmann::json::parse(bytes), with any failure reported by ThrowJsonSyntaxError, after
// FindExcessJsonNesting (an excess is Error(kBadInput) at its line:column).
nlohmann::json ParseJsonOrThrow(std::string_view bytes, const std::string& source);

// "line:column" (1-based, columns in bytes) of the byte at 0-based `offset` of `text`, where
// every JSON syntax error is reported.
std::string JsonLineColumn(std::string_view text, size_t offset);

}  // namespace animconv
