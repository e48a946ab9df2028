// Resolving the files an input refers to (a glTF's external buffers and images) without ever
// reaching outside the input's folder: converting a downloaded model must not read, and embed into
// its output, a private file of the user's (docs/reliability.md).
#pragma once

#include <cstdint>
#include <string>

namespace animconv {

// Reads the file `uri` (relative, RFC 3986 percent-encoded, as written in `input_path`) names
// beside `input_path`. Refuses with Error(kBadInput) naming `input_path`: schemes other than the
// data: URIs readers decode themselves, absolute paths, backslashes, `..` that climbs out of the
// folder, and symbolic links that lead out of it. `max_bytes` caps the file's size.
std::string LoadResourceBeside(const std::string& input_path, const std::string& uri,
                               uint64_t max_bytes);

}  // namespace animconv
