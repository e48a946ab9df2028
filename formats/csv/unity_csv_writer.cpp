#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "animconv/error.h"
#include "animconv/resample.h"
#include "animconv/sample.h"
#include "formats/common/writer_support.h"
#include "formats/csv/unity_csv.h"
#include "libconvert/text.h"
#include "libconvert/value_error.h"

namespace animconv {

int FindUnityCsvColumnNode(const Rig& rig, const std::string& bone_name) {
  const std::optional<HumanBone> bone = FindHumanBoneByUnityName(bone_name);
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    const Node& node = rig.nodes[n];
    if (bone ? node.human_bone == bone : node.name == bone_name) return static_cast<int>(n);
  }
  return -1;
}

namespace {

// The most values (rows x bones x 4) one output may hold: about 1 GiB of text, so the file stays
// under the readers' default --max-input-mb. A clip key at 1e8 s sampled every 0.2 s would
// otherwise ask for terabytes, and one at 1e300 s overflow the row count.
constexpr double kMaxValues = 1u << 27;

// A Unity CSV has no times: the reader needs the row interval, and assumes the exporter's 0.2 s
// (docs/formats/unity-csv.md, "Timing"). Any other interval is said, with the option that reads
// the file back at its own speed (a 24 fps file read at 0.2 s plays 4.8 times too slow).
void TellRowInterval(double interval, Diagnostics* diagnostics) {
  const double reader_default = ReadOptions{}.row_interval_seconds;
  if (!(interval > 0) || std::fabs(interval - reader_default) <= 1e-9) return;
  const double fps = 1 / interval;
  const double whole_fps = std::round(fps);
  const std::string interval_text = fmt::format("{:.9g}", interval);
  const std::string option =
      whole_fps >= 1 && std::fabs(fps - whole_fps) <= 1e-5 * fps
          ? fmt::format("--fps {} (or --interval {})", whole_fps, interval_text)
          : fmt::format("--interval {}", interval_text);
  AddDiagnostic(diagnostics, Severity::kWarning,
                fmt::format("unity-csv: rows every {} s ({:.6g} fps); read it back with {}: the "
                            "reader's default is {} s",
                            interval_text, fps, option, reader_default));
}

std::vector<double> RowTimes(const Clip& clip, const std::vector<const Channel*>& used,
                             const WriteOptions& options) {
  std::vector<double> times;
  if (options.row_interval_seconds) {
    const double interval = *options.row_interval_seconds;
    const double row_count = std::floor(clip.duration() / interval + 1e-9) + 1;
    const double values = row_count * static_cast<double>(std::max<size_t>(used.size(), 1)) * 4;
    if (!(values <= kMaxValues)) {
      ThrowUsage(fmt::format(
          "unity-csv: sampling {} s every {} s gives {} rows of {} bones, more than the {} values "
          "(about 1 GiB of text) a unity-csv output may hold; pass a larger --interval or a lower "
          "--fps, or fewer --bones",
          clip.duration(), interval, row_count, used.size(), kMaxValues));
    }
    const auto rows = static_cast<size_t>(row_count);
    for (size_t r = 0; r < rows; ++r) times.push_back(static_cast<double>(r) * interval);
    if (rows > 1) TellRowInterval(interval, options.diagnostics);
    return times;
  }
  // Without a requested grid the keys themselves must be one: rows are implicit times.
  const Channel* first = nullptr;
  for (const Channel* channel : used) {
    if (!channel) continue;
    if (!first) {
      first = channel;
    } else if (channel->times_seconds != first->times_seconds) {
      ThrowUsage(
          "unity-csv rows need one shared time grid, but the channels' key times differ; pass "
          "--interval or --fps to sample them");
    }
  }
  if (!first) ThrowUsage("unity-csv: no bone of the column list is animated in this clip");
  const std::vector<double>& keys = first->times_seconds;
  const double interval = keys.size() > 1 ? keys[1] - keys[0] : 0;
  for (size_t k = 0; k < keys.size(); ++k) {
    if (std::fabs(keys[k] - interval * static_cast<double>(k)) > 1e-6) {
      ThrowUsage(
          "unity-csv rows are evenly spaced from t=0, but the keys are not; pass --interval or "
          "--fps to sample them");
    }
  }
  TellRowInterval(interval, options.diagnostics);
  return keys;
}

// Rows have no interpolation: a reader plays from row to row linearly, so a step channel's jump
// becomes a ramp over the row before it, as in a BVH's frames (bvh_writer.cpp). Found by the
// exit-0 sweep (a VRM's STEP rotations 75 degrees off between rows, no warning): the channels
// that change are named, with the largest local jump (a row-to-row ramp is off by up to that in
// its own joint; `diff` measures the sum down a chain of them in model space).
void WarnStepRamps(const Asset& asset, const std::vector<const Channel*>& columns,
                   const std::vector<double>& times, Diagnostics* diagnostics) {
  if (times.size() < 2) return;
  std::vector<std::string> names;
  double largest_radians = 0;
  for (const Channel* channel : columns) {
    if (!channel || channel->interpolation != Interpolation::kStep) continue;
    double jump = 0;
    for (size_t k = 1; k < channel->key_count(); ++k) {
      jump = std::max(jump, ValueError(Path::kRotation, channel->key_value(k - 1), 4,
                                       channel->key_value(k), 4));
    }
    if (jump <= 0) continue;
    largest_radians = std::max(largest_radians, jump);
    names.push_back(asset.rig.nodes[static_cast<size_t>(channel->node)].name);
  }
  if (names.empty()) return;
  const std::string list = ListFirst(names, 30);
  AddDiagnostic(
      diagnostics, Severity::kWarning,
      fmt::format("unity-csv: rows play linearly from one to the next, so {} step "
                  "channel(s) ramp over the {} s before each jump instead of jumping "
                  "(local jumps of up to {:.3g} deg): {}; a format with step keys (.glb, three.js "
                  "JSON) keeps the jumps",
                  names.size(), times[1] - times[0],
                  ErrorInPrintedUnit(Path::kRotation, largest_radians), list));
}

}  // namespace

std::string WriteUnityCsv(const Asset& asset, const WriteOptions& options) {
  const Clip& clip = SingleClip(asset, "unity-csv");
  RequireInterpolation(asset, clip, "unity-csv", true);
  const std::vector<std::string> bones =
      options.bone_names.empty() ? DefaultUnityBoneNames() : options.bone_names;

  std::vector<const Channel*> column_channel(bones.size(), nullptr);
  std::vector<bool> written(clip.channels.size(), false);
  for (size_t b = 0; b < bones.size(); ++b) {
    const int node = FindUnityCsvColumnNode(asset.rig, bones[b]);
    for (size_t c = 0; c < clip.channels.size(); ++c) {
      const Channel& channel = clip.channels[c];
      if (channel.node == node && channel.path == Path::kRotation) {
        column_channel[b] = &channel;
        written[c] = true;
      }
    }
  }
  // Named, so the user (and the exit-0 sweep, docs/testing.md) knows which motion is not in the
  // file; a long list is cut after kNamedDropped names.
  constexpr size_t kNamedDropped = 30;
  std::vector<std::string> dropped;
  for (size_t c = 0; c < clip.channels.size(); ++c) {
    if (written[c]) continue;
    const Channel& channel = clip.channels[c];
    dropped.push_back(fmt::format("{}.{}", asset.rig.nodes[static_cast<size_t>(channel.node)].name,
                                  PathName(channel.path)));
  }
  if (!dropped.empty()) {
    const size_t shown = std::min(dropped.size(), kNamedDropped);
    std::string names =
        fmt::format("{}", fmt::join(dropped.begin(), dropped.begin() + shown, ", "));
    if (dropped.size() > shown) names += fmt::format(" and {} more", dropped.size() - shown);
    AddDiagnostic(options.diagnostics, Severity::kWarning,
                  fmt::format("unity-csv holds bone rotations only: {} channel(s) not written: {}",
                              dropped.size(), names));
  }

  const std::vector<double> times = RowTimes(clip, column_channel, options);
  WarnStepRamps(asset, column_channel, times, options.diagnostics);
  std::string out;
  out.reserve(times.size() * bones.size() * 4 * 8);
  char buffer[40];
  auto append_number = [&](double value) {
    const size_t length = options.precision ? FormatFixed(value, *options.precision, buffer)
                                            : FormatShortest(static_cast<float>(value), buffer);
    out.append(buffer, length);
    out += ',';  // the exporter ends every value, the last one included, with a comma
  };
  double rotation[4];
  for (const double seconds : times) {
    for (const Channel* channel : column_channel) {
      if (channel) {
        EvaluateChannel(*channel, seconds, rotation);
      } else {
        std::fill(rotation, rotation + 4, 0.0);  // the exporter's mark for a missing bone
      }
      for (const double component : rotation) append_number(component);
    }
    out += '\n';
  }
  return out;
}

}  // namespace animconv
