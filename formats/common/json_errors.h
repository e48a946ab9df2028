// Located JSON syntax errors for every JSON reader (three.js, glTF).
#pragma once

#include <string>
#include <string_view>

namespace animconv {

// Once nlohmann::json::parse has failed on `bytes`: Error(kBadInput) with the first error's
// line:column and what was expected.
[[noreturn]] void ThrowJsonSyntaxError(const std::string& source, std::string_view bytes);

}  // namespace animconv
