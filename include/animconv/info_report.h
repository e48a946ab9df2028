// `animconv info`: one input read as convert reads it, and its report as `--json` prints it. The
// CLI (cli/info_command.cpp) and the web API (web/src) both call these, so the report is the same.
#pragma once

#include <string>
#include <vector>

#include "animconv/bone_names.h"
#include "animconv/convert.h"
#include "animconv/diagnostic.h"
#include "animconv/summary.h"

namespace animconv {

// The paths and interpolations in the order `info` lists them (text and JSON).
inline constexpr Path kInfoPaths[] = {Path::kTranslation, Path::kRotation, Path::kScale,
                                      Path::kWeights};
inline constexpr Interpolation kInfoInterpolations[] = {
    Interpolation::kStep, Interpolation::kLinear, Interpolation::kCubicSpline};

// The bones' names in `naming` (every humanoid bone has one in each naming `info` uses).
std::vector<std::string> HumanBoneNames(const std::vector<HumanBone>& bones, BoneNaming naming);

// LoadAsset, then the renaming convert does first when `bone_map_file` is not empty
// (pipeline/convert.cpp), so `info --bone-map` shows the rig and humanoid coverage a conversion
// with that map would work with. Its warnings go to `diagnostics`.
LoadedAsset LoadForInfo(const std::string& path, const ConvertOptions& options,
                        const std::string& bone_map_file, Diagnostics* diagnostics);

// The `--json` report (indented by 2, bytes that are not UTF-8 replaced by U+FFFD), no newline.
std::string InfoJson(const std::string& path, const LoadedAsset& loaded,
                     const AssetSummary& summary);

// The text report `animconv info` prints (no --json), lines ending in "\n"; names from the input
// escaped for the terminal (EscapeForTerminal).
std::string InfoText(const std::string& path, const LoadedAsset& loaded,
                     const AssetSummary& summary);

}  // namespace animconv
