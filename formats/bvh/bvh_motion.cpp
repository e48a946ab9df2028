#include "formats/bvh/bvh_motion.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "animconv/quaternion.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

constexpr double kPi = 3.14159265358979323846;

// three.js Quaternion.setFromAxisAngle on a unit axis, the degrees turned to radians as its
// BVHLoader does (value * PI / 180), so both read the same numbers from the same text.
Quat AxisAngle(int axis, double degrees) {
  const double half = degrees * kPi / 180 / 2;
  const double s = std::sin(half);
  Quat q{0, 0, 0, std::cos(half)};
  q[static_cast<size_t>(axis)] = s;
  return q;
}

class MotionParser {
 public:
  MotionParser(BvhCursor& cursor, const BvhHierarchy& hierarchy, const StructureLimits& limits,
               Diagnostics* diagnostics)
      : cursor_(cursor), hierarchy_(hierarchy), limits_(limits), diagnostics_(diagnostics) {}

  BvhMotion Parse() {
    ReadHeader();
    CheckClaims();
    MakeChannels();
    if (out_.frames == 0) {
      RestPose();
    } else {
      // No channel values: the frames hold nothing to read.
      if (hierarchy_.channel_values > 0) ReadFrames();
      DropTranslationsAtRest();
    }
    WarnAboutTrailingValues();
    return std::move(out_);
  }

 private:
  // The keywords in any case: three.js's BVHLoader reads the numbers by position whatever the
  // words say, Blender's importer compares them lower-cased ("Frame time:" is common).
  void ExpectAnyCase(std::string_view keyword, std::string_view what) {
    const BvhToken token = cursor_.Next();
    if (!EqualsIgnoreCase(token.text, keyword)) cursor_.FailAt(token, std::string(what));
  }

  void ReadHeader() {
    ExpectAnyCase("Frames:", "'Frames:' after 'MOTION'");
    frames_token_ = cursor_.Next();
    const std::string_view text = frames_token_.text;
    const auto parsed = std::from_chars(text.data(), text.data() + text.size(), out_.frames);
    if (text.empty() || parsed.ec != std::errc() || parsed.ptr != text.data() + text.size()) {
      cursor_.Fail(frames_token_.offset,
                   fmt::format("BVH 'Frames:' must be a whole number >= 0, found '{}'",
                               ReplaceInvalidUtf8(text.substr(0, 40))));
    }
    ExpectAnyCase("Frame", "'Frame Time:' after the frame count");
    ExpectAnyCase("Time:", "'Frame Time:' after the frame count");
    double seconds = 0;
    const size_t before = cursor_.offset();
    // One frame plays at 0 s whatever the Frame Time, so 0 is a pose (BVHLoader reads it so);
    // with more frames all would play at 0 s.
    const bool zero_allowed = out_.frames <= 1;
    if (!cursor_.TryValue(&seconds) || !(seconds > 0 || (zero_allowed && seconds == 0))) {
      cursor_.Seek(before);
      const BvhToken token = cursor_.Next();
      cursor_.Fail(token.offset,
                   fmt::format("BVH 'Frame Time:' must be a positive number of seconds, found {}",
                               token.text.empty()
                                   ? std::string("nothing")
                                   : "'" + ReplaceInvalidUtf8(token.text.substr(0, 40)) + "'"));
    }
    out_.frame_time_seconds = seconds;
    // The last key's time must be a number too (1e308 s frames overflow).
    if (out_.frames > 1 && !std::isfinite(static_cast<double>(out_.frames - 1) * seconds)) {
      cursor_.Fail(cursor_.value_offset(),
                   fmt::format("BVH 'Frame Time:' {} s x {} frames is beyond any time a double "
                               "holds",
                               seconds, out_.frames));
    }
  }

  // Before allocating: every value takes at least two bytes ("0 "), the last one one.
  void CheckClaims() {
    const size_t values = hierarchy_.channel_values;
    const uint64_t bytes = cursor_.remaining_bytes();
    const uint64_t most = values == 0 ? out_.frames : (bytes + 1) / (2 * values);
    if (out_.frames > most) {
      cursor_.Fail(frames_token_.offset,
                   fmt::format("BVH declares {} frames of {} channel values, but the {} bytes "
                               "after the MOTION header hold at most {}",
                               out_.frames, values, bytes, most));
    }
    if (out_.frames > limits_.keys_per_channel) {
      cursor_.Fail(frames_token_.offset,
                   fmt::format("BVH declares {} frames, more than the limit of {}", out_.frames,
                               limits_.keys_per_channel));
    }
    size_t channels = 0;
    for (const BvhFileJoint& joint : hierarchy_.joints)
      channels += joint.has_position + joint.has_rotation;
    if (channels > limits_.channels) {
      cursor_.Fail(frames_token_.offset,
                   fmt::format("BVH joints animate {} channels, more than the limit of {}",
                               channels, limits_.channels));
    }
  }

  void MakeChannels() {
    const size_t keys = out_.frames == 0 ? 1 : static_cast<size_t>(out_.frames);
    for (size_t j = 0; j < hierarchy_.joints.size(); ++j) {
      const BvhFileJoint& joint = hierarchy_.joints[j];
      const int node = static_cast<int>(j);
      Targets targets;
      if (joint.has_position) {
        targets.translation = out_.channels.size();
        out_.channels.push_back({node, Path::kTranslation, Interpolation::kLinear, {}, {}, 3});
      }
      if (joint.has_rotation) {
        targets.rotation = out_.channels.size();
        out_.channels.push_back({node, Path::kRotation, Interpolation::kLinear, {}, {}, 4});
      }
      targets_.push_back(targets);
    }
    for (Channel& channel : out_.channels) {
      channel.times_seconds.reserve(keys);
      channel.values.reserve(keys * static_cast<size_t>(channel.width));
    }
  }

  // "Frames: 0": the rest pose, one key at 0 s per joint with rotation channels.
  void RestPose() {
    for (Channel& channel : out_.channels) {
      if (channel.path != Path::kRotation) continue;
      channel.times_seconds.push_back(0);
      channel.values.insert(channel.values.end(), {0, 0, 0, 1});
    }
    out_.channels.erase(std::remove_if(out_.channels.begin(), out_.channels.end(),
                                       [](const Channel& c) { return c.key_count() == 0; }),
                        out_.channels.end());
  }

  // three.js's BVHLoader and Blender's importer read one frame per line and ignore the values
  // after a frame's last channel; this reader also takes frames wrapped over several lines, or
  // several on a line, as one stream of values. The two readings part only where a frame ends
  // mid-line: then a file whose frames each fit on a line of their own is read per line as
  // those readers read it (a warning says which values are ignored), and any other is refused,
  // since read as a stream every frame after an extra value would start with the values of the
  // frame before (review 3: Hips at (0,1,90) cm instead of (1,90,0) with exit 0).
  void ReadFrames() {
    const size_t start = cursor_.offset();
    std::optional<size_t> mid_line;  // where the first frame ending mid-line ends
    uint64_t mid_line_frame = 0;
    for (uint64_t frame = 0; frame < out_.frames; ++frame) {
      ReadFrame(frame);
      if (!mid_line && cursor_.MoreOnLine()) {
        mid_line = cursor_.offset();
        mid_line_frame = frame;
      }
    }
    if (!mid_line) return;
    const size_t values = hierarchy_.channel_values;
    if (cursor_.LinesHoldAtLeast(start, out_.frames, values)) {
      ReadFramesPerLine(start);
      return;
    }
    if (cursor_.AtEnd()) return;  // several frames a line, every value used: a stream
    size_t left = 0;
    while (!cursor_.Next().text.empty()) ++left;
    cursor_.Fail(
        *mid_line,
        fmt::format("this value follows frame {} of {} on its line, after the frame's {} "
                    "channel values, and {} value(s) are left after the last frame: the lines hold "
                    "neither one frame each (three.js's BVHLoader and Blender read one "
                    "frame per line, but a line holds fewer than {} values) nor a stream "
                    "of exactly the declared frames",
                    mid_line_frame + 1, out_.frames, values, left, values));
  }

  // One frame from each line, as BVHLoader and Blender read them: the values after a frame's
  // channels are ignored, with a located warning.
  void ReadFramesPerLine(size_t start) {
    for (Channel& channel : out_.channels) {
      channel.times_seconds.clear();
      channel.values.clear();
    }
    cursor_.Seek(start);
    size_t lines = 0, ignored = 0, first = 0;
    for (uint64_t frame = 0; frame < out_.frames; ++frame) {
      ReadFrame(frame);
      if (!cursor_.MoreOnLine()) continue;
      if (lines++ == 0) first = cursor_.offset();
      ignored += cursor_.SkipRestOfLine();
    }
    AddDiagnostic(diagnostics_, Severity::kWarning,
                  fmt::format("{}:{}: {} frame line(s) hold more values than the {} the CHANNELS "
                              "declare; each frame is read from its own line and the {} value(s) "
                              "after its channels are ignored, as three.js's BVHLoader and "
                              "Blender read them (check the CHANNELS if those values are motion)",
                              cursor_.source(), cursor_.Location(first), lines,
                              hierarchy_.channel_values, ignored));
  }

  void ReadFrame(uint64_t frame) {
    // Frame k at k x the Frame Time as written (three.js's BVHLoader: i * frameTime).
    const double seconds = static_cast<double>(frame) * out_.frame_time_seconds;
    size_t value_index = 0;
    for (size_t j = 0; j < hierarchy_.joints.size(); ++j) {
      const BvhFileJoint& joint = hierarchy_.joints[j];
      if (joint.channels.empty()) continue;
      Vec3 position = joint.offset;
      Quat rotation{0, 0, 0, 1};
      for (const BvhChannel channel : joint.channels) {
        double value = 0;
        if (!cursor_.TryValue(&value)) FailValue(frame, value_index, joint, channel);
        ++value_index;
        const int axis = AxisOf(channel);
        if (IsPosition(channel)) {
          position[static_cast<size_t>(axis)] = joint.offset[static_cast<size_t>(axis)] + value;
          if (!std::isfinite(position[static_cast<size_t>(axis)])) {
            cursor_.Fail(cursor_.value_offset(),
                         fmt::format("{}.{} + its OFFSET is beyond any number a double holds",
                                     ReplaceInvalidUtf8(joint.name), BvhChannelName(channel)));
          }
        } else {
          // Past about 5.7e307 degrees the radians overflow, and the rotation would be NaN.
          if (!std::isfinite(value * kPi / 180)) FailRotation(frame, value_index, joint, channel);
          rotation = Multiply(rotation, AxisAngle(axis, value));  // R = R1 · R2 · R3 as listed
        }
      }
      const Targets& targets = targets_[j];
      if (joint.has_position) Append(out_.channels[targets.translation], seconds, position);
      if (joint.has_rotation) Append(out_.channels[targets.rotation], seconds, rotation);
    }
  }

  template <size_t N>
  static void Append(Channel& channel, double seconds, const std::array<double, N>& value) {
    channel.times_seconds.push_back(seconds);
    channel.values.insert(channel.values.end(), value.begin(), value.end());
  }

  [[noreturn]] void FailValue(uint64_t frame, size_t value_index, const BvhFileJoint& joint,
                              BvhChannel channel) {
    const size_t values = hierarchy_.channel_values;
    const BvhToken token = cursor_.Next();
    if (token.text.empty()) {
      cursor_.Fail(token.offset,
                   fmt::format("the file ends in frame {} after {} of its {} channel values, but "
                               "'Frames:' declares {} frames",
                               frame + 1, value_index, values, out_.frames));
    }
    cursor_.FailAt(token, fmt::format("a number for {}.{} (frame {}, value {} of {})",
                                      ReplaceInvalidUtf8(joint.name), BvhChannelName(channel),
                                      frame + 1, value_index + 1, values));
  }

  [[noreturn]] void FailRotation(uint64_t frame, size_t value_index, const BvhFileJoint& joint,
                                 BvhChannel channel) {
    const size_t at = cursor_.value_offset();
    cursor_.Seek(at);
    const BvhToken token = cursor_.Next();
    cursor_.Fail(at, fmt::format("{}.{} (frame {}, value {} of {}) is {} degrees, beyond any "
                                 "angle whose radians a double holds",
                                 ReplaceInvalidUtf8(joint.name), BvhChannelName(channel), frame + 1,
                                 value_index, hierarchy_.channel_values,
                                 ReplaceInvalidUtf8(token.text.substr(0, 40))));
  }

  // A position channel that holds the OFFSET in every frame moves nothing.
  void DropTranslationsAtRest() {
    out_.channels.erase(
        std::remove_if(out_.channels.begin(), out_.channels.end(),
                       [this](const Channel& channel) {
                         if (channel.path != Path::kTranslation) return false;
                         const Vec3& offset =
                             hierarchy_.joints[static_cast<size_t>(channel.node)].offset;
                         for (size_t i = 0; i < channel.values.size(); ++i) {
                           if (channel.values[i] != offset[i % 3]) return false;
                         }
                         return true;
                       }),
        out_.channels.end());
  }

  void WarnAboutTrailingValues() {
    if (cursor_.AtEnd()) return;
    const size_t first = cursor_.offset();
    size_t extra = 0;
    while (!cursor_.Next().text.empty()) ++extra;
    AddDiagnostic(diagnostics_, Severity::kWarning,
                  fmt::format("{}:{}: {} value(s) after the {} frame(s) 'Frames:' declares are "
                              "ignored (three.js's BVHLoader reads as many frames as declared)",
                              cursor_.source(), cursor_.Location(first), extra, out_.frames));
  }

  struct Targets {
    size_t translation = 0, rotation = 0;  // indices into out_.channels, when the joint has them
  };

  BvhCursor& cursor_;
  const BvhHierarchy& hierarchy_;
  const StructureLimits& limits_;
  Diagnostics* diagnostics_;
  BvhToken frames_token_;
  std::vector<Targets> targets_;  // per joint
  BvhMotion out_;
};

}  // namespace

BvhMotion ParseBvhMotion(BvhCursor& cursor, const BvhHierarchy& hierarchy,
                         const StructureLimits& limits, Diagnostics* diagnostics) {
  return MotionParser(cursor, hierarchy, limits, diagnostics).Parse();
}

}  // namespace animconv
