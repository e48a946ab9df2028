#include "formats/gltf/vrm_look_at.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "formats/common/json_pointer.h"

namespace animconv {
namespace {

using nlohmann::json;

// three-vrm's INPUT_MAX_VALUE_MINIMUM: a smaller input range reads as this.
constexpr double kInputMaxMinimum = 0.01;

struct MapNames {
  const char* vrm1;
  const char* vrm0;
  VrmLookAt::RangeMap VrmLookAt::*member;
};
constexpr MapNames kMaps[] = {
    {"rangeMapHorizontalInner", "lookAtHorizontalInner", &VrmLookAt::horizontal_inner},
    {"rangeMapHorizontalOuter", "lookAtHorizontalOuter", &VrmLookAt::horizontal_outer},
    {"rangeMapVerticalDown", "lookAtVerticalDown", &VrmLookAt::vertical_down},
    {"rangeMapVerticalUp", "lookAtVerticalUp", &VrmLookAt::vertical_up},
};

// One range map: {inputMaxValue, outputScale} (1.0) or {xRange, yRange, curve} (0.x).
VrmLookAt::RangeMap ReadMap(const json* map, const char* input_key, const char* output_key,
                            double default_output, const std::string& pointer,
                            const GltfErrors& errors, std::vector<std::string>& adjusted) {
  VrmLookAt::RangeMap range;
  range.output_scale = default_output;
  if (!map) return range;
  if (!map->is_object()) errors.Fail(pointer, "expected a range map object");
  if (const json* input = Given(*map, input_key)) {
    range.input_max_degrees = errors.RequireNumber(*input, pointer + "/" + input_key);
  }
  if (const json* output = Given(*map, output_key)) {
    range.output_scale = errors.RequireNumber(*output, pointer + "/" + output_key);
  }
  if (range.input_max_degrees < kInputMaxMinimum) {
    adjusted.push_back(fmt::format("{}/{} {} read as {}", pointer, input_key,
                                   range.input_max_degrees, kInputMaxMinimum));
    range.input_max_degrees = kInputMaxMinimum;
  }
  // VRM 0.x degree maps have a curve; three-vrm supports only the linear one and ignores others.
  if (const json* curve = Given(*map, "curve")) {
    if (*curve != json::array({0, 0, 0, 1, 1, 1, 1, 0})) {
      adjusted.push_back(pointer + "/curve ignored (three-vrm reads every curve as linear)");
    }
  }
  return range;
}

std::string Describe(const VrmLookAt::RangeMap& map) {
  return fmt::format("{:g}->{:g}", map.input_max_degrees, map.output_scale);
}

}  // namespace

void ReadVrmLookAt(const json& document, VrmKind kind, Asset& asset, const GltfErrors& errors) {
  if (kind != VrmKind::kVrm0 && kind != VrmKind::kVrm1) return;
  const bool vrm1 = kind == VrmKind::kVrm1;
  const std::string pointer = vrm1 ? "/extensions/VRMC_vrm/lookAt" : "/extensions/VRM/firstPerson";
  const json& extension = document["extensions"][vrm1 ? "VRMC_vrm" : "VRM"];
  const json* source = Given(extension, vrm1 ? "lookAt" : "firstPerson");
  if (!source) return;  // three-vrm makes no lookAt
  if (!source->is_object()) errors.Fail(pointer, "expected an object");
  VrmLookAt look_at;
  const std::string& type =
      errors.OptionalString(*source, vrm1 ? "type" : "lookAtTypeName", pointer);
  look_at.type = type == (vrm1 ? "expression" : "BlendShape") ? VrmLookAt::Type::kExpression
                                                              : VrmLookAt::Type::kBone;
  const double default_output = look_at.type == VrmLookAt::Type::kExpression ? 1 : 10;
  std::vector<std::string> adjusted;
  for (const MapNames& names : kMaps) {
    const char* key = vrm1 ? names.vrm1 : names.vrm0;
    look_at.*names.member = ReadMap(Given(*source, key), vrm1 ? "inputMaxValue" : "xRange",
                                    vrm1 ? "outputScale" : "yRange", default_output,
                                    pointer + "/" + key, errors, adjusted);
  }
  look_at.faces_minus_z = !vrm1;
  asset.notes.push_back(fmt::format(
      "lookAt ({}, {}): {} range maps (degrees -> {}) horizontal inner {}, outer {}, vertical "
      "down {}, up {}",
      look_at.type == VrmLookAt::Type::kBone ? "bone" : "expression", pointer,
      look_at.type == VrmLookAt::Type::kBone ? "eye" : "look expression",
      look_at.type == VrmLookAt::Type::kBone ? "degrees" : "weight",
      Describe(look_at.horizontal_inner), Describe(look_at.horizontal_outer),
      Describe(look_at.vertical_down), Describe(look_at.vertical_up)));
  if (!adjusted.empty()) {
    asset.notes.push_back(
        fmt::format("lookAt: as three-vrm reads them: {}", fmt::join(adjusted, "; ")));
  }
  asset.vrm_look_at = look_at;
}

}  // namespace animconv
