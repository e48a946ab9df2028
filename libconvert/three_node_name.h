// three.js's rule for the names its tracks give objects, shared by the three.js writer (the names
// it writes), the BVH writer and `animconv diff` (which pairs a glTF's nodes with a three.js clip's
// tracks): one implementation, so what diff pairs is what the writers write and three.js binds.
#pragma once

#include <string>
#include <string_view>

namespace animconv {

// three.js PropertyBinding.sanitizeNodeName: JavaScript whitespace (\s, ASCII and Unicode: U+00A0,
// U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF) becomes '_', the reserved
// characters [ ] . : / are deleted ("mixamorig:Left Arm.001" -> "mixamorigLeft_Arm001").
std::string SanitizeNodeName(std::string_view name);

}  // namespace animconv
