#!/usr/bin/env bash
# Byte-for-byte comparison of two animconv binaries over every sample input (data/ and
# ../shared/data) × every writable format, plus `info --json`: for refactors that promise
# identical behaviour (docs/architecture.md). Compares outputs, exit codes and messages.
# Usage: scripts/compare_builds.sh OLD_ANIMCONV NEW_ANIMCONV [SCRATCH_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
old=$(realpath "$1") new=$(realpath "$2")
scratch=${3:-$(mktemp -d)}
mkdir -p "$scratch/old" "$scratch/new"
formats=(csv unity-csv gltf vrma glb three three-hierarchy)
mapfile -t inputs < <(find data ../shared/data -type f \
  \( -name '*.csv' -o -name '*.gltf' -o -name '*.glb' -o -name '*.vrm' -o -name '*.vrma' \
     -o -name '*.json' -o -name '*.bvh' -o -name '*.fbx' -o -name '*.dae' \) | sort)
runs=0 differ=0
run() {  # side binary name args...
  local side=$1 bin=$2 name=$3; shift 3
  (cd "$scratch/$side" && "$bin" "$@" >"$name.stdout" 2>"$name.stderr"; echo $? >"$name.rc")
}
for input in "${inputs[@]}"; do
  path=$(realpath "$input")
  key=$(echo "$input" | tr '/.' '__')
  jobs=("info:info --json $path")
  for to in "${formats[@]}"; do jobs+=("$to:convert $path -o $key.$to --to $to"); done
  for job in "${jobs[@]}"; do
    name="$key.${job%%:*}"
    read -r -a args <<<"${job#*:}"
    run old "$old" "$name" "${args[@]}"
    run new "$new" "$name" "${args[@]}"
    runs=$((runs + 1))
  done
done
# Messages name the binary's path only through argv[0]-free text, so the trees compare whole.
if diff -r "$scratch/old" "$scratch/new" >"$scratch/differences.txt"; then
  echo "compare_builds: $runs runs over ${#inputs[@]} inputs, identical"
else
  echo "compare_builds: $runs runs over ${#inputs[@]} inputs, differences in $scratch/differences.txt:"
  head -40 "$scratch/differences.txt"
  exit 1
fi
