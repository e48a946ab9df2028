#include "formats/bvh_channels.h"

#include <charconv>

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
};

}  // namespace

std::vector<BvhJointChannels> ScanBvhHierarchy(std::string_view text) {
  std::vector<BvhJointChannels> joints;
  Tokens tokens(text);
  for (std::string_view token = tokens.Next(); !token.empty() && token != "MOTION";
       token = tokens.Next()) {
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
  return joints;
}

}  // namespace animconv
