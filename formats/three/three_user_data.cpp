#include "formats/three/three_user_data.h"

#include <fmt/format.h>

#include "formats/common/json_errors.h"

namespace animconv {

std::string ThreeUserDataText(const CoordinateSystem& coordinates) {
  nlohmann::ordered_json ours;
  if (coordinates.facing != Facing::kUnknown) {
    ours["facing"] = coordinates.facing == Facing::kPlusZ ? "+z" : "-z";
  }
  ours["handedness"] = coordinates.handedness == Handedness::kRight ? "right" : "left";
  nlohmann::ordered_json user_data;
  user_data["animconv"] = std::move(ours);
  return user_data.dump();
}

std::optional<Facing> ReadThreeUserDataFacing(const nlohmann::json& user_data,
                                              const std::string& pointer,
                                              Diagnostics* diagnostics) {
  auto warn = [&](const std::string& what) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("three: {}/userData {}; ignored", pointer, what));
  };
  if (user_data.is_null()) return std::nullopt;
  // AnimationClip.parse runs JSON.parse(json.userData || '{}') (r180+, three.js r187
  // AnimationClip.parse).
  if (!user_data.is_string()) {
    warn(fmt::format("is {}, not a JSON string: three.js r180+ throws on it",
                     user_data.type_name()));
    return std::nullopt;
  }
  const std::string& text = user_data.get_ref<const std::string&>();
  if (text.empty()) return std::nullopt;
  if (FindExcessJsonNesting(text)) {
    warn(ExcessJsonNestingMessage() + "; not read");
    return std::nullopt;
  }
  const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  if (parsed.is_discarded()) {
    warn("is not JSON text: three.js r180+ throws on it");
    return std::nullopt;
  }
  if (!parsed.is_object()) return std::nullopt;
  const auto ours = parsed.find("animconv");
  if (ours == parsed.end() || !ours->is_object()) return std::nullopt;
  if (const auto handedness = ours->find("handedness");
      handedness != ours->end() && *handedness != "right") {
    warn(fmt::format("says handedness {}, but three.js JSON is right-handed", handedness->dump()));
  }
  const auto facing = ours->find("facing");
  if (facing == ours->end()) return std::nullopt;
  if (*facing == "+z") return Facing::kPlusZ;
  if (*facing == "-z") return Facing::kMinusZ;
  warn(fmt::format("says facing {}, expected \"+z\" or \"-z\"", facing->dump()));
  return std::nullopt;
}

}  // namespace animconv
