#include "libconvert/clip_select.h"

#include <fmt/format.h>

#include <charconv>
#include <string>

#include "animconv/clip_diff.h"
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

std::pair<const Clip*, const Clip*> SelectClipPair(const Asset& a, const Asset& b,
                                                   const DiffOptions& options) {
  const Clip* clip_a = nullptr;
  if (options.clip_a) {
    clip_a = FindClip(a, *options.clip_a);
    if (!clip_a) ThrowNoSuchClip("--clip", *options.clip_a, a, "none");
  } else if (!a.clips.empty()) {
    clip_a = &a.clips.front();
  } else {
    ThrowUsage("A has no clips to compare");
  }
  const Clip* clip_b = nullptr;
  if (options.clip_b) {
    clip_b = FindClip(b, *options.clip_b);
    if (!clip_b) ThrowNoSuchClip("--clip-b", *options.clip_b, b, "none");
    return {clip_a, clip_b};
  }
  for (const Clip& clip : b.clips) {
    if (clip.name == clip_a->name) return {clip_a, &clip};
  }
  // Without a name in common, only a pair of single clips is the same motion by construction (a
  // conversion into a one-clip format, a renamed take); A's default clip against B's clip at the
  // same index is a guess that can compare two unrelated clips, so it is refused with the names.
  if (b.clips.size() == 1) {
    if (options.clip_a || a.clips.size() == 1) return {clip_a, &b.clips.front()};
    for (const Clip& clip : a.clips) {
      if (clip.name == b.clips.front().name) return {&clip, &b.clips.front()};
    }
  }
  ThrowNoSuchClip("--clip-b", fmt::format("(default: a clip named '{}')", clip_a->name), b, "none");
}

}  // namespace animconv
