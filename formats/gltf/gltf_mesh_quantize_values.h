// The value encodings --compress-meshes stores vertex attributes in (gltf_mesh_quantize.h), each
// decoded the way a reader decodes it so that its error is measured, not assumed: float accessors
// read from the bytes the weld leaves, normalized integers (glTF 2.0 §3.11), the error measures and
// the min/max of the stored codes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "formats/gltf/gltf_document.h"
#include "formats/gltf/gltf_mesh_weld.h"

namespace animconv::mesh_values {

using nlohmann::json;

struct FloatData {
  size_t view = 0;
  size_t count = 0;
  size_t components = 0;
  std::string type;
  std::vector<double> values;  // count * components
};

// Accessor `a` of `source` as numbers when its components are `component_type` (FLOAT, whose
// values must be finite, UNSIGNED_SHORT or UNSIGNED_BYTE), not normalized, not sparse, of a vector
// type and within its view; read from the bytes `weld` leaves.
std::optional<FloatData> ReadComponents(const GltfDocument& source, const MeshWeld& weld, size_t a,
                                        int component_type);
inline std::optional<FloatData> ReadFloats(const GltfDocument& source, const MeshWeld& weld,
                                           size_t a) {
  return ReadComponents(source, weld, a, kGltfFloat);
}

template <typename Int>
void Put(std::string& bytes, size_t at, Int value) {
  std::memcpy(bytes.data() + at, &value, sizeof(Int));  // little-endian, like GLB
}

// Elements padded to 4 bytes (glTF 2.0 §3.6.2.4: vertex attribute elements are 4-byte aligned).
inline size_t PaddedStride(size_t element_bytes) { return (element_bytes + 3) / 4 * 4; }

// Normalized integers (glTF 2.0 §3.11: c / (2^(b-1) - 1) signed, c / (2^b - 1) unsigned; three.js
// divides by the same maxima). Signed values never use the most negative code.
struct IntegerData {
  std::string bytes;
  std::vector<double> decoded;
  size_t stride = 0;
  int component_type = 0;
};

template <typename Int>
IntegerData Normalize(const FloatData& data, int component_type) {
  constexpr double kMax = static_cast<double>(std::numeric_limits<Int>::max());
  constexpr double kMin = std::numeric_limits<Int>::is_signed ? -kMax : 0.0;
  IntegerData out;
  out.component_type = component_type;
  out.stride = PaddedStride(data.components * sizeof(Int));
  out.bytes.assign(data.count * out.stride, '\0');
  out.decoded.resize(data.values.size());
  for (size_t e = 0; e < data.count; ++e) {
    for (size_t c = 0; c < data.components; ++c) {
      const size_t i = e * data.components + c;
      const double code = std::clamp(std::round(data.values[i] * kMax), kMin, kMax);
      Put(out.bytes, e * out.stride + c * sizeof(Int), static_cast<Int>(code));
      out.decoded[i] = code / kMax;
    }
  }
  return out;
}

// Skin weights (within [0, 1]) as normalized unsigned 8-bit (`bytes`) or 16-bit integers; a
// vertex whose weights sum to 1 gets codes that sum to the maximum exactly (the largest remainders
// rounded up), as glTF 2.0 §3.7.3.3 asks of them (the validator checks it).
IntegerData NormalizeWeights(const FloatData& data, bool bytes);

// Skin weights (WEIGHTS_0) as stored: normalized 8-bit when the errors of each vertex's weights
// add up to at most `bound`, else 16-bit when they do; the error of one weight and that largest
// sum, which moves a skinned vertex by that share of the distance between where its joints carry
// it (counted in its positions' budget, QuantizeMeshes). Review of 1ff69b8: weights each within
// the bound of k/255 took 8 bits while their sum was 3.6 times the bound.
struct StoredWeights {
  IntegerData stored;
  double error = 0;    // the largest error of one weight
  double row_sum = 0;  // the largest sum of |error| over one vertex's weights
};

std::optional<StoredWeights> StoreWeights(const FloatData& data, double bound);

// Whether every fourth value (a tangent's w, its handedness) is exactly 1 or -1, which the
// normalized types hold exactly.
bool HandednessExact(const std::vector<double>& values);
bool WithinRange(const FloatData& data, double low, double high);
double LargestDifference(const std::vector<double>& a, const std::vector<double>& b);
// The largest distance between the vectors of `a` and `b`, `components` apart.
double LargestDistance(const std::vector<double>& a, const std::vector<double>& b,
                       size_t components);
// How far a unit vector moves when turned by `degrees`: 2 sin(degrees / 2), the bound a morph
// normal/tangent delta's error is held to (at weight 1 it turns the drawn normal no more).
double ChordOf(double degrees);
// The largest angle (degrees) between the xyz directions of `a` and `b`, `components` apart; a
// zero vector matches only a zero vector.
double LargestAngle(const std::vector<double>& a, const std::vector<double>& b, size_t components);
// The accessor's new members; min and max (the raw integer codes, glTF 2.0 §3.6.2.5) are written
// where the source had them or glTF requires them (POSITION, base and targets).
json AccessorChange(int component_type, bool normalized, const std::vector<double>& codes,
                    size_t components, bool bounds);
// The codes of normalized output, for min/max.
std::vector<double> Codes(const IntegerData& out, double max);

}  // namespace animconv::mesh_values
