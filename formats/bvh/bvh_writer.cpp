#include "formats/bvh/bvh_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "animconv/clip_poser.h"
#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "animconv/resample.h"
#include "animconv/rest_pose.h"
#include "animconv/sample.h"
#include "animconv/timing.h"
#include "formats/bvh/bvh_frames.h"
#include "formats/bvh/bvh_skeleton.h"
#include "formats/common/writer_support.h"

namespace animconv {
namespace {

constexpr double kDegreesPerRadian = 57.29577951308232;
// The most numbers one output may hold (frames x channels): about 1 GiB of text, so the file
// stays under the readers' default --max-input-mb (the unity-csv writer's bound).
constexpr double kMaxValues = 1u << 27;

std::string NameList(const std::vector<std::string>& names) {
  constexpr size_t kShown = 10;
  std::string list = fmt::format(
      "{}", fmt::join(names.begin(), names.begin() + std::min(names.size(), kShown), ", "));
  if (names.size() > kShown) list += fmt::format(" and {} more", names.size() - kShown);
  return list;
}

// Morph weights and scale have no BVH channel: said, with the nodes, so the user knows what the
// file lacks (the coverage rule counts a morph-only clip as partial: holds_morph_weights).
void WarnDropped(const Asset& asset, const Clip& clip, Diagnostics* diagnostics) {
  std::vector<std::string> weights, scales;
  const double scale_tolerance = ToleranceOf(ReduceOptions{}, Path::kScale);
  for (const Channel& channel : clip.channels) {
    const Node& node = asset.rig.nodes[static_cast<size_t>(channel.node)];
    if (channel.path == Path::kWeights) {
      weights.push_back(fmt::format("{} ({} target(s))", node.name, channel.width));
    } else if (channel.path == Path::kScale) {
      // Dropped, the node keeps its rest scale (in its children's OFFSETs): silent only where
      // that is within the --reduce scale tolerance of every key.
      bool moves = false;
      for (size_t k = 0; k < channel.key_count() && !moves; ++k) {
        for (size_t c = 0; c < 3; ++c) {
          const double rest = node.rest_scale[c];
          const double ratio = rest != 0 ? channel.key_value(k)[c] / rest : 0;
          if (std::fabs(ratio - 1) > scale_tolerance) moves = true;
        }
      }
      if (moves) scales.push_back(node.name);
    }
  }
  if (!weights.empty()) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("bvh: {} morph weight channel(s) not written (BVH has no morph "
                              "weights): {}",
                              weights.size(), NameList(weights)));
  }
  if (!scales.empty()) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("bvh: {} scale channel(s) not written (BVH has no scale channels; "
                              "the nodes keep their rest scale): {}",
                              scales.size(), NameList(scales)));
  }
}

// 12 significant digits, trailing zeros dropped. Float32's shortest text (what the JSON writers
// print) is not enough here: angles down a 20-joint chain and centimetres on a metre lever
// each add float32's half-ulp, about 1e-4° and 1e-6 m at the hands of a mocap skeleton,
// the tolerances a BVH round trip must keep. 12 digits are 1e-10° and 1e-12 m, and drop the
// last-bit noise of double arithmetic, so a value read as "53.2745" is written "53.2745" again.
// Below 1e-9 (degrees, centimetres) a value is rounding noise of a zero (a rest rotation times
// its inverse) and is written 0, never "-0".
void AppendNumber(std::string& out, double value) {
  char buffer[32];
  const double shown = std::fabs(value) < 1e-9 ? 0.0 : value;
  const auto end = fmt::format_to_n(buffer, sizeof buffer, "{:.12g}", shown);
  out.append(buffer, end.out);
}

void AppendVector(std::string& out, const Vec3& metres) {
  for (size_t c = 0; c < 3; ++c) {
    out += ' ';
    AppendNumber(out, metres[c] * kBvhUnitsPerMetre);
  }
}

void AppendChannels(std::string& out, const BvhJoint& joint) {
  out += fmt::format("CHANNELS {}", joint.has_position_channels ? 6 : 3);
  if (joint.has_position_channels) out += " Xposition Yposition Zposition";
  for (const int axis : joint.order.axes)
    out += fmt::format(" {}rotation", static_cast<char>('X' + axis));
  out += '\n';
}

// A joint's indentation: one tab a level, up to kMaxIndentLevels (readers split BVH at whitespace,
// so it is only for people). Without a cap the text of a chain of N joints grows as N²: 200,000
// nested joints (--max-depth raised) needed 20 GB of tabs; real rigs are under 30 levels deep.
constexpr size_t kMaxIndentLevels = 64;
std::string Indent(size_t level) { return std::string(std::min(level, kMaxIndentLevels), '\t'); }

void AppendHierarchy(std::string& out, const BvhSkeleton& skeleton) {
  out += "HIERARCHY\n";
  // Iterative, so a deep rig (up to --max-depth) cannot exhaust the stack.
  struct Open {
    int joint;
    size_t next_child;
  };
  std::vector<Open> stack = {{0, 0}};
  auto open = [&](int index) {
    const BvhJoint& joint = skeleton.joints[static_cast<size_t>(index)];
    const std::string indent = Indent(stack.size() - 1);
    out += indent + (joint.parent < 0 ? "ROOT " : "JOINT ") + joint.name + '\n';
    out += indent + "{\n" + indent + "\tOFFSET";
    AppendVector(out, joint.offset);
    out += '\n' + indent + '\t';
    AppendChannels(out, joint);
  };
  open(0);
  while (!stack.empty()) {
    Open& top = stack.back();
    const BvhJoint& joint = skeleton.joints[static_cast<size_t>(top.joint)];
    if (top.next_child < joint.children.size()) {
      const int child = joint.children[top.next_child++];
      stack.push_back({child, 0});
      open(child);
      continue;
    }
    const std::string indent = Indent(stack.size() - 1);
    if (joint.end_site) {
      out += indent + "\tEnd Site\n" + indent + "\t{\n" + indent + "\t\tOFFSET";
      AppendVector(out, *joint.end_site);
      out += '\n' + indent + "\t}\n";
    }
    out += indent + "}\n";
    stack.pop_back();
  }
}

// The channel as a player of the BVH sees it: its values at the frame times, interpolated
// linearly (slerp) between them, as BVHLoader's tracks are.
Channel SampledOnFrames(const Channel& channel, const BvhFrames& frames) {
  Channel sampled;
  sampled.node = channel.node;
  sampled.path = channel.path;
  sampled.interpolation = Interpolation::kLinear;
  sampled.width = channel.width;
  sampled.times_seconds.resize(frames.count);
  sampled.values.resize(frames.count * static_cast<size_t>(channel.width));
  for (size_t f = 0; f < frames.count; ++f) {
    sampled.times_seconds[f] = frames.Time(f);
    EvaluateChannel(channel, FrameSampleSeconds(channel, frames.Time(f)),
                    &sampled.values[f * static_cast<size_t>(channel.width)]);
  }
  return sampled;
}

// How far the frames play from the clip, per channel: the rotations written are the source's
// local ones times constant rotations on both sides, and slerp commutes with those, so the
// source channel's sampling error is the BVH joint's. The exit-0 rule: over the --reduce
// tolerances, a warning names the channel and the fix.
void MeasureFrames(const Asset& asset, const BvhSkeleton& skeleton, const BvhFrames& frames,
                   bool requested, Diagnostics* diagnostics) {
  PlaybackErrors errors;
  for (const BvhJoint& joint : skeleton.joints) {
    for (const Channel* channel : {joint.rotation, joint.translation}) {
      if (!channel) continue;
      errors.Add(channel->path, channel->node,
                 PlaybackError(*channel, SampledOnFrames(*channel, frames)));
    }
  }
  const double fps = 1 / frames.interval_seconds;
  // The fix: the keys' own grid where one holds them all (a higher rate than 30 fps never lands
  // on 24 fps keys); else more frames, which bring every key closer to a frame.
  std::string advice = requested ? "; use a higher --fps" : "; pass a higher --fps";
  if (frames.key_grid_seconds && !frames.on_key_grid) {
    advice = fmt::format("; pass --fps {:.6g}, the rate whose frames hold every key",
                         1 / *frames.key_grid_seconds);
  }
  for (const Path path : {Path::kRotation, Path::kTranslation}) {
    const size_t p = static_cast<size_t>(path);
    const double tolerance = ToleranceOf(ReduceOptions{}, path);
    if (errors.worst_node[p] < 0 || errors.max[p] <= tolerance) continue;
    // No frame rate plays a step: a BVH's frames interpolate linearly, so each jump is a ramp
    // over one frame (at 30 fps, 60 degrees over the last 1/30 s before it).
    bool step = false;
    for (const BvhJoint& joint : skeleton.joints) {
      const Channel* channel = path == Path::kRotation ? joint.rotation : joint.translation;
      step = step || (channel && joint.node == errors.worst_node[p] &&
                      channel->interpolation == Interpolation::kStep && channel->key_count() > 1);
    }
    AddDiagnostic(
        diagnostics, Severity::kWarning,
        fmt::format("bvh: one Frame Time for the whole clip: frames every {} s ({:.6g} fps) play "
                    "up to {:.3g} {} off the input on {}.{} (tolerance {:g}){}",
                    frames.interval_text, fps, ErrorInPrintedUnit(path, errors.max[p]),
                    PrintedUnit(path),
                    asset.rig.nodes[static_cast<size_t>(errors.worst_node[p])].name, PathName(path),
                    ErrorInPrintedUnit(path, tolerance),
                    step ? "; it is a step channel, whose jumps a BVH plays as ramps over one "
                           "frame: a higher --fps shortens them, a format with step keys (.glb, "
                           "three.js JSON) keeps them"
                         : advice));
  }
}

// BVH has no scale: a node's rest scale goes into its children's OFFSETs (bvh_skeleton.cpp).
// That is exact for a uniform scale, which commutes with the rotations below it, but not for a
// non-uniform or mirroring one: a joint rotating below it turns its OFFSETs unscaled, where the
// source turns them inside the scale (review 3: P scaled (1, 2, 1), its child rotating 90°, the
// grandchild 1 m off with exit 0 and no word). Only for such a rig are the frames played as a BVH
// player plays them (each joint's written rotation down the chain, from the OFFSETs and position
// channels) and compared with the source's world positions; over the translation tolerance a
// warning names the scaled nodes and the error.
void MeasureRestScale(const Asset& asset, const Clip& clip, const BvhSkeleton& skeleton,
                      const BvhFrames& frames, Diagnostics* diagnostics) {
  const double scale_tolerance = ToleranceOf(ReduceOptions{}, Path::kScale);
  std::vector<std::string> scaled;
  for (const BvhJoint& joint : skeleton.joints) {
    if (joint.node < 0) continue;
    const Vec3& s = asset.rig.nodes[static_cast<size_t>(joint.node)].rest_scale;
    const double largest = std::max({std::fabs(s[0]), std::fabs(s[1]), std::fabs(s[2])});
    const double spread =
        std::max({std::fabs(s[0] - s[1]), std::fabs(s[0] - s[2]), std::fabs(s[1] - s[2])});
    if (spread > scale_tolerance * largest) {
      scaled.push_back(fmt::format("{} ({:g}, {:g}, {:g})", joint.name, s[0], s[1], s[2]));
    }
  }
  if (scaled.empty()) return;
  const RestPose rest(asset.rig);
  ClipPoser poser(asset.rig, clip);
  const size_t count = skeleton.joints.size();
  std::vector<Quat> world(count);
  std::vector<Vec3> position(count);
  double worst = 0, worst_time = 0;
  int worst_node = 0;
  for (size_t f = 0; f < frames.count; ++f) {
    const double seconds = frames.Time(f);
    poser.Pose(seconds);
    for (size_t j = 0; j < count; ++j) {
      const BvhJoint& joint = skeleton.joints[j];
      Quat local{0, 0, 0, 1};
      Vec3 offset = joint.offset;
      if (joint.node >= 0) {
        // What the writer writes (WriteBvh): the same rotation and position channels.
        if (joint.rotation) {
          Quat source;
          EvaluateChannel(*joint.rotation, seconds, source.data());
          const Quat parent = rest.ParentWorldRotation(joint.node);
          const Quat rest_inverse =
              Conjugate(asset.rig.nodes[static_cast<size_t>(joint.node)].rest_rotation);
          local = Multiply(Multiply(parent, Multiply(Normalized(source), rest_inverse)),
                           Conjugate(parent));
        }
        if (joint.has_position_channels) {
          Vec3 translation = joint.rest_translation;
          if (joint.translation) {
            EvaluateChannel(*joint.translation, FrameSampleSeconds(*joint.translation, seconds),
                            translation.data());
          }
          const Vec3 moved = rest.ParentToWorld(joint.node, translation);
          const Vec3 origin = rest.ParentToWorld(joint.node, {0, 0, 0});
          for (size_t c = 0; c < 3; ++c) offset[c] = moved[c] - origin[c];
        }
      }
      Quat parent_world{0, 0, 0, 1};
      Vec3 parent_position{0, 0, 0};
      if (joint.parent >= 0) {
        parent_world = world[static_cast<size_t>(joint.parent)];
        parent_position = position[static_cast<size_t>(joint.parent)];
      }
      world[j] = Multiply(parent_world, local);
      const Vec3 turned = Rotate(parent_world, offset);
      for (size_t c = 0; c < 3; ++c) position[j][c] = parent_position[c] + turned[c];
      auto compare = [&](int node, const Vec3& played) {
        const glm::dmat4& source = poser.World(node);
        const double error = std::sqrt(std::pow(played[0] - source[3][0], 2) +
                                       std::pow(played[1] - source[3][1], 2) +
                                       std::pow(played[2] - source[3][2], 2));
        if (error > worst) {
          worst = error;
          worst_time = seconds;
          worst_node = node;
        }
      };
      if (joint.node >= 0) compare(joint.node, position[j]);
      // An End Site that stands for a rig leaf is where the player draws that node.
      if (joint.end_site_node >= 0 && joint.end_site) {
        const Vec3 site = Rotate(world[j], *joint.end_site);
        compare(joint.end_site_node,
                {position[j][0] + site[0], position[j][1] + site[1], position[j][2] + site[2]});
      }
    }
  }
  const double tolerance = ToleranceOf(ReduceOptions{}, Path::kTranslation);
  if (!(worst > tolerance)) return;
  AddDiagnostic(
      diagnostics, Severity::kWarning,
      fmt::format("bvh: BVH has no scale, and the non-uniform rest scale of {} cannot "
                  "go into OFFSETs that the joints below turn unscaled: joints play up "
                  "to {:.3g} m off the input ({} at {:g} s; tolerance {:g}); a .glb "
                  "keeps it",
                  NameList(scaled), worst, asset.rig.nodes[static_cast<size_t>(worst_node)].name,
                  worst_time, tolerance));
}

}  // namespace

std::string WriteBvh(const Asset& asset, const WriteOptions& options) {
  const Clip& clip = SingleClip(asset, "bvh");
  RequireInterpolation(asset, clip, "bvh", true);
  WarnDropped(asset, clip, options.diagnostics);
  const BvhSkeleton skeleton =
      BuildBvhSkeleton(asset, clip, options.bvh_order, options.diagnostics);
  if (skeleton.joints.empty()) ThrowUsage("bvh: the rig has no nodes to write as joints");

  std::vector<const Channel*> channels;
  size_t values_per_frame = 0;
  for (const BvhJoint& joint : skeleton.joints) {
    values_per_frame += joint.has_position_channels ? 6 : 3;
    for (const Channel* channel : {joint.rotation, joint.translation}) {
      if (channel) channels.push_back(channel);
    }
  }
  const BvhFrames frames = ChooseBvhFrames(clip, channels, options.row_interval_seconds);
  if (!(static_cast<double>(frames.count) * static_cast<double>(values_per_frame) <= kMaxValues)) {
    ThrowUsage(
        fmt::format("bvh: {} frames of {} values is more than the {} values (about 1 GiB "
                    "of text) a bvh output may hold; pass a lower --fps",
                    frames.count, values_per_frame, kMaxValues));
  }
  if (!frames.on_key_grid && !options.row_interval_seconds) {
    AddDiagnostic(options.diagnostics, Severity::kInfo,
                  fmt::format("bvh: the keys are not on one uniform grid; frames every {} s "
                              "(--fps/--interval choose)",
                              frames.interval_text));
  }
  MeasureFrames(asset, skeleton, frames, options.row_interval_seconds.has_value(),
                options.diagnostics);
  MeasureRestScale(asset, clip, skeleton, frames, options.diagnostics);

  // Per joint, the constant rotations of the re-expression (docs/formats/bvh.md): the BVH local
  // rotation is Wr_parent · L(t) · R_rest⁻¹ · Wr_parent⁻¹, which makes its world rotation
  // W(t)·Wr⁻¹, the source's relative to its rest.
  const RestPose rest(asset.rig);
  struct Constants {
    Quat parent_rest_world{0, 0, 0, 1};
    Quat rest_inverse{0, 0, 0, 1};
    Vec3 rest_offset{0, 0, 0};
  };
  std::vector<Constants> constants(skeleton.joints.size());
  for (size_t j = 0; j < skeleton.joints.size(); ++j) {
    const BvhJoint& joint = skeleton.joints[j];
    if (joint.node < 0) continue;
    constants[j].parent_rest_world = rest.ParentWorldRotation(joint.node);
    constants[j].rest_inverse =
        Conjugate(asset.rig.nodes[static_cast<size_t>(joint.node)].rest_rotation);
    constants[j].rest_offset = rest.ParentToWorld(joint.node, {0, 0, 0});
  }

  std::string out;
  out.reserve(frames.count * values_per_frame * 10 + skeleton.joints.size() * 120);
  AppendHierarchy(out, skeleton);
  out += fmt::format("MOTION\nFrames: {}\nFrame Time: {}\n", frames.count, frames.interval_text);
  std::vector<std::optional<std::array<double, 3>>> previous(skeleton.joints.size());
  for (size_t f = 0; f < frames.count; ++f) {
    const double seconds = frames.Time(f);
    bool first = true;
    for (size_t j = 0; j < skeleton.joints.size(); ++j) {
      const BvhJoint& joint = skeleton.joints[j];
      auto separator = [&] {
        if (!first) out += ' ';
        first = false;
      };
      if (joint.has_position_channels) {
        // The whole translation (the OFFSET is 0, bvh_skeleton.h), in the parent's rest
        // rotation and scale as an OFFSET would be; no translation.
        Vec3 position{0, 0, 0};
        if (joint.node >= 0) {
          Vec3 translation = joint.rest_translation;
          if (joint.translation) EvaluateChannel(*joint.translation, seconds, translation.data());
          const Vec3 moved = rest.ParentToWorld(joint.node, translation);
          for (size_t c = 0; c < 3; ++c) position[c] = moved[c] - constants[j].rest_offset[c];
        }
        for (size_t c = 0; c < 3; ++c) {
          separator();
          AppendNumber(out, position[c] * kBvhUnitsPerMetre);
        }
      }
      Quat local{0, 0, 0, 1};
      if (joint.rotation) {
        Quat source;
        EvaluateChannel(*joint.rotation, FrameSampleSeconds(*joint.rotation, seconds),
                        source.data());
        const Quat& parent = constants[j].parent_rest_world;
        local = Multiply(Multiply(parent, Multiply(Normalized(source), constants[j].rest_inverse)),
                         Conjugate(parent));
      }
      const std::array<double, 3> radians = EulerFromQuat(joint.order, local, previous[j]);
      previous[j] = radians;
      for (const double angle : radians) {
        separator();
        AppendNumber(out, angle * kDegreesPerRadian);
      }
    }
    out += '\n';
  }
  return out;
}

}  // namespace animconv
