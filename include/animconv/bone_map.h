// The `--bone-map` file format (docs/cli.md): `from,to` per line, spaces around fields ignored,
// blank lines and `#` comments (a `#` at the start of a line or after a space or tab; "a#b" stays
// a name), UTF-8 BOM and CRLF tolerated. Part of the formats target: libconvert reads no files.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "animconv/bone_names.h"

namespace animconv {

// Errors are Error(kBadInput) at source:line:column; a `from` given twice (exact text) is one.
std::vector<BoneMapEntry> ParseBoneMap(std::string_view text, const std::string& source);

}  // namespace animconv
