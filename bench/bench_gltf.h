// The glTF benchmarks of bench_gltf.cpp, registered at run time because which inputs exist is
// only known then.
#pragma once

namespace animconv::bench {

// Registers BM_GltfToThreeJson and BM_BakeP5Frames for every input found: the shared samples
// in ANIMCONV_SHARED_DATA_DIR when present, and the synthetic morph cube. Reads the files, so call
// it before benchmark::RunSpecifiedBenchmarks(), outside any timing.
void RegisterGltfBenchmarks();

}  // namespace animconv::bench
