#include "libconvert/clip_select.h"

#include <fmt/format.h>

#include <charconv>
#include <string>

#include "animconv/error.h"

namespace animconv {

const Clip* FindClip(const Asset& asset, std::string_view selector) {
  for (const Clip& clip : asset.clips) {
    if (clip.name == selector) return &clip;
  }
  size_t index = 0;
  const auto parsed = std::from_chars(selector.data(), selector.data() + selector.size(), index);
  if (parsed.ec == std::errc() && parsed.ptr == selector.data() + selector.size() &&
      index < asset.clips.size()) {
    return &asset.clips[index];
  }
  return nullptr;
}

void ThrowNoSuchClip(std::string_view option, std::string_view selector, const Asset& asset,
                     std::string_view no_clips) {
  std::string names;
  for (size_t c = 0; c < asset.clips.size(); ++c) {
    names += fmt::format("{}{}: '{}'", c == 0 ? "" : ", ", c, asset.clips[c].name);
  }
  ThrowUsage(fmt::format("{} {}: no such clip name or index (clips: {})", option, selector,
                         names.empty() ? no_clips : std::string_view(names)));
}

}  // namespace animconv
