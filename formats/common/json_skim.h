// Looking at a JSON text's keys without parsing its values, so content sniffing stays cheap on
// files of tens of MB (formats.h: sniffers run on every input).
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace animconv {

struct JsonKeyPlace {
  size_t depth = 0;             // 1 = a member of the top-level object
  const char* kinds = nullptr;  // '{' or '[' for the containers at depths 1..min(depth, 3)
  std::string_view top_key;     // the top-level member whose value holds the key
};

// Calls `visit` for every object key in document order until it returns true or the top-level
// value ends. A BOM and leading white space are skipped; text that does not start with { or [
// visits nothing.
void SkimJsonKeys(
    std::string_view text,
    const std::function<bool(std::string_view key, const JsonKeyPlace& place)>& visit);

}  // namespace animconv
