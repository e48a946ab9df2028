#include "animconv/info_report.h"

#include <nlohmann/json.hpp>

#include "animconv/bone_map.h"
#include "animconv/bone_names.h"
#include "animconv/io.h"
#include "libconvert/body_frame.h"

namespace animconv {
namespace {

// Up and facing: the rest pose's where it stands other than up +Y facing ±Z (a BVH drawn Z-up,
// docs/retargeting.md "Up and facing"), else +Y and the facing the input records.
nlohmann::json CoordinatesJson(const Rig& rig, const CoordinateSystem& coordinates) {
  std::string up = "+Y";
  std::string facing = coordinates.facing == Facing::kPlusZ    ? "+Z"
                       : coordinates.facing == Facing::kMinusZ ? "-Z"
                                                               : "unknown";
  if (const std::optional<AxisTurn> frame = RestFrameBeyondFacing(rig)) {
    up = frame->UpName();
    facing = frame->FacingName();
  }
  return {{"handedness", coordinates.handedness == Handedness::kRight ? "right" : "left"},
          {"up", up},
          {"facing", facing}};
}

nlohmann::json GuessJson(const std::optional<HumanoidGuess>& guess) {
  if (!guess) return nullptr;
  return {{"naming", HumanoidGuessNamingId(*guess)},
          {"bones_matched", guess->bones_matched},
          {"prefix", guess->prefix},
          {"thumbs_ambiguous", guess->thumbs_ambiguous},
          {"unmatched", guess->unmatched_candidates}};
}

nlohmann::json HumanoidJson(const Rig& rig, const HumanoidCoverage& coverage,
                            const std::optional<HumanoidGuess>& guess) {
  nlohmann::json bones = nlohmann::json::array();
  for (const HumanBone bone : coverage.mapped) {
    for (const Node& node : rig.nodes) {
      if (node.human_bone != bone) continue;
      bones.push_back({{"index", static_cast<int>(bone)},
                       {"bone", *HumanBoneName(bone, BoneNaming::kVrm1)},
                       {"node", node.name}});
      break;
    }
  }
  return {
      {"bones_mapped", coverage.mapped.size()},
      {"bones", bones},
      {"missing_required_vrm1", HumanBoneNames(coverage.missing_required_vrm1, BoneNaming::kVrm1)},
      {"missing_required_vrm0", HumanBoneNames(coverage.missing_required_vrm0, BoneNaming::kVrm0)},
      {"guessed", GuessJson(guess)}};
}

nlohmann::json ToJson(const std::string& path, const LoadedAsset& loaded,
                      const AssetSummary& summary) {
  nlohmann::json clips = nlohmann::json::array();
  for (const ClipSummary& clip : summary.clips) {
    nlohmann::json per_path = nlohmann::json::object();
    for (const Path p : kInfoPaths)
      per_path[PathName(p)] = clip.channels_per_path[static_cast<int>(p)];
    nlohmann::json per_interpolation = nlohmann::json::object();
    for (const Interpolation i : kInfoInterpolations) {
      per_interpolation[InterpolationName(i)] =
          clip.channels_per_interpolation[static_cast<int>(i)];
    }
    clips.push_back({{"name", clip.name},
                     {"duration_seconds", clip.duration_seconds},
                     {"key_rate_hz", clip.key_rate_hz ? nlohmann::json(*clip.key_rate_hz)
                                                      : nlohmann::json(nullptr)},
                     {"channels", clip.channel_count},
                     {"channels_per_path", per_path},
                     {"channels_per_interpolation", per_interpolation},
                     {"keys", clip.key_count},
                     {"max_keys_per_channel", clip.max_keys_per_channel},
                     {"targets", clip.targets},
                     {"missing_humanoid_bones", clip.missing_humanoid}});
  }
  return {{"input", path},
          {"format", std::string(loaded.format->id)},
          {"bytes", loaded.input_bytes},
          {"coordinates", CoordinatesJson(loaded.asset.rig, summary.coordinates)},
          {"nodes", summary.node_count},
          {"humanoid_nodes", summary.humanoid_node_count},
          {"vrma_expressions", summary.vrma_expressions},
          {"vrma_look_at", summary.vrma_look_at},
          {"humanoid", HumanoidJson(loaded.asset.rig, summary.humanoid, loaded.humanoid_guess)},
          {"rest_pose_known", summary.rest_pose_known},
          {"notes", summary.notes},
          {"rotations",
           {{"keys_not_unit_length", summary.rotation_keys_not_unit},
            {"max_length_error", summary.max_rotation_length_error},
            {"sign_flips_between_keys", summary.rotation_sign_flips}}},
          {"clips", clips}};
}

}  // namespace

LoadedAsset LoadForInfo(const std::string& path, const ConvertOptions& options,
                        const std::string& bone_map_file, Diagnostics* diagnostics) {
  LoadedAsset loaded = LoadAsset(path, options, diagnostics);
  if (!bone_map_file.empty()) {
    const std::vector<BoneMapEntry> entries = ParseBoneMap(ReadFile(bone_map_file), bone_map_file);
    for (const std::string& warning : RenameBones(loaded.asset.rig, entries, std::nullopt)) {
      AddDiagnostic(diagnostics, Severity::kWarning, "--bone-map: " + warning);
    }
  }
  return loaded;
}

std::vector<std::string> HumanBoneNames(const std::vector<HumanBone>& bones, BoneNaming naming) {
  std::vector<std::string> names;
  for (const HumanBone bone : bones) names.push_back(*HumanBoneName(bone, naming));
  return names;
}

std::string InfoJson(const std::string& path, const LoadedAsset& loaded,
                     const AssetSummary& summary) {
  // Paths and notes may quote bytes that are not UTF-8: replaced (U+FFFD), never a crash.
  return ToJson(path, loaded, summary)
      .dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace animconv
