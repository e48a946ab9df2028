#include "animconv/bake.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "animconv/convert.h"
#include "animconv/error.h"
#include "animconv/morph_mesh.h"
#include "animconv/sample.h"
#include "animconv/summary.h"
#include "formats/common/writer_support.h"
#include "formats/gltf/gltf_document.h"
#include "formats/gltf/gltf_mesh.h"

namespace animconv {
namespace {

// A bake is held in memory and then parsed whole by a browser; far beyond this, a mistyped --fps
// is far likelier than a real need, so refuse before spending the time and memory.
constexpr double kMaxOutputBytes = 4.0 * 1024 * 1024 * 1024;
// Average text per float32 in a frame ("-0.123456," is typical), for that estimate.
constexpr double kBytesPerNumber = 10;
// Key rates this close to an integer are that integer (float32 key times blur 30 into 29.99999).
constexpr double kRateSnap = 1e-4;
// A grid time this close to the duration is the duration.
constexpr double kTimeTolerance = 1e-9;

struct BakeTarget {
  const Clip* clip = nullptr;
  const Channel* channel = nullptr;
};

BakeTarget ChooseTarget(const Asset& asset, const std::optional<std::string>& node_name) {
  if (node_name) {
    const bool exists = std::any_of(asset.rig.nodes.begin(), asset.rig.nodes.end(),
                                    [&](const Node& node) { return node.name == *node_name; });
    if (!exists) ThrowUsage(fmt::format("--node {}: no node has that name", *node_name));
  }
  for (const Clip& clip : asset.clips) {
    std::vector<const Channel*> channels;
    for (const Channel& channel : clip.channels) {
      if (channel.path == Path::kWeights &&
          (!node_name || asset.rig.nodes[channel.node].name == *node_name)) {
        channels.push_back(&channel);
      }
    }
    if (channels.empty()) continue;
    if (channels.size() > 1) {
      std::vector<std::string> names;
      for (const Channel* channel : channels) names.push_back(asset.rig.nodes[channel->node].name);
      ThrowUsage(
          fmt::format("clip '{}' animates the morph weights of {} nodes ({}); choose one "
                      "with --node NAME",
                      clip.name, names.size(), fmt::join(names, ", ")));
    }
    return {&clip, channels.front()};
  }
  if (node_name) {
    ThrowUsage(fmt::format("no clip animates the morph weights of node '{}'", *node_name));
  }
  if (asset.clips.empty()) ThrowUsage("the input has no animations to bake");
  ThrowUsage(asset.clips.size() == 1
                 ? fmt::format("clip '{}' animates no morph weights", asset.clips.front().name)
                 : fmt::format("none of the {} clips animates morph weights", asset.clips.size()));
}

size_t FrameCount(const Clip& clip, const Channel& channel, const std::optional<double>& fps) {
  if (!fps) return channel.key_count();
  // k / fps for k = 0 .. floor(duration * fps), plus the duration itself when it is off-grid.
  const double steps = std::floor(clip.duration() * *fps + kTimeTolerance);
  const bool on_grid = std::fabs(steps / *fps - clip.duration()) <= kTimeTolerance;
  return static_cast<size_t>(std::min(steps, 1e15)) + (on_grid ? 1 : 2);
}

std::vector<double> FrameTimes(const Clip& clip, const Channel& channel,
                               const std::optional<double>& fps, size_t count) {
  if (!fps) return channel.times_seconds;
  std::vector<double> times(count);
  for (size_t k = 0; k < count; ++k) times[k] = static_cast<double>(k) / *fps;
  // The last frame shows the clip's end exactly, whether or not it falls on the grid.
  times.back() = clip.duration();
  return times;
}

std::optional<double> FrameRate(const std::vector<double>& times,
                                const std::optional<double>& fps) {
  if (fps) return fps;
  const std::optional<double> interval = UniformInterval(times);
  if (!interval || *interval <= 0) return std::nullopt;
  const double rate = 1 / *interval;
  return std::fabs(rate - std::round(rate)) <= kRateSnap ? std::round(rate) : rate;
}

// Also keeps AppendFloatList's float cast defined: a double beyond float range may not be cast.
void RequireFloat32(const std::vector<double>& values, const std::string& source, size_t frame,
                    double seconds) {
  for (const double value : values) {
    if (!(std::fabs(value) <= std::numeric_limits<float>::max())) {
      ThrowBadInput(source, "",
                    fmt::format("frame {} ({} s): a value is beyond float32 range; the weights "
                                "extrapolate the targets too far",
                                frame, seconds));
    }
  }
}

void AppendMember(std::string& out, const char* key) {
  out += '"';
  out += key;
  out += "\":";
}

void AppendFloats(std::string& out, const char* key, const std::vector<double>& values) {
  AppendMember(out, key);
  out += '[';
  AppendFloatList(out, values.data(), values.size());
  out += ']';
}

void AppendIndices(std::string& out, const std::vector<uint32_t>& indices) {
  AppendMember(out, "f");
  out += '[';
  // Written through a pointer into space made once, as AppendFloatList does for floats:
  // 11 chars fit any uint32 and its comma.
  const size_t start = out.size();
  out.resize(start + indices.size() * 11);
  char* cursor = out.data() + start;
  char* const end = out.data() + out.size();
  for (size_t i = 0; i < indices.size(); ++i) {
    if (i > 0) *cursor++ = ',';
    cursor = std::to_chars(cursor, end, indices[i]).ptr;
  }
  out.resize(static_cast<size_t>(cursor - out.data()));
  out += ']';
}

}  // namespace

std::string BakeP5Frames(const Asset& asset, const P5BakeOptions& options,
                         const std::string& source, P5BakeReport* report) {
  const auto* document = dynamic_cast<const GltfDocument*>(asset.source_document.get());
  if (!document) {
    ThrowUsage(
        "bake needs a glTF or GLB input: the frames are made from its mesh and morph "
        "targets");
  }
  const BakeTarget target = ChooseTarget(asset, options.node);
  const Node& node = asset.rig.nodes[target.channel->node];
  if (!node.mesh) ThrowUsage(fmt::format("node '{}' has no mesh to bake", node.name));
  const MorphMesh mesh =
      ReadGltfMorphMesh(*document, static_cast<size_t>(node.mesh->index), source);

  const size_t frame_count = FrameCount(*target.clip, *target.channel, options.fps);
  const double per_frame = static_cast<double>(mesh.positions.size() + mesh.normals.size());
  const double once = static_cast<double>(mesh.positions.size() + mesh.normals.size() +
                                          mesh.colors.size() + mesh.indices.size());
  // + 2 per frame: its time, and the braces and keys around its lists.
  const double estimate =
      (static_cast<double>(frame_count) * (per_frame + 2) + once) * kBytesPerNumber;
  if (estimate > kMaxOutputBytes) {
    ThrowUsage(
        fmt::format("{} frames of {} vertices would write about {:.0f} GiB; use a lower "
                    "--fps",
                    frame_count, mesh.vertex_count(), estimate / (1 << 30)));
  }
  const std::vector<double> times =
      FrameTimes(*target.clip, *target.channel, options.fps, frame_count);

  std::string out;
  out.reserve(static_cast<size_t>(estimate) + 1024);
  out += '{';
  AppendMember(out, "name");
  AppendJsonString(out, target.clip->name);
  out += ',';
  AppendMember(out, "node");
  AppendJsonString(out, node.name);
  if (const std::optional<double> rate = FrameRate(times, options.fps)) {
    out += ',';
    AppendMember(out, "fps");
    AppendDouble(out, *rate);
  }
  out += ",\n";
  AppendFloats(out, "times", times);
  out += ",\n";
  AppendFloats(out, "v", mesh.positions);
  if (!mesh.normals.empty()) {
    out += ",\n";
    AppendFloats(out, "n", mesh.normals);
  }
  out += ",\n";
  AppendIndices(out, mesh.indices);
  if (!mesh.colors.empty()) {
    out += ",\n";
    AppendFloats(out, "c", mesh.colors);
  }
  out += ",\n";
  AppendMember(out, "frames");
  out += "[\n";
  std::vector<double> weights(static_cast<size_t>(target.channel->width));
  MorphPose pose;
  for (size_t k = 0; k < times.size(); ++k) {
    EvaluateChannel(*target.channel, times[k], weights.data());
    EvaluateMorph(mesh, weights, &pose);
    RequireFloat32(pose.positions, source, k, times[k]);
    RequireFloat32(pose.normals, source, k, times[k]);
    if (k > 0) out += ",\n";
    out += '{';
    AppendFloats(out, "v", pose.positions);
    if (!pose.normals.empty()) {
      out += ',';
      AppendFloats(out, "n", pose.normals);
    }
    out += '}';
  }
  out += "\n]}\n";

  report->clip = target.clip->name;
  report->node = node.name;
  report->frames = times.size();
  report->vertices = mesh.vertex_count();
  return out;
}

void BakeP5File(const std::string& input, const std::string& output,
                const P5BakeFileOptions& options, P5BakeReport* report) {
  if (input == output || SameFile(input, output)) {
    ThrowUsage(fmt::format("the output '{}' is the input file; choose another name", output));
  }
  ConvertOptions load;
  load.max_input_bytes = options.max_input_bytes;
  load.read.limits = options.limits;
  LoadedAsset loaded = LoadAsset(input, load, &report->diagnostics);
  if (options.clip) SelectClip(loaded.asset, *options.clip);
  const std::string bytes = BakeP5Frames(loaded.asset, options.bake, input, report);
  WriteFileAtomic(output, bytes);
}

P5BakeReport BakeP5File(const std::string& input, const std::string& output,
                        const P5BakeFileOptions& options) {
  P5BakeReport report;
  BakeP5File(input, output, options, &report);
  return report;
}

}  // namespace animconv
