#include "formats/bvh/bvh_hierarchy.h"

#include <fmt/format.h>

#include <array>

#include "libconvert/text.h"

namespace animconv {
namespace {

constexpr std::array<std::string_view, 6> kChannelNames = {"Xposition", "Yposition", "Zposition",
                                                           "Xrotation", "Yrotation", "Zrotation"};

class HierarchyParser {
 public:
  HierarchyParser(BvhCursor& cursor, const StructureLimits& limits)
      : cursor_(cursor), limits_(limits) {}

  BvhHierarchy Parse() {
    cursor_.Expect("HIERARCHY", "'HIERARCHY' at the start of a BVH file");
    size_t roots = 0;
    for (;;) {
      const BvhToken token = cursor_.Next();
      if (open_.empty()) {
        if (token.text == "ROOT") {
          ReadJoint(token, -1);
          ++roots;
        } else if (token.text == "MOTION" && roots > 0) {
          return std::move(out_);
        } else {
          cursor_.FailAt(token, roots == 0 ? "'ROOT'" : "'ROOT' or 'MOTION'");
        }
      } else if (token.text == "JOINT") {
        ReadJoint(token, open_.back());
      } else if (EqualsIgnoreCase(token.text, "End")) {
        ReadEndSite(open_.back());
      } else if (token.text == "}") {
        open_.pop_back();
      } else {
        cursor_.FailAt(token, fmt::format("'JOINT', 'End Site' or '}}' in joint '{}'",
                                          Shown(out_.joints[static_cast<size_t>(open_.back())])));
      }
    }
  }

 private:
  static std::string Shown(const BvhFileJoint& joint) { return ReplaceInvalidUtf8(joint.name); }

  // Appends a joint (depth: its parent's + 1) after the limits on nodes and depth.
  BvhFileJoint& Add(int parent, size_t brace_offset) {
    const size_t depth = open_.size() + 1;
    if (depth > limits_.depth) {
      cursor_.Fail(brace_offset, fmt::format("BVH joints nested {} levels deep, more than the "
                                             "limit of {}",
                                             depth, limits_.depth));
    }
    if (out_.joints.size() >= limits_.nodes) {
      cursor_.Fail(brace_offset,
                   fmt::format("BVH declares more than the limit of {} joints", limits_.nodes));
    }
    BvhFileJoint& joint = out_.joints.emplace_back();
    joint.parent = parent;
    return joint;
  }

  void ReadOffset(BvhFileJoint& joint) {
    cursor_.Expect("OFFSET", fmt::format("'OFFSET' in joint '{}'", Shown(joint)));
    const char* axes[] = {"x", "y", "z"};
    for (int axis = 0; axis < 3; ++axis) {
      joint.offset[static_cast<size_t>(axis)] =
          cursor_.Number(fmt::format("the OFFSET {} of '{}'", axes[axis], Shown(joint)));
    }
  }

  void ReadJoint(const BvhToken& keyword, int parent) {
    const BvhToken name = cursor_.Next();
    if (name.text.empty() || name.text == "{") {
      cursor_.FailAt(name, fmt::format("a joint name after '{}'", keyword.text));
    }
    if (name.text.size() > limits_.name_bytes) {
      cursor_.Fail(name.offset, fmt::format("a joint name of {} bytes, more than the limit of {}",
                                            name.text.size(), limits_.name_bytes));
    }
    const BvhToken brace =
        cursor_.Expect("{", fmt::format("'{{' after '{} {}' (joint names are one word)",
                                        keyword.text, ReplaceInvalidUtf8(name.text.substr(0, 40))));
    BvhFileJoint& joint = Add(parent, brace.offset);
    joint.name = std::string(name.text);
    ReadOffset(joint);
    ReadChannels(joint);
    open_.push_back(static_cast<int>(out_.joints.size() - 1));
  }

  // CHANNELS is optional (a joint without it has no motion, as in Assimp's reader).
  void ReadChannels(BvhFileJoint& joint) {
    const size_t before = cursor_.offset();
    if (cursor_.Next().text != "CHANNELS") {
      cursor_.Seek(before);
      return;
    }
    const BvhToken count_token = cursor_.Next();
    const std::string_view count = count_token.text;
    if (count.size() != 1 || count[0] < '0' || count[0] > '6') {
      cursor_.FailAt(count_token,
                     fmt::format("a channel count from 0 to 6 for '{}'", Shown(joint)));
    }
    for (int i = 0; i < count[0] - '0'; ++i) {
      const BvhToken token = cursor_.Next();
      size_t found = 0;
      while (found < kChannelNames.size() && kChannelNames[found] != token.text) ++found;
      if (found == kChannelNames.size()) {
        cursor_.FailAt(token, fmt::format("channel {} of {} of '{}' (Xposition, Yposition, "
                                          "Zposition, Xrotation, Yrotation or Zrotation)",
                                          i + 1, count, Shown(joint)));
      }
      const auto channel = static_cast<BvhChannel>(found);
      for (const BvhChannel seen : joint.channels) {
        if (seen == channel) {
          cursor_.Fail(token.offset, fmt::format("channel '{}' is listed twice for '{}'",
                                                 token.text, Shown(joint)));
        }
      }
      joint.channels.push_back(channel);
      (IsPosition(channel) ? joint.has_position : joint.has_rotation) = true;
    }
    out_.channel_values += joint.channels.size();
  }

  void ReadEndSite(int parent) {
    const BvhToken site = cursor_.Next();
    if (!EqualsIgnoreCase(site.text, "Site")) {
      cursor_.FailAt(site, "'Site' after 'End'");
    }
    const BvhToken brace = cursor_.Expect("{", "'{' after 'End Site'");
    const std::string parent_name = out_.joints[static_cast<size_t>(parent)].name;
    BvhFileJoint& joint = Add(parent, brace.offset);
    joint.name = "EndSite_" + parent_name;
    joint.end_site = true;
    ReadOffset(joint);
    cursor_.Expect(
        "}", fmt::format("'}}' closing the End Site of '{}'", ReplaceInvalidUtf8(parent_name)));
  }

  BvhCursor& cursor_;
  const StructureLimits& limits_;
  std::vector<int> open_;  // the joints whose '}' is still to come, outermost first
  BvhHierarchy out_;
};

}  // namespace

const char* BvhChannelName(BvhChannel channel) {
  return kChannelNames[static_cast<size_t>(channel)].data();  // a literal: NUL-terminated
}

BvhHierarchy ParseBvhHierarchy(BvhCursor& cursor, const StructureLimits& limits) {
  return HierarchyParser(cursor, limits).Parse();
}

}  // namespace animconv
