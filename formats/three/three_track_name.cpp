// ParseThreeTrackName (three_json.h): three.js track names split as PropertyBinding does.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "formats/three/three_json.h"

namespace animconv {
namespace {

// Track names (three.js r187 PropertyBinding.parseTrackName): PropertyBinding's regular expression
//   ^((?:W+[/:])*)(N+)?(?:\.(W+)(?:\[(.+)\])?)?\.(W+)(?:\[(.+)\])?$
// with W = [^[\].:/] and N = W or '.', matched with JavaScript's backtracking priorities
// (longest node name first, then an object part before none, longest accessor first).

bool IsReserved(char c) { return c == '[' || c == ']' || c == '.' || c == ':' || c == '/'; }

size_t WordEnd(std::string_view text, size_t from) {
  while (from < text.size() && !IsReserved(text[from])) ++from;
  return from;
}

bool IsLineTerminatorAt(std::string_view text, size_t i) {
  return text[i] == '\n' || text[i] == '\r' ||
         (text.substr(i, 2) == "\xE2\x80" && i + 2 < text.size() &&
          (text[i + 2] == '\xA8' || text[i + 2] == '\xA9'));
}

// JavaScript's `.` matches anything but \n, \r, U+2028 and U+2029.
size_t FirstLineTerminator(std::string_view text, size_t from) {
  for (size_t i = from; i < text.size(); ++i) {
    if (IsLineTerminatorAt(text, i)) return i;
  }
  return std::string_view::npos;
}

size_t LastLineTerminator(std::string_view text) {
  for (size_t i = text.size(); i-- > 0;) {
    if (IsLineTerminatorAt(text, i)) return i;
  }
  return std::string_view::npos;
}

class NameMatcher {
 public:
  explicit NameMatcher(std::string_view text)
      : text_(text), last_terminator_(LastLineTerminator(text)) {}

  // `(?:\.(W+)(?:\[(.+)\])?)?` then the property, from `at`.
  bool MatchTail(size_t at, ThreeTrackName* out) const {
    const size_t word_end = text_[at] == '.' ? WordEnd(text_, at + 1) : at;
    if (word_end > at + 1) {
      const std::string_view object = text_.substr(at + 1, word_end - at - 1);
      if (word_end < text_.size() && text_[word_end] == '[' && MatchObjectAccessor(word_end, out)) {
        out->object = std::string(object);
        return true;
      }
      if (MatchProperty(word_end, out)) {
        out->object = std::string(object);
        out->object_index.clear();
        return true;
      }
    }
    out->object.clear();
    out->object_index.clear();
    return MatchProperty(at, out);
  }

 private:
  // `\[(.+)\]` at `open` followed by the property; the greedy `.+` tries the last ']' first.
  bool MatchObjectAccessor(size_t open, ThreeTrackName* out) const {
    const size_t terminator = FirstLineTerminator(text_, open + 1);
    for (size_t close = text_.rfind(']'); close != std::string_view::npos && close > open + 1;
         close = text_.rfind(']', close - 1)) {
      if (close <= terminator && MatchProperty(close + 1, out)) {
        out->object_index = std::string(text_.substr(open + 1, close - open - 1));
        return true;
      }
    }
    return false;
  }

  // `\.(W+)(?:\[(.+)\])?$` at `at`.
  bool MatchProperty(size_t at, ThreeTrackName* out) const {
    if (at >= text_.size() || text_[at] != '.') return false;
    const size_t word_end = WordEnd(text_, at + 1);
    if (word_end == at + 1) return false;
    out->property = std::string(text_.substr(at + 1, word_end - at - 1));
    out->property_index.clear();
    if (word_end == text_.size()) return true;
    if (text_[word_end] != '[' || text_.back() != ']' || text_.size() - word_end < 3) return false;
    if (last_terminator_ != std::string_view::npos && last_terminator_ > word_end) return false;
    out->property_index = std::string(text_.substr(word_end + 1, text_.size() - word_end - 2));
    return true;
  }

  std::string_view text_;
  size_t last_terminator_;
};

}  // namespace

std::optional<ThreeTrackName> ParseThreeTrackName(std::string_view track_name) {
  // Directories: as many `word/` or `word:` groups as there are; they are dropped.
  size_t start = 0;
  for (;;) {
    const size_t end = WordEnd(track_name, start);
    if (end == start || end >= track_name.size() ||
        (track_name[end] != '/' && track_name[end] != ':')) {
      break;
    }
    start = end + 1;
  }
  size_t node_end = start;
  while (node_end < track_name.size() &&
         (track_name[node_end] == '.' || !IsReserved(track_name[node_end]))) {
    ++node_end;
  }
  const NameMatcher matcher(track_name);
  ThreeTrackName parsed;
  // The node name is the longest run that leaves a parsable tail; the tail starts with a dot.
  for (size_t split = node_end; split-- > start;) {
    if (track_name[split] != '.' || !matcher.MatchTail(split, &parsed)) continue;
    parsed.node = std::string(track_name.substr(start, split - start));
    // 'foo.bar.baz': `bar` is an object only when allow-listed, else part of the node name.
    const size_t last_dot = parsed.node.rfind('.');
    if (last_dot != std::string::npos) {
      const std::string object = parsed.node.substr(last_dot + 1);
      if (object == "material" || object == "materials" || object == "bones" || object == "map") {
        parsed.node.resize(last_dot);
        parsed.object = object;
      }
    }
    return parsed;
  }
  return std::nullopt;
}

bool HasLineTerminator(std::string_view text) {
  return FirstLineTerminator(text, 0) != std::string_view::npos;
}

ThreeTrackResolution ResolveThreeTrackTarget(const std::string& name) {
  ThreeTrackResolution resolved;
  const std::optional<ThreeTrackName> parsed = ParseThreeTrackName(name);
  if (!parsed) {
    resolved.refused = fmt::format(
        "cannot parse the track name '{}': expected [node].property (three.js "
        "PropertyBinding.parseTrackName)",
        name);
    return resolved;
  }
  ThreeTrackTarget target;
  // `.bones[NAME].prop` animates bone NAME of the node's skeleton (parseAnimation's names,
  // three.js <= r184 AnimationClip.parseAnimation).
  const bool bone = parsed->object == "bones" && !parsed->object_index.empty();
  if (!parsed->object.empty() && !bone) {
    resolved.skipped = fmt::format("'{}.{}' is not a node transform or morph weight",
                                   parsed->object, parsed->property);
    return resolved;
  }
  target.node = bone ? parsed->object_index : parsed->node;
  target.bone_index = bone && std::all_of(target.node.begin(), target.node.end(),
                                          [](char c) { return c >= '0' && c <= '9'; });
  if (parsed->property == "position") {
    target.path = Path::kTranslation;
  } else if (parsed->property == "quaternion") {
    target.path = Path::kRotation;
  } else if (parsed->property == "scale") {
    target.path = Path::kScale;
  } else if (parsed->property == "morphTargetInfluences") {
    target.path = Path::kWeights;
    target.morph_target = parsed->property_index;
    resolved.target = std::move(target);
    return resolved;
  } else {
    resolved.skipped =
        fmt::format("property '{}' is not a node transform or morph weight", parsed->property);
    return resolved;
  }
  if (!parsed->property_index.empty()) {
    resolved.refused = fmt::format(
        "track '{}' animates only component '{}' of {}; expected whole-vector tracks (bake the "
        "components into one track)",
        name, parsed->property_index, parsed->property);
    return resolved;
  }
  resolved.target = std::move(target);
  return resolved;
}

}  // namespace animconv
