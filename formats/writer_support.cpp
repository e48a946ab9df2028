#include "formats/writer_support.h"

#include <fmt/format.h>

#include "libconvert/error.h"
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

void AppendFloatList(std::string& out, const double* values, size_t count) {
  // Numbers are most of every output: write them through a pointer into space made once,
  // instead of a capacity check and a copy per number. 16 chars fit any float32 and its comma.
  const size_t start = out.size();
  out.resize(start + count * 16);
  char* cursor = out.data() + start;
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) *cursor++ = ',';
    cursor += FormatShortest(static_cast<float>(values[i]), cursor);
  }
  out.resize(static_cast<size_t>(cursor - out.data()));
}

void AppendDouble(std::string& out, double value) {
  char buffer[40];
  out.append(buffer, FormatShortest(value, buffer));
}

}  // namespace animconv
