// What animconv keeps in a three.js clip's `userData`: the facts about the clip the JSON format
// has no place for, so that our own output reads back as it plays (docs/formats/threejs.md).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "animconv/diagnostic.h"
#include "animconv/model.h"
#include "formats/common/json_pointer.h"

namespace animconv {

// The text of a clip's `userData` (a JSON *string* in the file: r180+ JSON.parses it in
// AnimationClip.parse): {"animconv":{"facing":"-z","handedness":"right"}}, without "facing" when
// unknown.
std::string ThreeUserDataText(const CoordinateSystem& coordinates);

// The facing a clip's `userData` (the member's value, at `pointer`) records under "animconv", or
// nullopt. What three.js would refuse (not a string holding JSON) and values other than ours are
// warnings in `diagnostics`: they do not change the motion, only what the reader knows.
std::optional<Facing> ReadThreeUserDataFacing(const nlohmann::json& user_data,
                                              const std::string& pointer, Diagnostics* diagnostics);

}  // namespace animconv
