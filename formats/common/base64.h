// Base64 with padding (RFC 4648 §4): the payload of glTF's data: URIs (glTF 2.0 §3.6.1.1).
#pragma once

#include <string>
#include <string_view>

namespace animconv {

std::string Base64Encode(std::string_view bytes);
// The same, appended to `out` (a large glTF data: URI written in place, not copied).
void AppendBase64(std::string_view bytes, std::string* out);
size_t Base64EncodedSize(size_t bytes);

// Decodes `text` into `bytes`; false at a character outside the alphabet, or anything but '='
// after the first '='.
bool Base64Decode(std::string_view text, std::string* bytes);

}  // namespace animconv
