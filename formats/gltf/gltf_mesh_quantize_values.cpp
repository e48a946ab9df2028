#include "formats/gltf/gltf_mesh_quantize_values.h"

#include "animconv/model.h"
#include "formats/gltf/gltf_references.h"

namespace animconv::mesh_values {
namespace {

constexpr double kPi = 3.14159265358979323846;

json Bounds(const std::vector<double>& codes, size_t components, bool max) {
  json out = json::array();
  for (size_t c = 0; c < components; ++c) {
    double value =
        max ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    for (size_t i = c; i < codes.size(); i += components) {
      value = max ? std::max(value, codes[i]) : std::min(value, codes[i]);
    }
    out.push_back(static_cast<int64_t>(value));
  }
  return out;
}

}  // namespace

// Whether every fourth value (a tangent's w, its handedness) is exactly 1 or -1, which the
// normalized types hold exactly.
bool HandednessExact(const std::vector<double>& values) {
  for (size_t i = 3; i < values.size(); i += 4) {
    if (values[i] != 1 && values[i] != -1) return false;
  }
  return true;
}

// A float accessor's values, read from the bytes the weld leaves (gltf_mesh_weld.h).

std::optional<FloatData> ReadComponents(const GltfDocument& source, const MeshWeld& weld, size_t a,
                                        int component_type) {
  const json accessor = source.lists.accessors->At(a);
  const json* normalized = Find(accessor, "normalized");
  if (!accessor.is_object() || accessor.contains("sparse") ||
      accessor.value("componentType", json()) != component_type ||
      (normalized && *normalized != false) ||
      (component_type != kGltfFloat && component_type != kGltfUnsignedShort &&
       component_type != kGltfUnsignedByte)) {
    return std::nullopt;
  }
  FloatData data;
  data.components = VectorComponents(accessor.value("type", json()));
  const std::optional<size_t> view =
      ValidIndex(accessor.value("bufferView", json()), source.buffer_views.size());
  std::optional<size_t> count = Natural(Find(accessor, "count"), 0);
  std::optional<size_t> offset = Natural(Find(accessor, "byteOffset"), 0);
  if (data.components == 0 || !view || !count || !offset) return std::nullopt;
  if (const auto welded = weld.accessors.find(a); welded != weld.accessors.end()) {
    count = welded->second.count;
    offset = welded->second.byte_offset;
  }
  const auto welded_bytes = weld.view_bytes.find(*view);
  const std::string& bytes =
      welded_bytes == weld.view_bytes.end() ? source.buffer_views[*view] : welded_bytes->second;
  const size_t size = static_cast<size_t>(ComponentSize(component_type));
  const size_t element = data.components * size;
  const json view_definition = source.lists.buffer_views->At(*view);
  const std::optional<size_t> stride = Natural(Find(view_definition, "byteStride"), element);
  if (!stride || *stride < element || !FitsIn(bytes.size(), *offset, *stride, *count, element)) {
    return std::nullopt;
  }
  data.view = *view;
  data.count = *count;
  data.type = accessor["type"].get<std::string>();
  data.values.resize(*count * data.components);
  for (size_t e = 0; e < *count; ++e) {
    for (size_t c = 0; c < data.components; ++c) {
      const char* at = bytes.data() + *offset + e * *stride + c * size;
      double value;
      if (component_type == kGltfFloat) {
        float f;
        std::memcpy(&f, at, 4);
        if (!std::isfinite(f)) return std::nullopt;
        value = f;
      } else if (component_type == kGltfUnsignedShort) {
        uint16_t u;
        std::memcpy(&u, at, 2);
        value = u;
      } else {
        value = static_cast<uint8_t>(*at);
      }
      data.values[e * data.components + c] = value;
    }
  }
  return data;
}

IntegerData NormalizeWeights(const FloatData& data, bool bytes) {
  IntegerData out;
  out.component_type = bytes ? kGltfUnsignedByte : kGltfUnsignedShort;
  const double max = bytes ? 255 : 65535;
  const size_t size = bytes ? 1 : 2;
  const size_t n = data.components;
  out.stride = PaddedStride(n * size);
  out.bytes.assign(data.count * out.stride, '\0');
  out.decoded.resize(data.values.size());
  std::vector<double> codes(n);
  std::vector<size_t> order(n);
  for (size_t e = 0; e < data.count; ++e) {
    const double* weights = &data.values[e * n];
    double sum = 0;
    for (size_t c = 0; c < n; ++c) sum += weights[c];
    // A vertex whose weights sum to 1 (float rounding aside) gets codes that sum to the maximum:
    // each rounded down, the largest remainders up. Another keeps its own sum, rounded. Either
    // way a weight above 0 keeps a code above 0: a joint used with weight 0 is no joint
    // (ACCESSOR_JOINTS_USED_ZERO_WEIGHT).
    const bool exact_sum = std::abs(sum - 1) <= 1e-5;
    double total = 0;
    for (size_t c = 0; c < n; ++c) {
      const double scaled = weights[c] * max;
      codes[c] = exact_sum ? std::floor(scaled) : std::round(scaled);
      if (weights[c] > 0 && codes[c] == 0) codes[c] = 1;
      total += codes[c];
    }
    if (exact_sum) {
      for (size_t c = 0; c < n; ++c) order[c] = c;
      std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        return weights[x] * max - codes[x] > weights[y] * max - codes[y];
      });
      for (size_t k = 0; total < max && k < n; ++k, ++total) codes[order[k]] += 1;
      // Codes raised from 0 may overshoot: taken back from the largest.
      while (total > max) {
        const size_t largest =
            static_cast<size_t>(std::max_element(codes.begin(), codes.end()) - codes.begin());
        codes[largest] -= 1;
        total -= 1;
      }
    }
    for (size_t c = 0; c < n; ++c) {
      const size_t at = e * out.stride + c * size;
      if (bytes) {
        Put(out.bytes, at, static_cast<uint8_t>(codes[c]));
      } else {
        Put(out.bytes, at, static_cast<uint16_t>(codes[c]));
      }
      out.decoded[e * n + c] = codes[c] / max;
    }
  }
  return out;
}

std::optional<StoredWeights> StoreWeights(const FloatData& data, double bound) {
  if (data.components != 4 || !WithinRange(data, 0, 1)) return std::nullopt;
  for (const bool bytes : {true, false}) {
    StoredWeights out;
    out.stored = NormalizeWeights(data, bytes);
    out.error = LargestDifference(data.values, out.stored.decoded);
    for (size_t e = 0; e < data.count; ++e) {
      double sum = 0;
      for (size_t c = 0; c < 4; ++c) {
        sum += std::abs(data.values[e * 4 + c] - out.stored.decoded[e * 4 + c]);
      }
      out.row_sum = std::max(out.row_sum, sum);
    }
    if (out.row_sum <= bound) return out;
  }
  return std::nullopt;
}

bool WithinRange(const FloatData& data, double low, double high) {
  return std::all_of(data.values.begin(), data.values.end(),
                     [&](double value) { return value >= low && value <= high; });
}

double LargestDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

double LargestDistance(const std::vector<double>& a, const std::vector<double>& b,
                       size_t components) {
  double worst = 0;
  for (size_t i = 0; i + components <= a.size(); i += components) {
    double squares = 0;
    for (size_t c = 0; c < components; ++c)
      squares += (a[i + c] - b[i + c]) * (a[i + c] - b[i + c]);
    worst = std::max(worst, std::sqrt(squares));
  }
  return worst;
}

double ChordOf(double degrees) { return 2 * std::sin(degrees * kPi / 360); }

// The largest angle (degrees) between the xyz directions of `a` and `b`, `components` apart; a
// zero vector matches only a zero vector.
double LargestAngle(const std::vector<double>& a, const std::vector<double>& b, size_t components) {
  double worst = 0;
  for (size_t i = 0; i + components <= a.size(); i += components) {
    const Vec3 u{a[i], a[i + 1], a[i + 2]};
    const Vec3 v{b[i], b[i + 1], b[i + 2]};
    const double lu = std::hypot(u[0], u[1], u[2]);
    const double lv = std::hypot(v[0], v[1], v[2]);
    if (lu == 0 || lv == 0) {
      if (lu != lv) return 180;
      continue;
    }
    const Vec3 cross{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                     u[0] * v[1] - u[1] * v[0]};
    const double dot = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    worst = std::max(worst, std::atan2(std::hypot(cross[0], cross[1], cross[2]), dot) * 180 / kPi);
    if (components == 4 && a[i + 3] != b[i + 3]) return 180;  // a tangent's handedness
  }
  return worst;
}

// The accessor's new members; min and max (the raw integer codes, glTF 2.0 §3.6.2.5) are written
// where the source had them or glTF requires them (POSITION, base and targets).
json AccessorChange(int component_type, bool normalized, const std::vector<double>& codes,
                    size_t components, bool bounds) {
  json change = {{"componentType", component_type}, {"normalized", normalized}};
  if (bounds && !codes.empty()) {
    change["min"] = Bounds(codes, components, false);
    change["max"] = Bounds(codes, components, true);
  }
  return change;
}

// The codes of normalized output, for min/max.
std::vector<double> Codes(const IntegerData& out, double max) {
  std::vector<double> codes(out.decoded.size());
  for (size_t i = 0; i < codes.size(); ++i) codes[i] = std::round(out.decoded[i] * max);
  return codes;
}

}  // namespace animconv::mesh_values
