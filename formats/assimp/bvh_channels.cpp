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
  for (; !token.empty() && token != "MOTION"; token = tokens.Next()) {
    if (token == "ROOT" || token == "JOINT") {
      joints.push_back({std::string(tokens.Next()), 0, false});
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

}  // namespace animconv
