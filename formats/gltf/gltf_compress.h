// The compact encoding of glTF animation samplers (`--compress`, docs/formats/gltf.md "Compact
// output"): per channel the smallest encoding whose error, measured the way clip_diff measures
// (libconvert/value_error.h) on what a reader reconstructs, stays within GltfCompression's bounds.
// Encodings: normalized 8/16-bit rotations and weights (glTF 2.0 §3.11, the sampler output
// table), EXT_meshopt_compression's QUATERNION and EXPONENTIAL filters, else float32.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "animconv/format.h"
#include "animconv/model.h"

namespace animconv {

// How an accessor's bytes are stored and, with meshopt, prepared for the attribute codec.
struct EncodedAccessor {
  // Tightly packed elements as stored: what the accessor reads, or with a meshopt filter the
  // filter's input, which the decoder turns into what the accessor reads.
  std::string bytes;
  // With a filter: the bytes the filter decodes to (what the accessor reads), for storing the
  // same values without the extension where compressing does not pay. Empty without a filter.
  std::string filtered_bytes;
  int component_type = 0;
  bool normalized = false;
  size_t count = 0;  // elements
  const char* type = "SCALAR";
  // EXT_meshopt_compression: the filter the bytes were made for and the element size the
  // attribute codec sees (the filter's stride; 0 = plain data, any stride).
  const char* filter = "NONE";
  size_t filter_stride = 0;
  // The bytes one key takes in `bytes` (0: unknown). More than an element for morph weights (a
  // SCALAR per target) and cubic splines (in-tangent, value, out-tangent).
  size_t key_bytes = 0;
  // The largest error measured against the float32 values (radians for rotations, else the
  // units of ValueError), and the bits that encoding kept ("16" for SHORT, "12" for a quaternion
  // filter of 12 bits, "32" for float).
  double max_error = 0;
  int bits = 32;
};

// Whether this build can write EXT_meshopt_compression (ANIMCONV_WITH_MESHOPT).
bool MeshoptEncodingAvailable();

// The channel's sampler output (its `values`, one element per key, three for cubic splines) in
// the smallest encoding within `options`; float32 when nothing smaller fits (never beyond the
// bounds). `meshopt` says whether the filters may be used.
EncodedAccessor EncodeSamplerOutput(const Channel& channel, const GltfCompression& options,
                                    bool meshopt);

// The element size of the EXT_meshopt_compression attribute stream that holds `accessor`: the
// filter's stride, else its element size when that is divisible by 4 (the extension's rule for
// mode ATTRIBUTES) and at most 256, else 4 (small elements then travel four bytes at a time).
size_t StreamStride(const EncodedAccessor& accessor);
// The other element size worth trying when it differs: one key's bytes, or the fewest whole keys
// that are a multiple of 4 bytes, when that is at most 256 (0: none). The attribute codec encodes
// each byte of an element against the same byte of the element before, so each byte then follows
// one value over time (a morph target's weight rather than its neighbour's). Never for the
// quaternion filter, whose elements are 8 bytes.
size_t KeyStreamStride(const EncodedAccessor& accessor);

// The EXT_meshopt_compression mode ATTRIBUTES stream of `bytes` (a multiple of `stride` long).
// Empty in a build without meshoptimizer.
std::string CompressAttributes(std::string_view bytes, size_t stride);

}  // namespace animconv
