// Choosing a clip by what a user typed (`--clip`, `--clip-b`; docs/cli.md): one rule for
// `convert`, `bake` and `diff`.
#pragma once

#include <string_view>

#include "animconv/model.h"

namespace animconv {

// The first clip named `selector`, else the clip at that 0-based index; nullptr when neither.
// A name wins over an index: a clip may be called "1".
const Clip* FindClip(const Asset& asset, std::string_view selector);

// Error(kUsage) "OPTION SELECTOR: no such clip name or index (clips: 0: 'walk', 1: 'run')";
// `no_clips` stands for the list when the asset has none.
[[noreturn]] void ThrowNoSuchClip(std::string_view option, std::string_view selector,
                                  const Asset& asset, std::string_view no_clips);

}  // namespace animconv
