#include "formats/assimp/bvh_channels.h"

#include <charconv>
#include <cmath>

namespace animconv {
namespace {

class Tokens {
 public:
  explicit Tokens(std::string_view text) : text_(text) {}

  std::string_view Next() {
    while (position_ < text_.size() && IsSpace(text_[position_])) ++position_;
    const size_t start = position_;
    while (position_ < text_.size() && !IsSpace(text_[position_])) ++position_;
    return text_.substr(start, position_ - start);
  }

 private:
  static bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

  std::string_view text_;
  size_t position_ = 0;

 public:
  size_t position() const { return position_; }
};

}  // namespace

BvhHeader ScanBvh(std::string_view text) {
  BvhHeader header;
  std::vector<BvhJointChannels>& joints = header.joints;
  Tokens tokens(text);
  std::string_view token = tokens.Next();
  size_t depth = 0;
  for (; !token.empty() && token != "MOTION"; token = tokens.Next()) {
    if (token == "{") {
      if (++depth > header.max_depth) {
        header.max_depth = depth;
        header.deepest_offset = tokens.position() - 1;
      }
    } else if (token == "}") {
      if (depth > 0) --depth;
    } else if (token == "ROOT" || token == "JOINT") {
      const std::string_view name = tokens.Next();
      if (name.size() > header.longest_name) {
        header.longest_name = name.size();
        header.longest_name_offset = tokens.position() - name.size();
      }
      joints.push_back({std::string(name), 0, false});
    } else if (token == "CHANNELS" && !joints.empty()) {
      const std::string_view count_text = tokens.Next();
      int count = 0;
      std::from_chars(count_text.data(), count_text.data() + count_text.size(), count);
      BvhJointChannels& joint = joints.back();
      for (int i = 0; i < count && i < 64; ++i) {
        const std::string_view channel = tokens.Next();
        ++joint.channel_count;
        if (channel.size() == 9 && channel.substr(1) == "position") joint.has_position = true;
      }
    }
  }
  // MOTION / Frames: N / Frame Time: T
  for (int i = 0; i < 6 && !token.empty(); ++i) {
    token = tokens.Next();
    if (token == "Frames:") {
      const std::string_view value = tokens.Next();
      header.frames_offset = tokens.position() - value.size();
      header.frames_text = value;
      uint64_t frames = 0;
      const auto parsed = std::from_chars(value.data(), value.data() + value.size(), frames);
      if (parsed.ec == std::errc()) header.frame_count = frames;
      continue;
    }
    if (token != "Time:") continue;
    header.has_frame_time = true;
    const std::string_view value = tokens.Next();
    double seconds = 0;
    const auto parsed = std::from_chars(value.data(), value.data() + value.size(), seconds);
    if (parsed.ec == std::errc() && seconds > 0 && std::isfinite(seconds)) {
      header.frame_time_seconds = seconds;
    }
    header.motion_bytes = text.size() - tokens.position();
    break;
  }
  return header;
}

std::string BvhLocation(std::string_view text, size_t offset) {
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return std::to_string(line) + ":" + std::to_string(offset - line_start + 1);
}

}  // namespace animconv
