// The GLB 2.0 container's constants, little-endian u32s (glTF 2.0 §4.4 GLB, §3.6 alignment): one
// definition for the reader (gltf_buffers.cpp) and the writer (gltf_writer.cpp).
#pragma once

#include <cstdint>

namespace animconv {

constexpr uint32_t kGlbMagic = 0x46546C67;      // "glTF"
constexpr uint32_t kGlbJsonChunk = 0x4E4F534A;  // "JSON"
constexpr uint32_t kGlbBinChunk = 0x004E4942;   // "BIN\0"

}  // namespace animconv
