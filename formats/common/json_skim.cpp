#include "formats/common/json_skim.h"

namespace animconv {
namespace {

size_t StringEnd(std::string_view text, size_t open_quote) {
  for (size_t i = open_quote + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i;
    }
  }
  return std::string_view::npos;
}

}  // namespace

void SkimJsonKeys(std::string_view text,
                  const std::function<bool(std::string_view, const JsonKeyPlace&)>& visit) {
  const size_t bom = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  size_t i = text.find_first_not_of(" \t\r\n", bom);
  if (i == std::string_view::npos || (text[i] != '{' && text[i] != '[')) return;
  constexpr size_t kTrackedDepth = 3;
  char kinds[kTrackedDepth] = {};
  JsonKeyPlace place;
  place.kinds = kinds;
  bool expect_key = false;
  for (; i < text.size(); ++i) {
    switch (text[i]) {
      case '"': {
        const size_t end = StringEnd(text, i);
        if (end == std::string_view::npos) return;
        if (expect_key) {
          const std::string_view key = text.substr(i + 1, end - i - 1);
          if (visit(key, place)) return;
          if (place.depth == 1) place.top_key = key;
          expect_key = false;
        }
        i = end;
        break;
      }
      case '{':
      case '[':
        if (place.depth < kTrackedDepth) kinds[place.depth] = text[i];
        ++place.depth;
        expect_key = text[i] == '{';
        break;
      case '}':
      case ']':
        if (place.depth <= 1) return;  // the end of the top-level value
        --place.depth;
        expect_key = false;
        break;
      case ',':
        expect_key =
            place.depth >= 1 && place.depth <= kTrackedDepth && kinds[place.depth - 1] == '{';
        break;
      default:
        break;
    }
  }
}

}  // namespace animconv
