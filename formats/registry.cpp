#include <fmt/format.h>

#include "animconv/error.h"
#include "animconv/format.h"
#if ANIMCONV_WITH_ASSIMP
#include "formats/assimp/assimp.h"
#endif
#include "formats/bvh/bvh_reader.h"
#include "formats/bvh/bvh_writer.h"
#include "formats/csv/animconv_csv.h"
#include "formats/csv/unity_csv.h"
#include "formats/gltf/gltf.h"
#include "formats/three/three_hierarchy.h"
#include "formats/three/three_json.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

// The format whose extension matches `path` longest, among those `usable` accepts.
template <typename Usable>
const Format* ByExtension(const std::string& path, Usable usable) {
  const Format* best = nullptr;
  size_t best_length = 0;
  for (const Format& format : Formats()) {
    if (!usable(format)) continue;
    for (const std::string_view extension : format.extensions) {
      if (EndsWithIgnoreCase(path, extension) && extension.size() > best_length) {
        best = &format;
        best_length = extension.size();
      }
    }
  }
  return best;
}

// What Assimp reads: the `assimp` entry's extensions, and what a build without it refuses by name.
const std::vector<std::string_view> kAssimpExtensions = {
    ".fbx", ".dae", ".x", ".b3d", ".ms3d", ".smd", ".md5mesh", ".ogex", ".3ds", ".lws"};

#if !ANIMCONV_WITH_ASSIMP
// A build without Assimp (the web build, docs/web.md) says so for the files only Assimp reads,
// rather than "cannot tell the input format".
void RefuseAssimpOnlyInput(const std::string& path, std::string_view bytes) {
  static constexpr std::string_view kBinaryFbxMagic = "Kaydara FBX Binary";
  bool assimp_only = bytes.substr(0, kBinaryFbxMagic.size()) == kBinaryFbxMagic;
  for (const std::string_view extension : kAssimpExtensions) {
    assimp_only = assimp_only || EndsWithIgnoreCase(path, extension);
  }
  if (assimp_only) {
    throw Error(ErrorKind::kBadInput, path, "",
                "FBX, COLLADA and the other formats read through Assimp cannot be read by this "
                "build (the web build has no Assimp); convert the file with the native animconv");
  }
}
#endif

std::string FormatIds(bool readers) {
  std::string ids;
  for (const Format& format : Formats()) {
    if (readers ? format.read == nullptr : format.write == nullptr) continue;
    ids += ids.empty() ? "" : ", ";
    ids += format.id;
  }
  return ids;
}

// The writers that hand their bytes over as pieces (Format::write_pieces).
std::vector<Format> WithPieceWriters(std::vector<Format> formats) {
  for (Format& format : formats) {
    if (format.id == "three") format.write_pieces = WriteThreeJsonPieces;
    if (format.id == "glb") format.write_pieces = WriteGlbPieces;
    if (format.id == "vrma") format.write_pieces = WriteVrmaPieces;
  }
  return formats;
}

// What the writers' files hold beyond their channels (Format::writes_rest_pose,
// Format::writes_every_frame, Format::plays_step, Format::holds_vrma_roles,
// Format::stores_duration, Format::skeleton_without_meshes).
std::vector<Format> WithWriterTraits(std::vector<Format> formats) {
  for (Format& format : formats) {
    if (format.write == nullptr) continue;
    format.writes_rest_pose = format.id == "gltf" || format.id == "glb" || format.id == "vrma" ||
                              format.id == "three-hierarchy" || format.id == "bvh";
    format.writes_every_frame = format.id == "bvh" || format.id == "unity-csv";
    format.plays_step = format.id != "vrma";
    format.holds_vrma_roles = format.id != "bvh";
    format.stores_duration = format.id != "gltf" && format.id != "glb" && format.id != "vrma" &&
                             format.id != "csv" && format.id != "unity-csv";
    format.skeleton_without_meshes = format.id == "bvh" || format.id == "three-hierarchy";
  }
  return formats;
}

// The Assimp entry last (its sniffer is the loosest), in the builds that have Assimp.
std::vector<Format> WithAssimp(std::vector<Format> formats) {
#if ANIMCONV_WITH_ASSIMP
  formats.push_back(
      // Read only: Assimp's exporters lose what we keep (Assimp 5.2 glTF2Exporter.cpp writes no
      // morph-weight animation, assimp issue #5352; docs/formats/assimp.md); we write glTF.
      Format{"assimp", "FBX, COLLADA and other animated formats, read through Assimp 5.2",
             kAssimpExtensions, Handedness::kRight, false, false, false, SniffAssimp, ReadAssimp,
             nullptr});
#endif
  return formats;
}

}  // namespace

const std::vector<Format>& Formats() {
  // Order matters twice: sniffers run top to bottom (the specific `csv` header test before the
  // looser unity-csv one), and on an extension tie the first entry wins (".csv" writes `csv`).
  static const std::vector<Format> formats = WithWriterTraits(WithPieceWriters(WithAssimp({
      {"csv",
       "animconv CSV: time + one column per channel component",
       {".csv"},
       Handedness::kRight,
       false,
       false,
       false,
       SniffAnimconvCsv,
       ReadAnimconvCsv,
       WriteAnimconvCsv},
      {"unity-csv",
       "Unity per-bone localRotation CSV (HumanBodyBones order, left-handed)",
       {".unity.csv", ".csv"},
       Handedness::kLeft,
       true,
       false,
       false,
       SniffUnityCsv,
       ReadUnityCsv,
       WriteUnityCsv,
       NormalizedHumanoid::kWhenRestPoseKnown,
       /*holds_morph_weights=*/true,
       /*rows_without_times=*/true},
      {"gltf",
       "glTF 2.0 JSON (reads external and embedded buffers; writes one embedded buffer)",
       {".gltf"},
       Handedness::kRight,
       false,
       true,
       true,
       SniffGltf,
       ReadGltf,
       WriteGltf},
      {"vrma",
       "VRM Animation (VRMC_vrm_animation 1.0): a humanoid clip any VRM model can play",
       {".vrma"},
       Handedness::kRight,
       false,
       false,
       true,
       SniffVrma,
       ReadGltf,
       WriteVrma,
       NormalizedHumanoid::kAlways},
      {"glb",
       "binary glTF 2.0, also VRM and VRM Animation files",
       {".glb", ".vrm"},
       Handedness::kRight,
       false,
       true,
       true,
       SniffGlb,
       ReadGltf,
       WriteGlb},
      {"three",
       "three.js AnimationClip JSON (AnimationClip.parse, r187)",
       {".json"},
       Handedness::kRight,
       false,
       false,
       false,
       SniffThreeJson,
       ReadThreeJson,
       WriteThreeJson},
      {"three-hierarchy",
       "legacy three.js hierarchy JSON (AnimationClip.parseAnimation, <= r184)",
       {".hierarchy.json"},
       Handedness::kRight,
       false,
       false,
       false,
       SniffThreeHierarchy,
       ReadThreeHierarchy,
       WriteThreeHierarchy,
       NormalizedHumanoid::kNo,
       /*holds_morph_weights=*/false},
      // Our own reader and writer, no Assimp (issue 15). The writer re-expresses rotations for a
      // rest pose without rotations, the one BVH players assume (docs/formats/bvh.md, "Writing").
      {"bvh",
       "BVH motion capture (HIERARCHY + MOTION; centimetres assumed)",
       {".bvh"},
       Handedness::kRight,
       false,
       false,
       true,
       SniffBvh,
       ReadBvh,
       WriteBvh,
       NormalizedHumanoid::kNo,
       /*holds_morph_weights=*/false},
  })));
  return formats;
}

const Format* FindFormat(std::string_view id) {
  for (const Format& format : Formats()) {
    if (format.id == id) return &format;
  }
  return nullptr;
}

const Format& DetectInputFormat(const std::string& path, std::string_view bytes,
                                const std::string& forced_id) {
  if (!forced_id.empty()) {
    const Format* format = FindFormat(forced_id);
    if (!format || !format->read) {
      ThrowUsage(fmt::format("--from {}: not a readable format (readable: {})", forced_id,
                             FormatIds(true)));
    }
    return *format;
  }
  for (const Format& format : Formats()) {
    if (format.read && format.sniff && format.sniff(bytes)) return format;
  }
#if !ANIMCONV_WITH_ASSIMP
  RefuseAssimpOnlyInput(path, bytes);
#endif
  if (const Format* format = ByExtension(path, [](const Format& f) { return f.read != nullptr; })) {
    return *format;
  }
  throw Error(ErrorKind::kBadInput, path, "",
              fmt::format("cannot tell the input format from its name or content; pass --from "
                          "(readable: {})",
                          FormatIds(true)));
}

const Format& DetectOutputFormat(const std::string& path, const std::string& forced_id) {
  if (!forced_id.empty()) {
    const Format* format = FindFormat(forced_id);
    if (!format || !format->write) {
      ThrowUsage(fmt::format("--to {}: not a writable format (writable: {})", forced_id,
                             FormatIds(false)));
    }
    return *format;
  }
  if (const Format* format =
          ByExtension(path, [](const Format& f) { return f.write != nullptr; })) {
    return *format;
  }
  ThrowUsage(fmt::format("cannot tell the output format from '{}'; pass --to (writable: {})", path,
                         FormatIds(false)));
}

}  // namespace animconv
