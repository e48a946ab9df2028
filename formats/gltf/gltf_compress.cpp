#include "formats/gltf/gltf_compress.h"

#if ANIMCONV_WITH_MESHOPT
#include <meshoptimizer.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>
#include <string_view>

#include "animconv/quaternion.h"
#include "formats/gltf/gltf_document.h"
#include "libconvert/value_error.h"

namespace animconv {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Between two keys slerp is not linear in the components, so rotations are also compared inside
// every segment (as --reduce does, libconvert/reduce.cpp); for translations, scales and weights
// both curves are linear between keys and the keys bound the error (convexity).
constexpr double kRotationFractions[] = {0.25, 0.5, 0.75};

// One way to store a channel's output, with the values a reader reconstructs from it.
struct Candidate {
  EncodedAccessor accessor;
  std::vector<double> decoded;  // same layout as the channel's values
};

size_t ElementWidth(const Channel& channel) { return static_cast<size_t>(channel.width); }

const char* OutputType(Path path) {
  return path == Path::kTranslation || path == Path::kScale ? "VEC3"
         : path == Path::kRotation                          ? "VEC4"
                                                            : "SCALAR";
}

// Accessor elements: a weights output is SCALAR, one element per target per key.
size_t AccessorCount(const Channel& channel) {
  return channel.path == Path::kWeights ? channel.values.size()
                                        : channel.values.size() / ElementWidth(channel);
}

// The float32 values the plain writer stores: what every encoding is measured against.
std::vector<float> Float32Values(const Channel& channel) {
  return std::vector<float>(channel.values.begin(), channel.values.end());
}

Candidate FloatCandidate(const Channel& channel, const std::vector<float>& values) {
  Candidate candidate;
  EncodedAccessor& out = candidate.accessor;
  out.bytes.assign(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
  out.component_type = kGltfFloat;
  out.count = AccessorCount(channel);
  out.type = OutputType(channel.path);
  out.bits = 32;
  candidate.decoded.assign(values.begin(), values.end());
  return candidate;
}

template <typename Int>
void AppendInt(std::string& bytes, Int value) {
  bytes.append(reinterpret_cast<const char*>(&value), sizeof(Int));  // little-endian, like GLB
}

// Normalized integers (glTF 2.0 §3.11: f = max(c / (2^(b-1) - 1), -1) signed, c / (2^b - 1)
// unsigned; three.js GLTFLoader divides by the same maxima). Signed values never use the most
// negative code, which three.js would read as slightly below -1.
template <typename Int>
Candidate NormalizedCandidate(const Channel& channel, const std::vector<float>& values,
                              int component_type) {
  constexpr double kMax = static_cast<double>(std::numeric_limits<Int>::max());
  constexpr double kMin = std::numeric_limits<Int>::is_signed ? -kMax : 0.0;
  Candidate candidate;
  EncodedAccessor& out = candidate.accessor;
  out.bytes.reserve(values.size() * sizeof(Int));
  candidate.decoded.reserve(values.size());
  for (const float value : values) {
    const double code = std::clamp(std::round(static_cast<double>(value) * kMax), kMin, kMax);
    AppendInt(out.bytes, static_cast<Int>(code));
    candidate.decoded.push_back(code / kMax);
  }
  out.component_type = component_type;
  out.normalized = true;
  out.count = AccessorCount(channel);
  out.type = OutputType(channel.path);
  out.bits = static_cast<int>(sizeof(Int) * 8);
  return candidate;
}

#if ANIMCONV_WITH_MESHOPT
// EXT_meshopt_compression filter 2: three components of `bits` bits and the index of the
// largest; the decoder (meshopt_decodeFilterQuat, the same algorithm as three.js's
// meshopt_decoder) writes normalized SHORT components, read as c / 32767.
Candidate QuaternionFilterCandidate(const Channel& channel, const std::vector<float>& values,
                                    int bits) {
  const size_t count = values.size() / 4;
  Candidate candidate;
  EncodedAccessor& out = candidate.accessor;
  out.bytes.assign(count * 8, '\0');
  meshopt_encodeFilterQuat(out.bytes.data(), count, 8, bits, values.data());
  std::string& decoded = out.filtered_bytes;
  decoded = out.bytes;
  meshopt_decodeFilterQuat(decoded.data(), count, 8);
  candidate.decoded.resize(count * 4);
  for (size_t i = 0; i < count * 4; ++i) {
    int16_t code;
    std::memcpy(&code, decoded.data() + i * 2, 2);
    candidate.decoded[i] = std::max(code / 32767.0, -1.0);
  }
  out.component_type = kGltfShort;
  out.normalized = true;
  out.count = AccessorCount(channel);
  out.type = "VEC4";
  out.filter = "QUATERNION";
  out.filter_stride = 8;
  out.bits = bits;
  return candidate;
}

// Filter 3: a shared 8-bit exponent per vector of `stride` bytes and a `bits`-bit mantissa per
// component; decoded back to float32.
Candidate ExponentialFilterCandidate(const Channel& channel, const std::vector<float>& values,
                                     size_t stride, int bits) {
  const size_t count = values.size() * sizeof(float) / stride;
  Candidate candidate;
  EncodedAccessor& out = candidate.accessor;
  out.bytes.assign(values.size() * sizeof(float), '\0');
  meshopt_encodeFilterExp(out.bytes.data(), count, stride, bits, values.data());
  std::string& decoded = out.filtered_bytes;
  decoded = out.bytes;
  meshopt_decodeFilterExp(decoded.data(), count, stride);
  candidate.decoded.resize(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    float value;
    std::memcpy(&value, decoded.data() + i * 4, 4);
    candidate.decoded[i] = value;
  }
  out.component_type = kGltfFloat;
  out.count = AccessorCount(channel);
  out.type = OutputType(channel.path);
  out.filter = "EXPONENTIAL";
  out.filter_stride = stride;
  out.bits = bits;
  return candidate;
}
#endif

// The error bounds of one path, in ValueError's units.
struct Bound {
  double error = 0;
  // Rotations only: the largest |q·q - 1| allowed. three.js composes its matrices from the
  // quaternion as it is (no renormalising), so a non-unit key would show as a scale error.
  double norm_skew = std::numeric_limits<double>::infinity();
};

Bound BoundFor(Path path, const GltfCompression& options) {
  switch (path) {
    case Path::kRotation:
      return {options.rotation_degrees * kPi / 180, options.scale_ratio};
    case Path::kTranslation:
      return {options.translation_metres};
    case Path::kScale:
      return {options.scale_ratio};
    case Path::kWeights:
      return {options.weight};
  }
  return {};
}

// The largest error of `decoded` against `reference` over the keys (and, for linear rotations,
// inside each segment); infinity when a rotation key's norm is off by more than bound.norm_skew.
double MeasureError(const Channel& channel, const std::vector<float>& reference,
                    const std::vector<double>& decoded, const Bound& bound) {
  const size_t width = ElementWidth(channel);
  const size_t elements = reference.size() / width;
  std::vector<double> expected(reference.begin(), reference.end());
  double worst = 0;
  if (channel.path != Path::kRotation) {
    for (size_t e = 0; e < elements; ++e) {
      worst = std::max(worst, ValueError(channel.path, expected.data() + e * width, width,
                                         decoded.data() + e * width, width));
    }
    return worst;
  }
  std::vector<Quat> a(elements);
  std::vector<Quat> b(elements);
  for (size_t e = 0; e < elements; ++e) {
    const Quat got = LoadQuat(decoded.data() + e * 4);
    if (std::abs(Dot(got, got) - 1) > bound.norm_skew) {
      return std::numeric_limits<double>::infinity();
    }
    a[e] = Normalized(LoadQuat(expected.data() + e * 4));
    b[e] = Normalized(got);
    worst = std::max(worst, AngleBetween(a[e], b[e]));
  }
  if (channel.interpolation == Interpolation::kLinear) {
    for (size_t e = 0; e + 1 < elements; ++e) {
      for (const double fraction : kRotationFractions) {
        worst = std::max(worst, AngleBetween(SlerpShortest(a[e], a[e + 1], fraction),
                                             SlerpShortest(b[e], b[e + 1], fraction)));
      }
    }
  }
  return worst;
}

// Keeps `candidate` when it is within the bound, with its measured error.
bool Accept(const Channel& channel, const std::vector<float>& reference, Candidate& candidate,
            const Bound& bound) {
  const double error = MeasureError(channel, reference, candidate.decoded, bound);
  if (!(error <= bound.error)) return false;
  candidate.accessor.max_error = error;
  return true;
}

#if ANIMCONV_WITH_MESHOPT
// The fewest filter bits in [low, high] whose encoding is within the bound (the error falls as
// bits grow; every answer is measured, so a non-monotone case costs bytes, never accuracy).
template <typename Make>
std::optional<Candidate> FewestBits(const Channel& channel, const std::vector<float>& reference,
                                    const Bound& bound, int low, int high, Make make) {
  std::optional<Candidate> best;
  while (low <= high) {
    const int bits = low + (high - low) / 2;
    Candidate candidate = make(bits);
    if (Accept(channel, reference, candidate, bound)) {
      best = std::move(candidate);
      high = bits - 1;
    } else {
      low = bits + 1;
    }
  }
  return best;
}
#endif

// Rotations and weights as normalized integers, 8 bits before 16; nothing for other paths or
// weights outside [-1, 1].
std::optional<Candidate> NormalizedChoice(const Channel& channel,
                                          const std::vector<float>& reference, const Bound& bound,
                                          bool try_byte) {
  bool unsigned_range = channel.path == Path::kWeights;
  for (const float value : reference) {
    if (!(std::abs(value) <= 1)) return std::nullopt;
    if (value < 0) unsigned_range = false;
  }
  if (channel.path != Path::kRotation && channel.path != Path::kWeights) return std::nullopt;
  if (try_byte) {
    Candidate byte = unsigned_range
                         ? NormalizedCandidate<uint8_t>(channel, reference, kGltfUnsignedByte)
                         : NormalizedCandidate<int8_t>(channel, reference, kGltfByte);
    if (Accept(channel, reference, byte, bound)) return byte;
  }
  Candidate word = unsigned_range
                       ? NormalizedCandidate<uint16_t>(channel, reference, kGltfUnsignedShort)
                       : NormalizedCandidate<int16_t>(channel, reference, kGltfShort);
  if (Accept(channel, reference, word, bound)) return word;
  return std::nullopt;
}

// EncodeSamplerOutput without the key size.
EncodedAccessor ChooseSamplerOutput(const Channel& channel, const GltfCompression& options,
                                    bool meshopt) {
  const std::vector<float> reference = Float32Values(channel);
  const Bound bound = BoundFor(channel.path, options);
  // Cubic splines stay float32: their tangents are not bounded to [-1, 1] and their error lies
  // between the keys, which these measurements do not sample.
  if (channel.interpolation == Interpolation::kCubicSpline || reference.empty()) {
    return FloatCandidate(channel, reference).accessor;
  }
  if (options.quantize && channel.path == Path::kRotation) {
    Candidate byte = NormalizedCandidate<int8_t>(channel, reference, kGltfByte);
    if (Accept(channel, reference, byte, bound)) return byte.accessor;
  }
#if ANIMCONV_WITH_MESHOPT
  if (meshopt && options.quantize && channel.path == Path::kRotation) {
    // The filter's 4..16 bits per component decode to SHORT, below the 16-bit size once the
    // attribute codec has squeezed the unused low bits.
    if (auto filtered = FewestBits(channel, reference, bound, 4, 16, [&](int bits) {
          return QuaternionFilterCandidate(channel, reference, bits);
        })) {
      return filtered->accessor;
    }
  }
#else
  static_cast<void>(meshopt);
#endif
  if (options.quantize) {
    // (8-bit rotations were tried above, before the filter.)
    if (auto normalized =
            NormalizedChoice(channel, reference, bound, channel.path != Path::kRotation)) {
      return normalized->accessor;
    }
  }
#if ANIMCONV_WITH_MESHOPT
  if (meshopt && channel.path != Path::kRotation) {
    // Translations and scales share one exponent per key (the extension's advice for animation);
    // morph weights get one per value, since targets differ in magnitude.
    const size_t stride = channel.path == Path::kWeights ? 4 : 12;
    if (auto filtered = FewestBits(channel, reference, bound, 1, 24, [&](int bits) {
          return ExponentialFilterCandidate(channel, reference, stride, bits);
        })) {
      return filtered->accessor;
    }
  }
#endif
  return FloatCandidate(channel, reference).accessor;
}

}  // namespace

bool MeshoptEncodingAvailable() { return ANIMCONV_WITH_MESHOPT != 0; }

EncodedAccessor EncodeSamplerOutput(const Channel& channel, const GltfCompression& options,
                                    bool meshopt) {
  EncodedAccessor accessor = ChooseSamplerOutput(channel, options, meshopt);
  if (channel.key_count() > 0 && accessor.bytes.size() % channel.key_count() == 0) {
    accessor.key_bytes = accessor.bytes.size() / channel.key_count();
  }
  return accessor;
}

size_t KeyStreamStride(const EncodedAccessor& accessor) {
  // The quaternion filter decodes 8-byte elements only (EXT_meshopt_compression, filter 2).
  if (std::string_view(accessor.filter) == "QUATERNION" || accessor.key_bytes == 0) return 0;
  const size_t stride = std::lcm(accessor.key_bytes, size_t{4});
  return stride <= 256 ? stride : 0;
}

size_t StreamStride(const EncodedAccessor& accessor) {
  if (accessor.filter_stride != 0) return accessor.filter_stride;
  const size_t element = accessor.count == 0 ? 4 : accessor.bytes.size() / accessor.count;
  if (std::string_view(accessor.type) == "SCALAR" || element % 4 != 0 || element > 256) return 4;
  return element;
}

std::string CompressAttributes(std::string_view bytes, size_t stride) {
  std::string compressed;
#if ANIMCONV_WITH_MESHOPT
  const size_t count = bytes.size() / stride;
  compressed.resize(meshopt_encodeVertexBufferBound(count, stride));
  compressed.resize(meshopt_encodeVertexBuffer(reinterpret_cast<unsigned char*>(compressed.data()),
                                               compressed.size(), bytes.data(), count, stride));
#else
  static_cast<void>(bytes), static_cast<void>(stride);
#endif
  return compressed;
}

}  // namespace animconv
