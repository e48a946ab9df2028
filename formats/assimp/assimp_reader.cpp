#include <assimp/ai_assert.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/version.h>
#include <fmt/format.h>

#include <algorithm>
#include <assimp/Importer.hpp>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "animconv/axes.h"
#include "animconv/error.h"
#include "formats/assimp/assimp.h"
#include "formats/assimp/assimp_clips.h"
#include "formats/assimp/assimp_io.h"
#include "formats/assimp/assimp_rig.h"
#include "formats/assimp/assimp_stack.h"
#include "formats/assimp/dae_interpolation.h"
#include "formats/assimp/fbx_claims.h"
#include "formats/assimp/fbx_curves.h"
#include "formats/common/source_name.h"
#include "formats/common/utf8_names.h"
#include "libconvert/text.h"

// Assimp 5.2 aborts the process on a failed internal assertion (assimp/ai_assert.h), which a
// malformed FBX reaches (fuzz_assimp: FBXConverter.cpp:1523 'out_idx != nullptr', SIGABRT). The
// library calls the exported Assimp::aiAssertViolation, which this definition interposes: it
// throws instead, BaseImporter::ReadFile catches it, and the file is refused with Assimp's
// reason, exit 2 (Assimp 5.3 has setAiAssertHandler for this; Debian 12 has 5.2).
namespace Assimp {
void aiAssertViolation(const char* failed_expression, const char* file, int line) {
  throw std::runtime_error(
      fmt::format("Assimp's internal check '{}' failed ({}:{})", failed_expression, file, line));
}
}  // namespace Assimp

namespace animconv {
namespace {

enum class Family { kFbx, kOther };

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string_view SkipBomAndSpace(std::string_view bytes) {
  bytes = StripUtf8Bom(bytes);
  while (!bytes.empty() && (bytes.front() == ' ' || bytes.front() == '\t' ||
                            bytes.front() == '\r' || bytes.front() == '\n')) {
    bytes.remove_prefix(1);
  }
  return bytes;
}

// The suffix that makes Assimp pick the right importer when the file's own name has none. BVH
// is not among them: animconv reads it itself (formats/bvh/bvh_reader.h).
std::string SniffedExtension(std::string_view bytes) {
  const std::string_view text = SkipBomAndSpace(bytes);
  if (StartsWith(bytes, "Kaydara FBX Binary") || StartsWith(text, "; FBX")) return ".fbx";
  if (text.substr(0, 1024).find("<COLLADA") != std::string_view::npos) return ".dae";
  return "";
}

template <typename T>
std::optional<T> Meta(const aiScene& scene, const char* key) {
  T value{};
  if (scene.mMetaData && scene.mMetaData->Get(key, value)) return value;
  return std::nullopt;
}

Family FamilyOf(const aiScene& scene) {
  const std::string format =
      Meta<aiString>(scene, "SourceAsset_Format").value_or(aiString()).C_Str();
  if (format.find("FBX") != std::string::npos) return Family::kFbx;
  return Family::kOther;
}

// FBX GlobalSettings name the file's up, front and right ("coord") axes; glTF's are +Y, +Z, +X.
// Assimp 5.2 reports them but does not apply them.
std::optional<AxisMap> FbxAxes(const aiScene& scene, std::vector<std::string>* notes) {
  const int up = Meta<int32_t>(scene, "UpAxis").value_or(1);
  const int up_sign = Meta<int32_t>(scene, "UpAxisSign").value_or(1);
  const int front = Meta<int32_t>(scene, "FrontAxis").value_or(2);
  const int front_sign = Meta<int32_t>(scene, "FrontAxisSign").value_or(1);
  const int coord = Meta<int32_t>(scene, "CoordAxis").value_or(0);
  const int coord_sign = Meta<int32_t>(scene, "CoordAxisSign").value_or(1);
  const auto axis_ok = [](int axis) { return axis >= 0 && axis <= 2; };
  const auto sign_ok = [](int sign) { return sign == 1 || sign == -1; };
  if (!axis_ok(up) || !axis_ok(front) || !axis_ok(coord) || up == front || up == coord ||
      front == coord || !sign_ok(up_sign) || !sign_ok(front_sign) || !sign_ok(coord_sign)) {
    notes->push_back("FBX axis settings are inconsistent: axes kept as they are");
    return std::nullopt;
  }
  AxisMap map;
  map.source = {coord, up, front};
  map.sign = {coord_sign, up_sign, front_sign};
  if (map.source == std::array<int, 3>{0, 1, 2} && map.sign == std::array<int, 3>{1, 1, 1}) {
    return std::nullopt;
  }
  const char* names = "XYZ";
  notes->push_back(
      fmt::format("FBX axes (up {}{}, front {}{}, right {}{}) turned to +Y up, +Z "
                  "front, +X right",
                  up_sign > 0 ? '+' : '-', names[up], front_sign > 0 ? '+' : '-', names[front],
                  coord_sign > 0 ? '+' : '-', names[coord]));
  return map;
}

// Metres per file unit, and what to tell the user about it.
double MetresPerUnit(const aiScene& scene, Family family, std::vector<std::string>* notes) {
  if (family == Family::kFbx) {
    // UnitScaleFactor is centimetres per unit; FBX's default unit is the centimetre.
    std::optional<double> centimetres = Meta<double>(scene, "UnitScaleFactor");
    if (!centimetres) {
      if (const auto single = Meta<float>(scene, "UnitScaleFactor")) centimetres = *single;
    }
    const double factor =
        centimetres && *centimetres > 0 && std::isfinite(*centimetres) ? *centimetres / 100 : 0.01;
    if (factor != 1) {
      // Assimp keeps the factor as a float: 6 digits are what it holds.
      notes->push_back(
          fmt::format("FBX unit {:.6g} cm: lengths x{:.6g} to metres", factor * 100, factor));
    }
    return factor;
  }
  return 1;
}

bool IsGenericClipName(const std::string& name) {
  if (name.empty() || name == "mixamo.com" || name == "Default Take" || name == "Unreal Take") {
    return true;
  }
  // "Take 001", Maya's and MotionBuilder's default.
  return name.size() > 5 && StartsWith(name, "Take ") &&
         std::all_of(name.begin() + 5, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

void NameClips(std::vector<Clip>& clips, const std::string& source,
               std::vector<std::string>* notes) {
  const std::string stem = ClipNameFromSource(source);
  const auto generic = std::count_if(clips.begin(), clips.end(),
                                     [](const Clip& clip) { return IsGenericClipName(clip.name); });
  int number = 0;
  for (Clip& clip : clips) {
    if (!IsGenericClipName(clip.name)) continue;
    const std::string name = generic == 1 ? stem : fmt::format("{}_{}", stem, ++number);
    notes->push_back(fmt::format("clip '{}' renamed '{}' after the file", clip.name, name));
    clip.name = name;
  }
}

// Morph targets matter to the clip model only through animated weights; a node whose weights
// nothing animates keeps no mesh, so writers without geometry (all but glTF pass-through) can
// write it. FBX blend-shape animation is what Assimp 5.2 drops (threejs_morph_test.fbx): say so.
void DropUnanimatedMorphTargets(Asset& asset, Family family, std::vector<std::string>* notes) {
  std::vector<bool> animated(asset.rig.nodes.size(), false);
  for (const Clip& clip : asset.clips) {
    for (const Channel& channel : clip.channels) {
      if (channel.path == Path::kWeights) animated[static_cast<size_t>(channel.node)] = true;
    }
  }
  for (size_t n = 0; n < asset.rig.nodes.size(); ++n) {
    Node& node = asset.rig.nodes[n];
    if (node.morph_target_count == 0 || animated[n]) continue;
    if (family == Family::kFbx) {
      notes->push_back(fmt::format(
          "'{}' has {} morph target(s), but Assimp 5.2 reads no blend-shape animation from FBX: "
          "no weights are animated here",
          node.name, node.morph_target_count));
    }
    node.mesh.reset();
    node.morph_target_count = 0;
    node.morph_target_names.clear();
  }
}

// Assimp 5.2 plays every FBX curve as straight lines between its keys: the curves whose own
// interpolation (constant, cubic) makes that differ beyond the tolerances are warned about.
void SayNonLinearCurves(std::string_view bytes, double metres, const ReadOptions& options,
                        std::vector<std::string>* notes) {
  size_t within = 0;
  const std::vector<std::string> warnings = NonLinearCurveWarnings(
      FindNonLinearFbxCurves(bytes, options.limits.keys_per_channel), metres, &within);
  for (const std::string& warning : warnings) {
    AddDiagnostic(options.diagnostics, Severity::kWarning, warning);
  }
  if (within > 0) {
    notes->push_back(fmt::format(
        "{} FBX curve(s) with constant or cubic keys play as straight lines between them (Assimp "
        "5.2), within 0.1 mm, 0.1 deg and 0.1 % of the file's curves",
        within));
  }
}

// Assimp 5.2 plays every COLLADA sampler as straight lines between its keys: the channels whose
// own INTERPOLATION holds (STEP) or curves are warned about (a hand-made STEP turn played 22.5
// degrees off at a quarter of the way, with exit 0 and no word).
void SayNonLinearDaeChannels(std::string_view bytes, const ReadOptions& options) {
  if (bytes.substr(0, 64 << 10).find("<COLLADA") == std::string_view::npos) return;
  const std::string warning = NonLinearDaeWarning(FindNonLinearDaeChannels(bytes));
  if (!warning.empty()) AddDiagnostic(options.diagnostics, Severity::kWarning, warning);
}

Asset ReadOnThisStack(std::string_view bytes, const ReadOptions& options);

}  // namespace

bool SniffAssimp(std::string_view bytes) { return !SniffedExtension(bytes).empty(); }

// On a stack that fits the depth limit (assimp_stack.h): Assimp recurses per level, also when
// it destroys the scene, so the whole read, importer included, runs there.
Asset ReadAssimp(std::string_view bytes, const ReadOptions& options) {
  Asset asset;
  RunOnStack(AssimpStackBytes(options.limits.depth),
             [&] { asset = ReadOnThisStack(bytes, options); });
  return asset;
}

namespace {

Asset ReadOnThisStack(std::string_view bytes, const ReadOptions& options) {
  std::string extension = std::filesystem::path(options.source).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (options.source.empty() || options.source.front() == '<' || extension.empty()) {
    extension = SniffedExtension(bytes);
  }
  if (extension == ".bvh" || StartsWith(SkipBomAndSpace(bytes), "HIERARCHY")) {
    // Assimp 5.2 drops positions of joints without 6 channels, keeps one ROOT and allocates
    // whatever "Frames:" claims: BVH has its own reader.
    throw Error(ErrorKind::kBadInput, options.source, "",
                "BVH is read by the 'bvh' reader, not through Assimp (--from bvh)");
  }
  if (extension.empty()) {
    // Assimp would try every importer it has on the bytes: only take what we can name.
    throw Error(ErrorKind::kBadInput, options.source, "",
                "not a BVH, FBX or COLLADA file; other formats Assimp reads need their file "
                "extension (.x, .b3d, ...)");
  }
  if (extension == ".fbx") CheckFbxArrayClaims(bytes, options.source);  // fbx_claims.h
  // A fixed name: the input's own may hold characters Assimp's path handling trips on.
  const std::string main_name = "input" + extension;
  Assimp::Importer importer;
  // A skeleton is not a mesh; Assimp would make one to show it.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_TEXTURES, false);
  // With pivots preserved (Assimp's default) a bone with pre-rotation comes as a helper chain,
  // yet Assimp 5.2 still bakes the pre-rotation into the bone's own rotation keys, so playing
  // the chain applies it twice (magnum-ufbx_skinning.fbx). Without, Assimp composes each bone's
  // full local transform per key itself; helpers it still makes are folded by BuildAssimpRig.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
  auto* io = new ConfinedIOSystem(bytes, main_name, options.load_resource);
  importer.SetIOHandler(io);  // the importer owns it from here
  const aiScene* scene = importer.ReadFile(main_name, 0);
  if (scene) {
    // Assimp's validator wants a mesh unless the scene says it is incomplete, and an
    // animation-only file has none (we asked for no skeleton mesh). Everything else it checks still
    // applies.
    if (scene->mNumMeshes == 0) const_cast<aiScene*>(scene)->mFlags |= AI_SCENE_FLAGS_INCOMPLETE;
    scene = importer.ApplyPostProcessing(aiProcess_ValidateDataStructure);
  }
  if (!scene) {
    if (io->refusal()) throw *io->refusal();
    throw Error(ErrorKind::kBadInput, options.source, "",
                fmt::format("Assimp {}.{}.{} cannot import it: {}", aiGetVersionMajor(),
                            aiGetVersionMinor(), aiGetVersionPatch(), importer.GetErrorString()));
  }
  const Family family = FamilyOf(*scene);
  Asset asset;
  if (io->refusal()) {
    // Assimp went on without the file (an OBJ's material library, a texture): nothing was read
    // from outside, and the animation does not depend on it, but the user should know.
    asset.notes.push_back(fmt::format("not read: {}", io->refusal()->message()));
  }
  asset.notes.push_back(fmt::format(
      "read with Assimp {}.{}.{} ({})", aiGetVersionMajor(), aiGetVersionMinor(),
      aiGetVersionPatch(),
      Meta<aiString>(*scene, "SourceAsset_Format").value_or(aiString("unknown importer")).C_Str()));
  AssimpRig rig = BuildAssimpRig(*scene, options.limits, options.source);
  if (rig.folded_helpers > 0) {
    asset.notes.push_back(fmt::format(
        "{} FBX pivot/offset/pre-rotation helper node(s) ($AssimpFbx$) folded into their bones",
        rig.folded_helpers));
  }
  AssimpClipOptions clip_options;
  clip_options.source = options.source;
  clip_options.cut_to_take = family == Family::kFbx;
  asset.clips =
      ConvertAssimpAnimations(*scene, rig, clip_options, &asset.notes, options.diagnostics);
  asset.rig = std::move(rig.rig);
  asset.coordinates = {Handedness::kRight, Facing::kUnknown};
  NameClips(asset.clips, options.source, &asset.notes);
  RepairInvalidUtf8Names(asset, &asset.notes);
  DropUnanimatedMorphTargets(asset, family, &asset.notes);
  if (family == Family::kFbx) {
    if (const std::optional<AxisMap> axes = FbxAxes(*scene, &asset.notes))
      ChangeBasis(asset, *axes);
  }
  const double metres = MetresPerUnit(*scene, family, &asset.notes);
  if (metres != 1) ScaleLengths(asset, metres);
  if (family == Family::kFbx) SayNonLinearCurves(bytes, metres, options, &asset.notes);
  if (family != Family::kFbx) SayNonLinearDaeChannels(bytes, options);
  return asset;
}

}  // namespace
}  // namespace animconv
