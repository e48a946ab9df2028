#include "formats/common/json_pointer.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "animconv/error.h"
#include "formats/common/canonical_json.h"

namespace animconv {

using nlohmann::json;

const json* Given(const json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return nullptr;
  // A member a reader's pack filter kept as its text (canonical_json.h) is null the same way.
  if (IsPackedJsonValue(*found) && PackedJsonText(*found) == "null") return nullptr;
  return &*found;
}

std::string JsonPointerEscape(const std::string& key) {
  std::string escaped;
  for (const char c : key) {
    if (c == '~') {
      escaped += "~0";
    } else if (c == '/') {
      escaped += "~1";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

// Below the halfway point between FLT_MAX and 2^128 a double rounds to FLT_MAX (the halfway point
// itself rounds to even, up): the text "3.4028235e+38", which our writers give FLT_MAX, is above
// FLT_MAX as a double and was refused on the way back.
bool FitsFloat32(double number) { return std::abs(number) < 0x1.ffffffp127; }

void JsonPointerReader::Fail(const std::string& pointer, const std::string& message) const {
  ThrowBadInput(source_, pointer.empty() ? root_ : pointer, message);
}

const json& JsonPointerReader::Require(const json& object, const char* key,
                                       const std::string& pointer) const {
  const auto found = object.find(key);
  if (found == object.end()) Fail(pointer, fmt::format("expected a member '{}'", key));
  return *found;
}

const json& JsonPointerReader::RequireArray(const json& value, const std::string& pointer) const {
  if (!value.is_array()) {
    Fail(pointer, fmt::format("expected an array, found {}", value.type_name()));
  }
  return value;
}

std::string JsonPointerReader::RequireString(const json& value, const std::string& pointer) const {
  if (!value.is_string()) {
    Fail(pointer, fmt::format("expected a string, found {}", value.type_name()));
  }
  return value.get<std::string>();
}

double JsonPointerReader::RequireNumber(const json& value, const std::string& pointer) const {
  if (value.is_number()) return value.get<double>();
  if (value.is_null()) {
    Fail(pointer, "expected a number, found null (JSON.stringify writes NaN and Infinity as null)");
  }
  Fail(pointer, fmt::format("expected a number, found {}", value.type_name()));
}

double JsonPointerReader::ToFloat32(double number, const std::string& pointer) const {
  if (!FitsFloat32(number)) {
    Fail(pointer, fmt::format("{} is beyond float32's range (three.js keeps tracks in "
                              "Float32Arrays)",
                              number));
  }
  return static_cast<float>(number);
}

double JsonPointerReader::Float32At(const json& array, size_t i,
                                    const std::string& array_pointer) const {
  const json& value = array[i];
  if (value.is_number()) {
    const double number = value.get<double>();
    if (FitsFloat32(number)) return static_cast<float>(number);
  }
  const std::string pointer = fmt::format("{}/{}", array_pointer, i);
  return ToFloat32(RequireNumber(value, pointer), pointer);
}

}  // namespace animconv
