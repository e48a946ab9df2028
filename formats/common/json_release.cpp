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

}  // namespace animconv
