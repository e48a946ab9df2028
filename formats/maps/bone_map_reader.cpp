// The `--bone-map` file format (docs/cli.md, "Bone maps"): `from,to` per line, parsed into
// BoneMapEntry rows that RenameBones (bone_names.h) applies.
#include <fmt/format.h>

#include <map>

#include "animconv/bone_map.h"
#include "animconv/error.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// `line` without its comment: a '#' opening the line or following a blank.
std::string_view StripComment(std::string_view line) {
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '#' && (i == 0 || IsBlank(line[i - 1]))) return line.substr(0, i);
  }
  return line;
}

// A field and its 1-based column (of its first character, or where it would start when empty).
struct Field {
  std::string_view text;
  size_t column = 0;
};

Field TrimField(std::string_view line, size_t begin, size_t end) {
  while (begin < end && IsBlank(line[begin])) ++begin;
  while (end > begin && IsBlank(line[end - 1])) --end;
  return {line.substr(begin, end - begin), begin + 1};
}

std::string Location(int line, size_t column) { return fmt::format("{}:{}", line, column); }

}  // namespace

std::vector<BoneMapEntry> ParseBoneMap(std::string_view text, const std::string& source) {
  text = StripUtf8Bom(text);
  std::vector<BoneMapEntry> entries;
  std::map<std::string, int, std::less<>> first_line;
  int number = 0;
  for (size_t start = 0; start < text.size();) {
    const size_t newline = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, newline - start);
    start = newline + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    line = StripComment(line);
    if (TrimAscii(line).empty()) continue;
    // A JSON object or array is no list of lines: `{"hips":"J_Bip_C_Hips","spine":"J_Bip_C_Spine"}`
    // on one line split at its comma into two names no node has, and the map renamed nothing with
    // exit 0 (review of session 34). Refused where it starts.
    if (const std::string_view first = TrimAscii(line);
        entries.empty() && (first.front() == '{' || first.front() == '[')) {
      ThrowBadInput(source, Location(number, static_cast<size_t>(first.data() - line.data()) + 1),
                    "expected 'from,to' lines, found JSON: a bone map is plain text, one "
                    "'from,to' pair per line (docs/cli.md, \"Bone maps\")");
    }
    // The new names go into JSON and glTF outputs, which must be UTF-8.
    if (const size_t bad = FindInvalidUtf8(line); bad != std::string_view::npos) {
      ThrowBadInput(source, Location(number, bad + 1), "a name is not valid UTF-8");
    }

    const size_t comma = line.find(',');
    if (comma == std::string_view::npos) {
      ThrowBadInput(source, Location(number, TrimField(line, 0, line.size()).column),
                    fmt::format("expected 'from,to', found no ',' in '{}'", TrimAscii(line)));
    }
    const Field from = TrimField(line, 0, comma);
    if (from.text.empty()) {
      ThrowBadInput(source, Location(number, comma + 1), "expected a node or bone name before ','");
    }
    const size_t second_comma = line.find(',', comma + 1);
    if (second_comma != std::string_view::npos) {
      ThrowBadInput(source, Location(number, second_comma + 1),
                    "expected two columns 'from,to', found a third after another ','");
    }
    const Field to = TrimField(line, comma + 1, line.size());
    if (to.text.empty()) {
      ThrowBadInput(source, Location(number, comma + 2), "expected the new name after ','");
    }
    const auto [it, inserted] = first_line.emplace(std::string(from.text), number);
    if (!inserted) {
      ThrowBadInput(source, Location(number, from.column),
                    fmt::format("'{}' is mapped twice (first on line {})", from.text, it->second));
    }
    entries.push_back({std::string(from.text), std::string(to.text), number});
  }
  return entries;
}

}  // namespace animconv
