#include "formats/common/writer_support.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>

#include "animconv/error.h"
#include "libconvert/text.h"

namespace animconv {

const Clip& SingleClip(const Asset& asset, std::string_view format_id) {
  if (asset.clips.size() == 1) return asset.clips.front();
  if (asset.clips.empty())
    ThrowUsage(fmt::format("{}: the input has no animation clip", format_id));
  ThrowUsage(fmt::format("{} holds one clip and the input has {}; pick one with --clip NAME|INDEX",
                         format_id, asset.clips.size()));
}

void RequireInterpolation(const Asset& asset, const Clip& clip, std::string_view format_id,
                          bool allow_step) {
  for (const Channel& channel : clip.channels) {
    const bool ok = channel.interpolation == Interpolation::kLinear ||
                    (allow_step && channel.interpolation == Interpolation::kStep);
    if (!ok) {
      ThrowUsage(fmt::format("{} cannot express {} interpolation ({} of '{}' in clip '{}')",
                             format_id, InterpolationName(channel.interpolation),
                             PathName(channel.path), asset.rig.nodes[channel.node].name,
                             clip.name));
    }
  }
}

void AppendJsonString(std::string& out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void AppendFloat(std::string& out, double value) {
  char buffer[40];
  out.append(buffer, FormatShortest(static_cast<float>(value), buffer));
}

namespace {

// Numbers are most of every output: each is formatted by `format(i, at)` (its length returned)
// into a small stack buffer appended in blocks, rather than growing the string per number or
// zero-filling space for the worst case. Up to 40 characters a number, and 16 readable bytes
// after each (AppendFloatListOfKeys copies fixed 16-byte texts).
template <typename FormatNumber>
void AppendNumbersInBlocks(std::string& out, size_t count, FormatNumber format) {
  char block[4096];
  size_t used = 0;
  for (size_t i = 0; i < count; ++i) {
    if (used > sizeof block - 64) {
      out.append(block, used);
      used = 0;
    }
    if (i > 0) block[used++] = ',';
    used += format(i, block + used);
  }
  out.append(block, used);
}

}  // namespace

void AppendFloatList(std::string& out, const double* values, size_t count) {
  AppendNumbersInBlocks(out, count, [values](size_t i, char* at) {
    return FormatShortest(static_cast<float>(values[i]), at);
  });
}

void AppendFloatListOfKeys(std::string& out, const double* values, size_t count,
                           size_t values_per_key) {
  if (values_per_key == 0 || values_per_key > kMaxRepeatSlots) {
    AppendFloatList(out, values, count);
    return;
  }
  // The text of each slot's last value, and that value's bits: a value equal to the one a key
  // before (a bone held still, a component that stays 0.7071068) is copied, not formatted again.
  // Formatting a float is ~20 ns, the compare and a 16-byte copy ~1 ns; on the 50 MB Unity CSV's
  // JSON 60 % of the non-zero values repeat their previous key (docs/performance.md, session 34).
  // A float's shortest text is at most 15 characters ("-1.17549435e-38"); the slot keeps 16.
  struct Slot {
    uint32_t bits;
    uint32_t length;  // 0: nothing cached yet
    char text[16];
  };
  Slot slots[kMaxRepeatSlots];
  for (size_t j = 0; j < values_per_key; ++j) slots[j].length = 0;
  size_t slot = 0;
  AppendNumbersInBlocks(out, count, [&](size_t i, char* at) {
    const float value = static_cast<float>(values[i]);
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    Slot& cached = slots[slot];
    if (++slot == values_per_key) slot = 0;
    if (cached.length != 0 && cached.bits == bits) {
      std::memcpy(at, cached.text, sizeof cached.text);
      return static_cast<size_t>(cached.length);
    }
    const size_t length = FormatShortest(value, at);
    std::memcpy(cached.text, at, sizeof cached.text);
    cached.bits = bits;
    cached.length = length <= sizeof cached.text ? static_cast<uint32_t>(length) : 0;
    return length;
  });
}

void AppendDouble(std::string& out, double value) {
  char buffer[40];
  out.append(buffer, FormatShortest(value, buffer));
}

void RequireFloat32Increasing(const Asset& asset, const Clip& clip, const Channel& channel,
                              std::string_view format_id, double time_scale) {
  for (size_t k = 1; k < channel.key_count(); ++k) {
    if (static_cast<float>(channel.times_seconds[k] * time_scale) >
        static_cast<float>(channel.times_seconds[k - 1] * time_scale)) {
      continue;
    }
    ThrowUsage(fmt::format(
        "{}: keys {} and {} of {} of '{}' in clip '{}' are {} s apart, closer than float32 time "
        "can tell apart; resample the clip",
        format_id, k - 1, k, PathName(channel.path),
        asset.rig.nodes[static_cast<size_t>(channel.node)].name, clip.name,
        channel.times_seconds[k] - channel.times_seconds[k - 1]));
  }
}

}  // namespace animconv
