#include "formats/gltf/gltf_float32_text.h"

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "libconvert/text.h"

namespace animconv {

using nlohmann::json;

namespace {

constexpr double kDegreesPerRadian = 180 / M_PI;
constexpr int kGltfFloat = 5126;

}  // namespace

json Float32Number(float value) {
  char text[40];
  return json::parse(std::string(text, FormatShortest(value, text)));
}

bool Float32Text::ShortenNumber(json& number, Kind kind) {
  if (!number.is_number_float()) return false;  // integers are already as short
  const double value = number.get<double>();
  const float single = static_cast<float>(value);
  if (!std::isfinite(single)) {  // beyond float32's range: only the digits say it
    ++kept_;
    return false;
  }
  json shortened = Float32Number(single);
  if (shortened.dump().size() >= number.dump().size()) return false;
  // What a reader in doubles sees move: from the text's old value to its new one.
  const double moved = std::abs(shortened.get<double>() - value);
  bool within = true;
  switch (kind) {
    case Kind::kTranslation:
      within = moved <= bounds_.translation_metres;
      if (within) largest_translation_metres_ = std::max(largest_translation_metres_, moved);
      break;
    case Kind::kRotation:
      // A unit quaternion's component moved by d turns it by at most 2d radians and changes its
      // squared length by about 2d, which three.js (it composes the matrix from the quaternion as
      // it is) would draw as scale.
      within = 2 * moved * kDegreesPerRadian <= bounds_.rotation_degrees &&
               2 * moved <= bounds_.scale_ratio;
      if (within) {
        largest_rotation_degrees_ =
            std::max(largest_rotation_degrees_, 2 * moved * kDegreesPerRadian);
      }
      break;
    case Kind::kRatio:
      within = moved <= bounds_.scale_ratio * std::abs(value);
      if (within && value != 0) largest_ratio_ = std::max(largest_ratio_, moved / std::abs(value));
      break;
    case Kind::kWeight:
      within = moved <= bounds_.weight;
      if (within) largest_weight_ = std::max(largest_weight_, moved);
      break;
    case Kind::kBound:
      break;  // the same float32: nothing a reader does changes
  }
  if (!within) {
    ++kept_;
    return false;
  }
  number = std::move(shortened);
  ++shortened_;
  return true;
}

bool Float32Text::ShortenArray(json& object, const char* member, Kind kind) {
  const auto found = object.find(member);
  if (found == object.end() || !found->is_array()) return false;
  bool changed = false;
  for (json& number : *found) changed = ShortenNumber(number, kind) || changed;
  return changed;
}

bool Float32Text::ShortenMatrix(json& node) {
  const auto found = node.find("matrix");
  if (found == node.end() || !found->is_array()) return false;
  bool changed = false;
  for (size_t i = 0; i < found->size(); ++i) {
    // Column-major: elements 12, 13, 14 are the translation (glTF 2.0 §5.25).
    const Kind kind = i >= 12 && i <= 14 ? Kind::kTranslation : Kind::kRatio;
    changed = ShortenNumber((*found)[i], kind) || changed;
  }
  return changed;
}

bool Float32Text::ShortenNode(json& node, bool transform_final) {
  if (!node.is_object()) return false;
  bool changed = false;
  if (!transform_final) {
    changed = ShortenArray(node, "translation", Kind::kTranslation);
    changed = ShortenArray(node, "rotation", Kind::kRotation) || changed;
    changed = ShortenArray(node, "scale", Kind::kRatio) || changed;
    changed = ShortenMatrix(node) || changed;
  }
  changed = ShortenArray(node, "weights", Kind::kWeight) || changed;
  return changed;
}

bool Float32Text::ShortenMesh(json& mesh) {
  if (!mesh.is_object()) return false;
  return ShortenArray(mesh, "weights", Kind::kWeight);
}

bool Float32Text::ShortenAccessorBounds(json& accessor) {
  if (!accessor.is_object()) return false;
  const auto type = accessor.find("componentType");
  if (type == accessor.end() || !type->is_number_integer() || type->get<int64_t>() != kGltfFloat) {
    return false;
  }
  bool changed = ShortenArray(accessor, "min", Kind::kBound);
  changed = ShortenArray(accessor, "max", Kind::kBound) || changed;
  return changed;
}

std::string Float32Text::Summary() const {
  std::string text = fmt::format(
      "--compress: {} number(s) of nodes, meshes and accessor bounds written as the shortest text "
      "of their float32 (the same float32; a reader in doubles sees them move by at most {:.2g} "
      "m, {:.2g} deg, a ratio of {:.2g}, a weight of {:.2g})",
      shortened_, largest_translation_metres_, largest_rotation_degrees_, largest_ratio_,
      largest_weight_);
  if (kept_ > 0) {
    text += fmt::format(
        "; {} kept with all their digits (rounding would move them beyond the bound)", kept_);
  }
  return text;
}

}  // namespace animconv
