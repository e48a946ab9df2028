#!/usr/bin/env bash
# Deep and wide inputs (issue 14): times `animconv -q convert` of each format's generated case
# (bench/gen_deep.py) at N, 2N and 4N nodes into .glb, .json and .csv, and prints the ratios
# t(2N)/t(N) and t(4N)/t(2N): about 2 when linear, 4 when quadratic. With `assimp` (Debian
# assimp-utils) on the PATH the BVH chain is also exported to ASCII FBX (its binary FBX export does not read back) and timed through Assimp.
# docs/reliability.md ("Deep hierarchies: how we measured") records the figures.
#
# Usage: bench/deep_bench.sh [BUILD_DIR (default build)] [N (default 2000)]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
n=${2:-2000}
animconv=$build/cli/animconv
[ -x "$animconv" ] || { echo "no $animconv: build first" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

seconds() {  # seconds FILE OUTPUT: wall time of one conversion, or "rc=N" on failure
  local start end
  start=$(date +%s.%N)
  timeout 120 "$animconv" -q convert "$1" -o "$2" >/dev/null 2>"$out/err"
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "rc=$rc"  # 1 for the formats with no humanoid to make a .vrma of
    return
  fi
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

ratio() { [[ $1 == rc=* || $2 == rc=* ]] && echo "-" || printf '%.2f' "$(echo "$2 / $1" | bc -l)"; }

printf '%-10s %-5s %8s %8s %8s %6s %6s\n' format to "t($n)" "t($((2 * n)))" "t($((4 * n)))" \
  ratio2 ratio4
for format in gltf glb vrm hierarchy three csv bvh fbx; do
  case $format in
    hierarchy) ext=hierarchy.json ;;
    three) ext=json ;;
    *) ext=$format ;;
  esac
  for size in $n $((2 * n)) $((4 * n)); do
    if [ $format = fbx ]; then
      command -v assimp >/dev/null || continue 2
      python3 bench/gen_deep.py bvh "$size" "$out/d$size.bvh"
      assimp export "$out/d$size.bvh" "$out/d$size.fbx" -ffbxa >/dev/null 2>&1 || continue 2
    else
      python3 bench/gen_deep.py $format "$size" "$out/d$size.$ext"
    fi
  done
  for to in glb json csv vrma bvh; do
    t1=$(seconds "$out/d$n.$ext" "$out/o.$to")
    t2=$(seconds "$out/d$((2 * n)).$ext" "$out/o.$to")
    t4=$(seconds "$out/d$((4 * n)).$ext" "$out/o.$to")
    printf '%-10s %-5s %8s %8s %8s %6s %6s\n' $format $to "$t1" "$t2" "$t4" "$(ratio "$t1" "$t2")" \
      "$(ratio "$t2" "$t4")"
  done
done
