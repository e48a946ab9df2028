#!/usr/bin/env bash
# BVH -> GLB, animconv against `assimp export` (Debian assimp-utils, Assimp 5.2, which animconv
# read BVH with before it had its own reader), on the same files in one run: wall time (best of RUNS, process start
# included for both), output size, Khronos validator result, and agreement with three.js r187's
# BVHLoader reading of the input (tests/interop/check_bvh.mjs: largest rotation and position
# difference over every joint and frame; animconv writes metres, assimp keeps BVH units).
# Needs: a built animconv, assimp-utils, and `npm ci --prefix tests/interop`.
#
# Usage: bench/bvh_vs_assimp_export.sh [BUILD_DIR (default build)] [RUNS (default 5)]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-5}
animconv=$build/cli/animconv
command -v assimp >/dev/null || { echo "assimp (Debian assimp-utils) is not installed" >&2; exit 2; }
[ -x "$animconv" ] || { echo "no $animconv: build first" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

inputs=(data/bvh/*.bvh)
if [ -d ../shared/data/bvh ]; then inputs+=(../shared/data/bvh/*.bvh); fi

# Best wall time of $runs runs of the command, in milliseconds.
best_ms() {
  local best="" start end elapsed
  for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    elapsed=$(( (end - start) / 1000 ))
    if [ -z "$best" ] || [ "$elapsed" -lt "$best" ]; then best=$elapsed; fi
  done
  awk -v us="$best" 'BEGIN { printf "%.1f", us / 1000 }'
}

validator() {  # "E errors / W warnings"
  (cd tests/interop && node check_gltf.mjs "$1" 2>/dev/null) |
    sed -n 's/.*validator [^:]*: \([0-9]*\) errors, \([0-9]*\) warnings.*/\1 E, \2 W/p' | head -1
}

agreement() {  # largest quaternion / position difference to BVHLoader
  local input
  input=$(realpath "$1")
  (cd tests/interop && node check_bvh.mjs --bvh "$input" --unit "$2" "$3" 2>/dev/null) |
    sed -n 's/.*quaternion \([^,]*\), position \([^ ]*\) BVH units/\1 \/ \2/p' | head -1
}

echo "animconv $("$animconv" --version 2>/dev/null | head -1 || echo) vs $(assimp version 2>/dev/null | grep -m1 -o 'Version [0-9.]*' || echo assimp); $runs runs each, best wall time"
echo
echo "| file | bytes | animconv ms | assimp ms | assimp/animconv | animconv .glb | assimp .glb | validator animconv | validator assimp | vs BVHLoader animconv (quat / pos) | vs BVHLoader assimp |"
echo "|---|---:|---:|---:|---:|---:|---:|---|---|---|---|"
for input in "${inputs[@]}"; do
  name=$(basename "$input" .bvh)
  ours=$out/$name.animconv.glb
  theirs=$out/$name.assimp.glb
  ms_ours=$(best_ms "$animconv" convert "$input" -o "$ours")
  ms_theirs=$(best_ms assimp export "$input" "$theirs" -fglb2)
  ratio=$(awk -v a="$ms_ours" -v b="$ms_theirs" 'BEGIN { printf "%.2f", b / a }')
  echo "| $name | $(stat -c %s "$input") | $ms_ours | $ms_theirs | $ratio | $(stat -c %s "$ours") | $(stat -c %s "$theirs") | $(validator "$ours") | $(validator "$theirs") | $(agreement "$input" 0.01 "$ours") | $(agreement "$input" 1 "$theirs") |"
done
