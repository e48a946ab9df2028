#include "formats/common/json_release.h"

#include <vector>

namespace animconv {

using nlohmann::json;

namespace {

bool IsNonEmptyContainer(const json& value) {
  return (value.is_array() || value.is_object()) && !value.empty();
}

}  // namespace

void ReleaseJson(json& value) {
  // Depth-first over the containers, each with the iterator of its next child to visit; a
  // container is cleared once every container child of it has been.
  struct Open {
    json* container;
    json::iterator next;
  };
  std::vector<Open> open;
  if (IsNonEmptyContainer(value)) open.push_back({&value, value.begin()});
  while (!open.empty()) {
    Open& top = open.back();
    while (top.next != top.container->end() && !IsNonEmptyContainer(*top.next)) ++top.next;
    if (top.next == top.container->end()) {
      top.container->clear();
      open.pop_back();
      continue;
    }
    json& child = *top.next;
    ++top.next;
    open.push_back({&child, child.begin()});  // may move `top`; not used past here
  }
  value = nullptr;
}

json ParseJsonReleasingPartial(std::string_view text) {
  json result;
  try {
    // The builder json::parse uses (nlohmann/json 3.11 parser::parse without a callback), into a
    // tree this function owns, so that it is still here when a syntax error throws.
    nlohmann::detail::json_sax_dom_parser<json> builder(result, /*allow_exceptions=*/true);
    json::sax_parse(text.begin(), text.end(), &builder);
  } catch (...) {
    ReleaseJson(result);
    throw;
  }
  return result;
}

}  // namespace animconv
