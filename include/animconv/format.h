// One reader and/or writer per format, registered in one table (registry.cpp). A reader turns
// bytes into the model and never writes; a writer turns the model into bytes and never guesses:
// what it cannot represent is an Error, not a silent change.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "animconv/diagnostic.h"
#include "animconv/euler.h"
#include "animconv/io.h"
#include "animconv/model.h"
#include "animconv/text_pieces.h"

namespace animconv {

enum class TimeUnit { kSeconds, kMilliseconds };

struct ReadOptions {
  std::string source = "<memory>";  // file name used in error messages
  // unity-csv: one bone name per column group (`--bones`); empty = the 55 HumanBodyBones.
  std::vector<std::string> bone_names;
  // unity-csv: time between rows (`--interval`, `--fps`); the reference exporter writes 0.2 s.
  double row_interval_seconds = 0.2;
  // Reads a file an input refers to (a glTF's external buffer), given the URI as written in the
  // input. Set by the pipeline with the rules of docs/reliability.md (inside the input's folder,
  // no schemes); unset when reading from memory, where such references are an error.
  std::function<std::string(const std::string& uri)> load_resource;
  uint64_t max_input_bytes = kDefaultMaxInputBytes;  // also bounds what readers allocate
  StructureLimits limits;  // nodes, depth, channels, keys, morph targets, names (model.h)
  // Where the reader tells what it read differently from the file (a three.js interpolation
  // played as linear, a skipped track); null drops them. Facts about the file go to Asset::notes.
  // LoadAsset points it at its own sink.
  Diagnostics* diagnostics = nullptr;
  // glTF: also find where each node's meshes stand at rest (Node::rest_mesh_support), which
  // --ground needs and nothing else does (it decodes every mesh).
  bool rest_mesh_support = false;
};

// glTF, GLB and VRMA `--compress` (docs/formats/gltf.md, "Compact output"): each sampler in the
// smallest encoding whose measured error stays within these bounds, in clip_diff's units.
struct GltfCompression {
  // Rotations and morph weights as normalized 8/16-bit integers (glTF 2.0 §3.11 sampler outputs).
  bool quantize = true;
  // EXT_meshopt_compression (required) with its quaternion and exponential filters; needs a build
  // with meshoptimizer (not the web build, docs/web.md).
  bool meshopt = true;
  // Triangle lists without indices that the output passes through get an index buffer, each
  // vertex stored once (the same triangles, every vertex with the same values; vertices are
  // renumbered). Off: every mesh keeps its vertices as they were (--compress-keep-vertices).
  bool index_meshes = true;
  // Channels of a clip put on shared key times where that takes fewer bytes, so that one time
  // accessor serves them; keys are only added on each channel's own curve (the same motion;
  // animconv/share_key_times.h). Off: each channel keeps its own keys.
  bool share_key_times = true;
  // --compress-meshes: the meshes passed through quantized (KHR_mesh_quantization,
  // formats/gltf/gltf_mesh_quantize.h), lossy within the mesh bounds below. Off by default: it
  // changes the geometry (and the nodes that hold it, which take the dequantization).
  bool quantize_meshes = false;
  // The most a vertex may move, as a fraction of the largest side of its mesh's bounding box
  // (1e-4: 0.1 mm on a 1 m figure); also bounds each morph target's position deltas.
  double mesh_position_fraction = 1e-4;
  double mesh_normal_degrees = 0.5;  // normals and tangents: the angle they may turn
  double mesh_texcoord = 1e-5;       // texture coordinates: 16-bit, within 7.7e-6
  double mesh_color = 0.002;         // vertex colours: 8-bit (within 1/510) when that fits
  // Skin weights (WEIGHTS_0): 8-bit only where each vertex's weight errors add up to at most this
  // (and half the position fraction), else 16-bit when they do. A weight's error moves a vertex
  // by that share of the distance between where two joints put it, so the bound stays near the
  // position bound's scale.
  double mesh_skin_weight = 1e-4;
  // The most the encoding may add to any value: a tenth of the --reduce defaults (reduce.h), so
  // --reduce --compress stays within --reduce's tolerances (the pipeline gives --reduce the rest).
  double rotation_degrees = 0.01;
  double translation_metres = 1e-5;
  double scale_ratio = 1e-4;
  double weight = 1e-4;
};

// three: how morph weights become tracks. kAll: one `<mesh>.morphTargetInfluences` track holding
// every target per key (GLTFLoader's layout), which three.js applies by position; kPerTarget: one
// `<mesh>.morphTargetInfluences[<target>]` track per target, bound by name; kAuto: kAll, except
// for a node whose targets are not its mesh's whole list (Node::morph_targets_partial), whose
// weights only per-target tracks put on the right targets.
enum class ThreeMorphTracks { kAuto, kAll, kPerTarget };

struct WriteOptions {
  bool three_array = false;  // three: a JSON array of clips
  ThreeMorphTracks three_morph_tracks = ThreeMorphTracks::kAuto;
  TimeUnit hierarchy_time_unit = TimeUnit::kSeconds;  // three-hierarchy key times
  std::optional<int> precision;                       // unity-csv decimals; unset = shortest float
  std::vector<std::string> bone_names;                // unity-csv column groups; empty = 55 bones
  // unity-csv rows, and cubic splines baked for formats without them: sample on this grid
  std::optional<double> row_interval_seconds;
  // bvh: the rotation channels' order for every joint (--bvh-order); unset = each node's
  // recorded Node::euler_order (a BVH input's), else ZXY.
  std::optional<EulerOrder> bvh_order;
  // gltf, glb, vrma: the compact animation encoding; unset = plain float32 (every reader plays it).
  std::optional<GltfCompression> gltf_compression;
  // gltf, glb: the vertex attributes no material reads (texture coordinates no texture uses,
  // tangents without a normal map) left out of the meshes passed through
  // (formats/gltf/gltf_prune_attributes.h). Off: a program may give a mesh a texture at run time.
  bool gltf_drop_unused_attributes = false;
  // Where the writer tells what it left out (channels its format cannot hold); null drops them.
  // RenderAsset points it at its own sink.
  Diagnostics* diagnostics = nullptr;
  // Where a writer that makes its output as pieces (write_pieces) may hand each one over as soon
  // as it is final (TextPieces::StreamTo), so that the file is written while the rest is made
  // (WriteFileAtomicStreamed). Null: the pieces are only returned. RenderAssetPieces publishes
  // whatever the writer did not.
  PieceSink* piece_sink = nullptr;
};

enum class NormalizedHumanoid {
  kNo,
  // Always (VRM Animation, which also needs the humanoid bones).
  kAlways,
  // When the input has a rest pose and humanoid bones (Unity CSV: the localRotations a VRM 0.x
  // avatar, whose rest rotations are identity, would show; a rest-less input is kept as it is,
  // so unity-csv -> unity-csv stays byte-exact).
  kWhenRestPoseKnown,
};

struct Format {
  std::string_view id;
  std::string_view description;
  // Lower-case suffixes, longest first where they overlap (".hierarchy.json" before ".json").
  std::vector<std::string_view> extensions;
  // The handedness the format's numbers are in; the pipeline converts before writing.
  Handedness handedness = Handedness::kRight;
  // False for formats that need unit, hemisphere-aligned rotations (the pipeline normalises
  // before writing); true for unity-csv, which writes rotations back exactly as read.
  bool keeps_raw_rotations = false;
  // False for formats without glTF's CUBICSPLINE: the pipeline samples such channels to linear
  // first (on the --interval/--fps grid when given, else at their key times).
  bool accepts_cubic = false;
  // True for formats that show a skeleton (glTF): a humanoid rig without a rest pose gets the
  // generated T-pose (humanoid_pose.h) first, so the clip plays in any viewer.
  bool needs_rest_pose = false;
  // True when `bytes` (the whole input) looks like this format; null when content can't tell.
  bool (*sniff)(std::string_view bytes) = nullptr;
  Asset (*read)(std::string_view bytes, const ReadOptions& options) = nullptr;
  // Unless keeps_raw_rotations, expects unit, hemisphere-aligned rotations: call it through
  // RenderAsset (animconv/convert.h), which runs NormalizeRotations first.
  std::string (*write)(const Asset& asset, const WriteOptions& options) = nullptr;
  // Formats whose rotations are by definition normalised humanoid ones (identity = T-pose): the
  // pipeline first retargets the input onto a generated T-pose rig (retarget_job.h).
  NormalizedHumanoid normalized_humanoid = NormalizedHumanoid::kNo;
  // False for formats that cannot hold morph weights (three-hierarchy: parseAnimation's morph
  // branch throws, docs/formats/threejs.md): their writers drop such channels, and the partial
  // output rule (docs/cli.md) counts them as lost.
  bool holds_morph_weights = true;
  // True for formats whose rows carry no times (unity-csv: one row per --interval), so a reader
  // gives them ReadOptions::row_interval_seconds and `diff` may fit them to the other clip.
  bool rows_without_times = false;
  // The writer's bytes as pieces (animconv/text_pieces.h), for a writer whose output is mostly
  // texts it has made already: the file job writes them without joining them. Null: `write`.
  TextPieces (*write_pieces)(const Asset& asset, const WriteOptions& options) = nullptr;
  // True for formats whose files hold each node's rest pose (glTF nodes, three-hierarchy bones,
  // BVH offsets with identity rotations), so that a node without a channel plays its rest pose in
  // any player. Without it (three.js clips, CSV) a channel left out leaves its node wherever the
  // target model had it, and `diff` finds it missing: --reduce keeps rest-pose channels as one key.
  bool writes_rest_pose = false;
  // True for formats whose files hold every channel at every frame of one grid (BVH's MOTION,
  // Unity CSV rows): removing keys cannot make them smaller, only move the frames off the keys,
  // so --reduce leaves the clip as it is for them.
  bool writes_every_frame = false;
  // False for formats whose players interpolate STEP samplers linearly (VRMA: three-vrm-animation
  // 3.5 rebuilds the humanoid rotation and expression tracks without their interpolation): the
  // pipeline writes step channels as linear ones with a hold key before each change (StepToLinear,
  // animconv/timing.h), and says so.
  bool plays_step = true;
  // False for formats with no place for a VRMA's expression and lookAt nodes (Node::vrma_role):
  // a BVH joint is a bone of the body, and an expression's weight written as a joint "happy"
  // moving along x is no expression to any BVH player. Their writers leave such nodes out, and
  // the partial output rule (docs/cli.md) counts their channels as lost.
  bool holds_vrma_roles = true;
  // False for formats whose files have no clip duration of their own (glTF: a clip ends at its
  // last key; animconv and Unity CSV: at their last row): a clip lasting past its last key gets
  // a hold key at its duration before it is written (pipeline/hold_duration.h).
  bool stores_duration = true;
  // True for formats that show a skeleton and never the model's meshes (BVH, three-hierarchy):
  // --ground stands their joints on the floor. The others carry the meshes (glTF passes a model
  // through) or are played on the model they were written for (three.js clips, CSV), so --ground
  // stands the meshes' soles on it (ground.h, docs/root_motion.md "Grounding").
  bool skeleton_without_meshes = false;
};

const std::vector<Format>& Formats();
const Format* FindFormat(std::string_view id);

// Picks the reader: `--from` when given, else the content (sniff), else the extension.
const Format& DetectInputFormat(const std::string& path, std::string_view bytes,
                                const std::string& forced_id);
// Picks the writer: `--to` when given, else the extension.
const Format& DetectOutputFormat(const std::string& path, const std::string& forced_id);

}  // namespace animconv
