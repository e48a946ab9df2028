// A deterministic morph-target glTF: a cube whose faces are split into a grid, with two morph
// targets and one weights animation, for the `bake` demo, the tests and machines without
// ../shared. No seed, no randomness: the output depends only on `segments` and is meant to be
// byte-identical on every machine (see synthetic_morph_gltf.cpp and data/gltf/README.md).
//
// Used by `animconv_gen_morph_gltf`, which produced data/gltf/morph_cube.gltf.
#pragma once

#include <string>

namespace animconv::bench {

// The whole .gltf text (buffer embedded as a base64 data: URI). `segments` grid cells along each
// cube edge, >= 1; data/gltf/morph_cube.gltf uses 3.
std::string SyntheticMorphCubeGltf(int segments);

}  // namespace animconv::bench
