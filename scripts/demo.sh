#!/usr/bin/env bash
# README command 1: set up, build, and run the main job on the bundled samples. Writes out/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
animconv=build/cli/animconv
mkdir -p out

echo "== info: the longer generated walk (data/unity/README.md)"
$animconv info data/unity/walk.csv
echo
echo "== Unity CSV -> three.js AnimationClip JSON (AnimationClip.parse, r187)"
$animconv convert data/unity/walk.csv -o out/walk.json
$animconv convert data/unity/anim.csv -o out/anim.json
echo "== Unity CSV -> legacy hierarchy JSON (parseAnimation, three.js <= r184), seconds and ms"
$animconv convert data/unity/walk.csv -o out/walk.hierarchy.json
$animconv convert data/unity/anim.csv -o out/anim.hierarchy.json --time-unit ms \
  --bones data/unity/bone.txt
echo "== Unity CSV -> GLB with a generated T-pose skeleton (plays in any glTF viewer)"
$animconv convert data/unity/walk.csv -o out/walk.glb
echo "== Unity CSV -> VRM Animation (.vrma) any VRM model plays (@pixiv/three-vrm-animation)"
$animconv convert data/unity/walk.csv -o out/walk.vrma
$animconv info out/walk.vrma | head -4
echo "== humanoid bone names: Unity -> VRM 1.0 (the thumb shift) and Mixamo"
$animconv bones --from unity --to vrm1 LeftThumbProximal LeftThumbIntermediate
$animconv bones --from unity --to mixamo Hips Chest UpperChest
echo "== glTF morph clip -> three.js JSON, and baked per-frame geometry for p5.js"
$animconv info data/gltf/morph_cube.gltf
$animconv convert data/gltf/morph_cube.gltf -o out/morph_cube.json
$animconv bake data/gltf/morph_cube.gltf -o out/morph_cube.frames.json
echo "== Motion capture: BVH (CMU names) and FBX (Mixamo) -> VRM Animation and GLB, via Assimp"
$animconv info data/bvh/cmu_walk.bvh | head -8
$animconv convert data/bvh/cmu_walk.bvh -o out/cmu_walk.vrma
$animconv convert data/fbx/mixamo_wave.fbx -o out/mixamo_wave.glb
echo "== Unity CSV -> animconv CSV (right-handed, one column per component)"
$animconv convert data/unity/walk.csv -o out/walk.csv
$animconv info out/walk.csv | head -4
echo "== One HTML page that plays the conversion from file:// (three.js, no server): open it"
if [ -f build/cli/animconv_viewer.html ]; then
  $animconv preview data/unity/walk.csv -o out/walk.preview.html
else
  echo "(no preview viewer in this build: npm ci --prefix web/app, then scripts/setup.sh)"
fi
echo
ls -l out
