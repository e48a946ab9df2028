#!/usr/bin/env bash
# `animconv convert --reduce` beside glTF Transform's `resample` (issue 6), on the same files in
# one run; docs/performance.md, "Key reduction against glTF Transform", has the table and how to
# read it.
#
#   bench/reduce_vs_gltf_transform.sh [BUILD_DIR] [OUT_DIR]
#
# BUILD_DIR (default build) must hold cli/animconv and bench/animconv_gen_unity_csv. Inputs: every
# .gltf/.glb in ../shared/data/skeletal and ../shared/data/morph, the .vrma files of
# ../shared/data/vrm (ANIMCONV_SHARED_DATA overrides the folder), data/gltf/walk.glb, and two dense
# clips made here: walk.glb resampled to 60 keys/s (a smooth bake, as exporters write) and the
# synthetic walk at 120 rows/s through the Unity CSV reader (3-decimal values, so noisy).
# glTF Transform is pinned in bench/gltf-transform/package-lock.json and installed with `npm ci`,
# apart from the interop tests so CI does not install it.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build}
out_dir=${2:-out/bench-reduce}
shared=${ANIMCONV_SHARED_DATA:-../shared/data}
animconv="$build_dir/cli/animconv"
generator="$build_dir/bench/animconv_gen_unity_csv"
time_reduce="$build_dir/bench/animconv_time_reduce"
for tool in "$animconv" "$generator" "$time_reduce"; do
  [ -x "$tool" ] || { echo "missing $tool: build $build_dir first" >&2; exit 1; }
done

npm ci --prefix bench/gltf-transform --no-audit --no-fund --loglevel=error
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
node bench/gltf-transform/bench.mjs --animconv "$animconv" --time-reduce "$time_reduce" \
  --out "$out_dir" --runs "${RUNS:-3}" \
  --json "$out_dir/results.json" "${inputs[@]}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
