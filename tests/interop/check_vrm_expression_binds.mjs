#!/usr/bin/env node
// A .vrma's expressions converted onto a VRM model (`convert IN.vrma --skeleton M.vrm -o OUT`)
// must move the model's meshes as the real consumer does: M is loaded with @pixiv/three-vrm 3.5.5
// (VRMLoaderPlugin) and IN with @pixiv/three-vrm-animation (VRMAnimationLoaderPlugin), the clip of
// createVRMAnimationClip is played by an AnimationMixer, VRMLookAt.update() sets the look
// expressions of an expression lookAt and VRMExpressionManager.update() applies the binds
// (isBinary, overrides); that gives every bound mesh's morphTargetInfluences. OUT, a GLB
// (the model with the clip, read with plain GLTFLoader) or three.js JSON (AnimationClip.parse,
// played on M read with plain GLTFLoader), must give the same influences within 1e-6 at every key
// time of IN's expression tracks, halfway between them, and on a 1/240 s grid.
//
//   node check_vrm_expression_binds.mjs --model M.vrm --vrma IN.vrma OUT.glb|OUT.json
//
// Prints one line per failure and "N passed, N failed"; exit 1 on failure, 2 on usage errors.

import { basename } from 'node:path';
import { Report, requireModules, withConsoleAsFailures } from './lib/common.mjs';
import { pathOf, objectAt } from './lib/playback.mjs';
import { addLookAtProxy, loadGltfFile, loadOutputOnModel, parseModelOutputArgs } from './lib/vrm.mjs';

requireModules(['three', '@pixiv/three-vrm', '@pixiv/three-vrm-animation']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { VRMLoaderPlugin } = await import('@pixiv/three-vrm');
const { VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy, createVRMAnimationClip } =
  await import('@pixiv/three-vrm-animation');

const TOLERANCE = 1e-6;

const { args, outFile } = parseModelOutputArgs(process.argv.slice(2));
const report = new Report(args['max-failure-lines'] === undefined ? 20 : Number(args['max-failure-lines']));
report.setContext(`${basename(outFile)} vs ${basename(args.vrma)} on ${basename(args.model)}`);

// three-vrm's side: the meshes its binds drive and their influences at `times`.
const { gltf: vrmGltf } = await loadGltfFile(THREE, GLTFLoader, args.model, [(parser) => new VRMLoaderPlugin(parser)]);
const vrm = vrmGltf.userData.vrm;
const { gltf: animationGltf } = await loadGltfFile(THREE, GLTFLoader, args.vrma,
                                                   [(parser) => new VRMAnimationLoaderPlugin(parser)]);
const vrmAnimation = animationGltf.userData.vrmAnimations[0];
const manager = vrm.expressionManager;
const bound = new Set();
for (const expression of manager.expressions) {
  for (const bind of expression.binds) for (const mesh of bind.primitives ?? []) bound.add(mesh);
}
const meshPaths = [...bound].map((mesh) => pathOf(mesh, vrmGltf.scene));
report.check(meshPaths.length > 0, `${basename(args.model)} binds no morph target: not a test`);

const keys = new Set();
for (const group of ['preset', 'custom']) {
  for (const [name, track] of vrmAnimation.expressionTracks[group]) {
    if (!manager.getExpression(name)) continue;
    for (let k = 0; k < track.times.length; ++k) {
      keys.add(track.times[k]);
      if (k + 1 < track.times.length) keys.add((track.times[k] + track.times[k + 1]) / 2);
    }
  }
}
const end = Math.max(0, ...keys);
for (let i = 0; i <= Math.round(end * 240); ++i) keys.add(i / 240);
const times = [...keys].sort((a, b) => a - b);

function influences(scene, mixer, after, at) {
  const meshes = meshPaths.map((path) => objectAt(scene, path));
  return at.map((t) => {
    mixer.setTime(t);
    after();
    return meshes.map((mesh) => (mesh && mesh.morphTargetInfluences ? Array.from(mesh.morphTargetInfluences) : null));
  });
}

addLookAtProxy(vrm, VRMLookAtQuaternionProxy);
// As vrm.update() runs them: the lookAt (an expression lookAt sets the look expressions from the
// lookAt track the proxy received), then the expression manager.
const applyExpressions = () => {
  if (vrm.lookAt) vrm.lookAt.update(0);
  manager.update();
};
const vrmMixer = new THREE.AnimationMixer(vrm.scene);
withConsoleAsFailures(report, 'createVRMAnimationClip and binding', () => {
  vrmMixer.clipAction(createVRMAnimationClip(vrmAnimation, vrm)).play();
});
const want = influences(vrm.scene, vrmMixer, applyExpressions, times);
// Where isBinary or a block override switches, three-vrm's influences jump; at a time within a
// float32 step of the jump the side it lands on is rounding (ours keeps the jump between two keys
// one float32 step apart), so such times are not compared.
const JUMP_WINDOW = 4e-6;
const before = influences(vrm.scene, vrmMixer, applyExpressions, times.map((t) => t - JUMP_WINDOW));
const after = influences(vrm.scene, vrmMixer, applyExpressions, times.map((t) => t + JUMP_WINDOW));
const atJump = times.map((t, i) => before[i].some((values, m) => values && values.some(
  (value, k) => Math.abs(value - after[i][m][k]) > 1e-3)));

// Ours.
const { scene, clip } = await loadOutputOnModel(THREE, GLTFLoader, outFile, args.model, report);
let got = null;
if (report.check(clip, `${basename(outFile)} holds no clip`)) {
  const mixer = new THREE.AnimationMixer(scene);
  withConsoleAsFailures(report, 'binding our clip', () => mixer.clipAction(clip).play());
  got = influences(scene, mixer, () => {}, times);
}

let worst = 0;
let largest = 0;
if (got) {
  times.forEach((t, i) => {
    if (atJump[i]) return;
    meshPaths.forEach((path, m) => {
      const a = want[i][m];
      const b = got[i][m];
      if (!report.check(a && b && a.length === b.length, () => `mesh ${path}: no matching morph targets in ${basename(outFile)}`)) return;
      a.forEach((value, k) => {
        const difference = Math.abs(value - b[k]);
        worst = Math.max(worst, difference);
        largest = Math.max(largest, Math.abs(value));
        report.check(difference <= TOLERANCE,
                     () => `${objectAt(scene, path)?.name ?? path} influence ${k} at t=${t}: ${b[k]}, three-vrm ${value}`);
      });
    });
  });
  // Influences that never leave 0 compare nothing.
  report.check(largest > 0.1, `three-vrm's influences stay below 0.1 (${largest}): not a test`);
}
console.log(`${meshPaths.length} bound mesh(es), ${times.length} times (${atJump.filter(Boolean).length} at a jump, not compared): largest difference ${worst.toExponential(2)}, largest influence ${largest}`);
report.finish();
