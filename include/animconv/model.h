// The clip model every reader fills and every writer reads. It knows no file format.
// See docs/architecture.md for the invariants; ValidateAsset() checks them.
//
// Conventions, stated once for the whole project:
// - Quaternions are four doubles in the order x, y, z, w (three.js Quaternion.toArray, glTF
//   `rotation`, Unity localRotation all use it). Never w-first.
// - Times are seconds (double), strictly increasing within a channel, first key >= 0.
// - +Y is up. Handedness and facing are recorded per asset in `CoordinateSystem`.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "animconv/humanoid.h"

namespace animconv {

using Vec3 = std::array<double, 3>;
using Quat = std::array<double, 4>;  // x, y, z, w

enum class Path { kTranslation, kRotation, kScale, kWeights };
enum class Interpolation { kStep, kLinear, kCubicSpline };

const char* PathName(Path path);  // "translation", "rotation", "scale", "weights"
const char* InterpolationName(Interpolation interpolation);  // "step", "linear", "cubic"

enum class Handedness { kRight, kLeft };
// Which way the character's front looks (glTF: +Z; VRM 0.x models: -Z; Unity: +Z).
enum class Facing { kUnknown, kPlusZ, kMinusZ };

struct CoordinateSystem {
  Handedness handedness = Handedness::kRight;
  Facing facing = Facing::kUnknown;
};

std::string DescribeCoordinates(const CoordinateSystem& coordinates);

// The mesh a node shows. Loaders turn every primitive into its own object, and three.js names
// those objects after the mesh, so track names for morph weights depend on this.
struct MeshInfo {
  std::string name;  // may be empty
  int index = -1;    // in the source file
  int primitive_count = 1;
};

// What a node of a VRM Animation stands for besides a humanoid bone (VRMC_vrm_animation 1.0:
// an expression's weight over time is its node's translation.x; the lookAt target's direction is
// its node's rotation). Kept so a .vrma written from a .vrma holds them again.
struct VrmaRole {
  enum class Kind { kPresetExpression, kCustomExpression, kLookAt };
  Kind kind = Kind::kPresetExpression;
  std::string name;  // the expression's name; "lookAt" for the lookAt node
  // Set when the expression was made from morph weights (pipeline/expressions_from_morphs.h):
  // the mesh node whose weights it came from, so coverage counts them as kept.
  std::string morph_source;
};

// A VRM model's facial expression as three-vrm's VRMExpressionLoaderPlugin reads it: VRM 1.0
// `VRMC_vrm.expressions.{preset,custom}`, or a VRM 0.x blendShapeGroup under its VRM 1.0 preset
// name with its 0-100 bind weights divided by 100 (docs/formats/vrma.md, "Expressions on a model").
struct VrmExpression {
  enum class Override { kNone, kBlock, kBlend };
  struct MorphTargetBind {
    int node = -1;  // index into Rig::nodes (a node with a mesh)
    int index = 0;  // morph target of that node's mesh
    double weight = 1;
  };
  std::string name;
  bool preset = false;
  bool is_binary = false;  // the weight reads as 1 above 0.5, else 0
  Override override_blink = Override::kNone;
  Override override_look_at = Override::kNone;
  Override override_mouth = Override::kNone;
  std::vector<MorphTargetBind> morph_target_binds;
  // Material colour and texture transform binds: counted, not carried (no format we write has
  // them outside the model's own extension).
  size_t material_binds = 0;
};

struct Node {
  std::string name;
  // True when the source had no name and the reader made one up ("node_3"); loaders that bind by
  // name cannot find such a node under it.
  bool generated_name = false;
  std::optional<MeshInfo> mesh;
  int parent = -1;  // index into Rig::nodes, -1 for a root
  Vec3 rest_translation{0, 0, 0};
  Quat rest_rotation{0, 0, 0, 1};
  Vec3 rest_scale{1, 1, 1};
  int morph_target_count = 0;
  std::vector<std::string> morph_target_names;  // empty or morph_target_count names
  // True when the source named only the targets it animates, by name or by index text (three.js
  // per-target tracks, `X.morphTargetInfluences[blink]`), not the mesh's whole list: a target's
  // place in morph_target_names is then not its index in the mesh, and a writer must address the
  // targets by name (docs/formats/threejs.md).
  bool morph_targets_partial = false;
  // glTF mesh.weights: the weights a loader shows when nothing animates them (empty: all 0).
  std::vector<double> morph_default_weights;
  std::optional<HumanBone> human_bone;
  std::optional<VrmaRole> vrma_role;
  // The Euler order the source stored this node's rotations in ("ZXY": a BVH joint's rotation
  // channels as declared); empty when the source had quaternions. The BVH writer keeps it.
  std::string euler_order;
  // The support points (libconvert/mesh_support.h: the vertices lowest along a fan of directions
  // around down; world coordinates of the rest pose, in the rig's length unit) of the mesh
  // vertices this node moves: those skinned to it with their largest weight, and those of a mesh
  // it draws unskinned. Empty when it moves none, or when nothing asked the reader for them
  // (ReadOptions::rest_mesh_support). --ground stands the soles of the feet's meshes on the floor
  // with them (docs/root_motion.md, "Grounding"); ChangeBasis and ScaleLengths keep them with the
  // rest pose.
  std::vector<Vec3> rest_mesh_support;
};

struct Rig {
  std::vector<Node> nodes;
  // False when the source carried no rest pose (e.g. a Unity CSV): rest values are identity.
  bool rest_pose_known = false;
  // True when the humanoid came from a VRM model or a VRM Animation (VRMC_vrm, VRM,
  // VRMC_vrm_animation): three-vrm measures such a rig's rest hips height as the hips' world y,
  // from the origin, and so do retargeting and `diff` (docs/retargeting.md, "Hips translation").
  bool vrm_humanoid = false;
  // True when node names are the names of the three.js objects the source's tracks bound (a
  // three.js clip or hierarchy): the three.js writer then binds them as they are, not as
  // GLTFLoader would rename the nodes of a glTF (docs/formats/threejs.md, "Node names").
  bool three_object_names = false;
};

struct Channel {
  int node = -1;
  Path path = Path::kRotation;
  Interpolation interpolation = Interpolation::kLinear;
  std::vector<double> times_seconds;
  // `width` numbers per element: 3 (translation, scale), 4 (rotation), the node's morph target
  // count (weights). One element per key, or three for kCubicSpline in glTF order
  // (in-tangent, value, out-tangent; tangents in units per second, glTF 2.0 Appendix C).
  std::vector<double> values;
  int width = 0;

  size_t key_count() const { return times_seconds.size(); }
  size_t elements_per_key() const { return interpolation == Interpolation::kCubicSpline ? 3 : 1; }
  // The key's value (the middle element for cubic splines).
  const double* key_value(size_t key) const {
    return values.data() + (key * elements_per_key() + (elements_per_key() == 3 ? 1 : 0)) * width;
  }
  double* key_value(size_t key) {
    return values.data() + (key * elements_per_key() + (elements_per_key() == 3 ? 1 : 0)) * width;
  }
};

struct Clip {
  std::string name;
  std::vector<Channel> channels;
  // Unset: the duration is the last key time over all channels.
  std::optional<double> duration_seconds;

  double duration() const;
};

// A VRM model's lookAt as three-vrm 3.5's VRMLookAtLoaderPlugin reads it (VRM 1.0
// `VRMC_vrm.lookAt`, VRM 0.x `VRM.firstPerson.lookAt*`): how a gaze's yaw and pitch (degrees) turn
// the eyes or weigh the look expressions (docs/formats/vrma.md, "lookAt on a model").
struct VrmLookAt {
  enum class Type { kBone, kExpression };
  // output = output_scale · clamp(input / input_max_degrees, 0, 1) (VRMLookAtRangeMap.map).
  struct RangeMap {
    double input_max_degrees = 90;
    double output_scale = 10;  // degrees for bones, a weight for expressions
  };
  Type type = Type::kBone;
  RangeMap horizontal_inner, horizontal_outer, vertical_down, vertical_up;
  // The gaze's front in the model: +Z (VRM 1.0), -Z (VRM 0.x: three-vrm's faceFront (0, 0, -1)).
  bool faces_minus_z = false;
};

// What a reader keeps of its file beyond the model (a glTF's meshes, materials, extensions), so
// a writer of the same format can pass it through unchanged. Opaque to everything else; a
// transformation that changes the rig's node list must drop it.
class SourceDocument {
 public:
  virtual ~SourceDocument() = default;
};

struct Asset {
  Rig rig;
  std::vector<Clip> clips;
  CoordinateSystem coordinates;
  // Facts a reader found worth telling the user (shown by `info`), e.g. a detected decimal comma.
  std::vector<std::string> notes;
  std::shared_ptr<const SourceDocument> source_document;
  // A VRM model's expressions (empty for anything else); binds index this rig's nodes.
  std::vector<VrmExpression> vrm_expressions;
  std::optional<VrmLookAt> vrm_look_at;  // a VRM model's lookAt, when it has one
};

// Components per element for a path; weights need the node's morph target count.
int PathWidth(Path path, const Node& node);

// The node's value for `path` when nothing animates it: its rest TRS, and for weights zeros
// (glTF's default where a mesh gives no `weights`).
std::vector<double> RestValue(const Node& node, Path path);

// Whether every key's value lies within `tolerance` of the first key's, component by component
// (a channel that moves nothing a player shows: exporters key constant bones).
bool ChannelIsConstant(const Channel& channel, double tolerance);

// How large a structure readers accept (docs/reliability.md, "Limits"). Real rigs have fewer
// than 1000 nodes and a depth below 100; the defaults leave two orders of magnitude of headroom
// while keeping every pass over a hostile file within seconds. Readers check them before they
// allocate for what a file claims and report the first excess where the file states it.
struct StructureLimits {
  size_t nodes = 100000;               // rig nodes (glTF nodes, bones, joints, tracked names)
  size_t depth = 10000;                // nodes on the longest root-to-leaf chain
  size_t channels = 400000;            // channels (tracks, column groups) of one clip
  size_t keys_per_channel = 10000000;  // keyframes of one channel (rows of one CSV)
  size_t morph_targets = 1024;         // morph targets of one mesh
  size_t name_bytes = 65536;           // bytes of one node, clip or track name
};

// The first node (in list order) whose parent chain does not end at a root, or whose chain is
// longer than `max_depth` nodes (a root has depth 1). One pass, O(nodes), no recursion.
struct HierarchyFault {
  enum Kind { kCycle, kTooDeep } kind;
  size_t node;
};
std::optional<HierarchyFault> FindHierarchyFault(const std::vector<int>& parents, size_t max_depth);

// The nodes in depth-first pre-order from the roots, roots and children each in ascending index
// order: the order GLTFLoader visits a glTF scene in, which decides the names three.js gives
// (three.js JSON writer, diff's pairing). Iterative, O(n). `rig`'s parents must be valid.
std::vector<size_t> DepthFirstOrder(const Rig& rig);
std::vector<int> ParentsOf(const Rig& rig);

// The first node mapped to `bone` (Node::human_bone), or -1.
int HumanBoneNode(const Rig& rig, HumanBone bone);
// The nodes mapped to the feet and toes, the joints that stand on the floor (retargeting's hips
// height, diff's leg height, --ground), in node order.
std::vector<int> FootAndToeNodes(const Rig& rig);

// Checks the model invariants listed in docs/architecture.md; throws Error(kBadInput) naming the
// clip and channel. `source` is used as the error's file name. Linear in the size of the asset.
void ValidateAsset(const Asset& asset, const std::string& source);

}  // namespace animconv
