// Typed reads of a parsed JSON document for every JSON reader (three.js clips and hierarchies,
// glTF): a wrong value fails with Error(kBadInput, source, JSON pointer, what was expected), so
// messages name the place the same way in every format (docs/reliability.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace animconv {

// A member that is present and not null (JavaScript code reads both as "not given"), nor a packed
// null (canonical_json.h).
const nlohmann::json* Given(const nlohmann::json& object, const char* key);

// `key` as one step of a JSON pointer (RFC 6901 §3: '~' written "~0", '/' written "~1").
std::string JsonPointerEscape(const std::string& key);

// Whether a double survives as a finite float32: three.js keeps track times and values in
// Float32Arrays (three.js r187 AnimationClip.toJSON), where a larger number would be Infinity.
bool FitsFloat32(double number);

class JsonPointerReader {
 public:
  // `root` is where an empty pointer (the document itself) is said to be: "" in the three.js
  // readers' messages, "/" in glTF's.
  explicit JsonPointerReader(std::string source, std::string root = "")
      : source_(std::move(source)), root_(std::move(root)) {}

  const std::string& source() const { return source_; }
  [[noreturn]] void Fail(const std::string& pointer, const std::string& message) const;

  // Member `key` of the object at `pointer`: "expected a member 'KEY'" there when absent.
  const nlohmann::json& Require(const nlohmann::json& object, const char* key,
                                const std::string& pointer) const;
  // "expected an array, found object", and so on: the value at `pointer` as the type asked for.
  const nlohmann::json& RequireArray(const nlohmann::json& value, const std::string& pointer) const;
  std::string RequireString(const nlohmann::json& value, const std::string& pointer) const;
  // Finite (nlohmann refuses overflow); a null says that JSON.stringify writes NaN and Infinity so.
  double RequireNumber(const nlohmann::json& value, const std::string& pointer) const;

  // A three.js track number: its float32 rounding, or an error when beyond float32's range.
  double ToFloat32(double number, const std::string& pointer) const;
  // Element `i` of the array at `array_pointer` as a three.js track number. The element's pointer
  // is formatted only on the error path: arrays hold millions of numbers.
  double Float32At(const nlohmann::json& array, size_t i, const std::string& array_pointer) const;

 private:
  std::string source_;
  std::string root_;
};

}  // namespace animconv
