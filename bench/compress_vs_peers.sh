#!/usr/bin/env bash
# `animconv convert --reduce --compress` beside `gltfpack -c` and glTF Transform (resample +
# quantize + meshopt), issue 18 item 3; docs/performance.md, "Compact output beside gltfpack and
# glTF Transform", has a run.
#
#   bench/compress_vs_peers.sh [BUILD_DIR] [OUT_DIR]
#
# BUILD_DIR (default build) must hold cli/animconv and bench/animconv_gen_unity_csv. Inputs: every
# .gltf/.glb of ../shared/data/skeletal and ../shared/data/morph, the .vrma files of
# ../shared/data/vrm (ANIMCONV_SHARED_DATA overrides the folder), data/gltf/walk.glb and the dense
# walks of bench/reduce_vs_gltf_transform.sh (60 keys/s, 120 rows/s). The peers are pinned in
# bench/compress-peers/package-lock.json and installed with `npm ci`, not by the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build}
out_dir=${2:-out/bench-compress}
shared=${ANIMCONV_SHARED_DATA:-../shared/data}
animconv="$build_dir/cli/animconv"
generator="$build_dir/bench/animconv_gen_unity_csv"
for tool in "$animconv" "$generator"; do
  [ -x "$tool" ] || { echo "missing $tool: build $build_dir first" >&2; exit 1; }
done

npm ci --prefix bench/compress-peers --no-audit --no-fund --loglevel=error
# three.js for the mesh column (tests/interop/mesh_distance.mjs).
[ -d tests/interop/node_modules/three ] || npm ci --prefix tests/interop --no-audit --no-fund --loglevel=error
mkdir -p "$out_dir/inputs"
"$generator" --rows 1200 --interval 0.008333333333333333 -o "$out_dir/inputs/walk_120hz.csv"
"$animconv" -q convert "$out_dir/inputs/walk_120hz.csv" --fps 120 -o "$out_dir/inputs/walk_120hz.glb"
"$animconv" -q convert data/gltf/walk.glb --resample 60 -o "$out_dir/inputs/walk_60fps.glb"

inputs=()
if [ -d "$shared" ]; then
  while IFS= read -r file; do inputs+=("$file"); done < <(
    find "$shared/skeletal" "$shared/morph" -type f \( -name '*.gltf' -o -name '*.glb' \) | sort
    find "$shared/vrm" -type f -name '*.vrma' | sort)
else
  echo "$shared not found: only the project's own clips are measured" >&2
fi
inputs+=(data/gltf/walk.glb "$out_dir/inputs/walk_60fps.glb" "$out_dir/inputs/walk_120hz.glb")

echo "$(date -u +%FT%TZ) $(git rev-parse --short HEAD) load: $(cut -d' ' -f1-3 /proc/loadavg)"
node bench/compress-peers/bench.mjs --animconv "$animconv" --out "$out_dir" --runs "${RUNS:-3}" \
  --json "$out_dir/results.json" "${inputs[@]}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
