#!/usr/bin/env bash
# Byte-for-byte comparison of two animconv binaries over every sample input (data/ and
# ../shared/data) × every writable format, plus `info --json`, and over variants of the .gltf
# samples that the readers refuse (scripts/gltf_member_mutations.py): for refactors that promise
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
# The readers' refusals too: every .gltf sample with each top-level member replaced by a value of
# each JSON kind (scripts/gltf_member_mutations.py), converted to .glb by both from its own folder.
mapfile -t gltf_inputs < <(printf '%s\n' "${inputs[@]}" | grep '\.gltf$')
rm -rf "$scratch/mutations"
mutations=$(python3 scripts/gltf_member_mutations.py "$scratch/mutations" "${gltf_inputs[@]}")
for variant in "$scratch"/mutations/*/; do
  name="mutation_$(basename "$variant")"
  for side in old new; do
    bin=$old
    [ "$side" = new ] && bin=$new
    (cd "$variant" && "$bin" convert in.gltf -o out.glb >"$scratch/$side/$name.stdout" \
      2>"$scratch/$side/$name.stderr"; echo $? >"$scratch/$side/$name.rc")
    [ -e "$variant/out.glb" ] && mv "$variant/out.glb" "$scratch/$side/$name.glb"
  done
  runs=$((runs + 1))
done
# Messages name the binary's path only through argv[0]-free text, so the trees compare whole.
if diff -r "$scratch/old" "$scratch/new" >"$scratch/differences.txt"; then
  echo "compare_builds: $runs runs over ${#inputs[@]} inputs and $mutations glTF variants, identical"
else
  echo "compare_builds: $runs runs over ${#inputs[@]} inputs and $mutations glTF variants, differences in $scratch/differences.txt:"
  head -40 "$scratch/differences.txt"
  exit 1
fi
