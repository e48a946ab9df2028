#!/usr/bin/env node
// A grounded .vrma as VRM apps play it (docs/root_motion.md, "A grounded .vrma on other
// models"): the .vrma on each --model through @pixiv/three-vrm-animation 3.5.5
// (createVRMAnimationClip + AnimationMixer, three r187, vrm.update each step), its raw foot and
// toe bones sampled at 240 Hz over the clip. The lowest point must lie within [--below, --above]
// metres of y = 0 on every model. three-vrm-animation scales the hips translation by the model's
// hips height, so a model whose legs are longer or shorter than that ratio says lands a little off
// the floor: the bound holds the measured figure (about 2 cm), and a clip that floats fails.
//
//   node check_vrma_ground.mjs --below 0.025 --above 0.001 --model A.vrm [--model B.vrm ...] OUT.vrma
//
// Prints one line per model, one per failure and "N passed, N failed"; exit 1 on failure.

import { basename } from 'node:path';
import {
  Report, parseArgs, requireModules, takeRepeatedOption, usage, withConsoleAsFailures,
} from './lib/common.mjs';
import { addLookAtProxy, loadGltfFile } from './lib/vrm.mjs';

requireModules(['three', '@pixiv/three-vrm', '@pixiv/three-vrm-animation']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { VRMLoaderPlugin } = await import('@pixiv/three-vrm');
const { VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy, createVRMAnimationClip } =
  await import('@pixiv/three-vrm-animation');

const FEET = ['leftFoot', 'rightFoot', 'leftToes', 'rightToes'];
const RATE_HZ = 240;

const argv = process.argv.slice(2);
const models = takeRepeatedOption(argv, 'model');
const args = parseArgs(argv, { options: ['below', 'above', 'max-failure-lines'] });
if (models.length === 0) usage('give at least one --model M.vrm');
if (args.positional.length !== 1) usage('give one OUT.vrma');
const below = Number(args.below ?? 0.001);
const above = Number(args.above ?? 0.001);
const report = new Report(args['max-failure-lines'] === undefined ? 20 : Number(args['max-failure-lines']));

const { gltf: animationGltf } = await loadGltfFile(THREE, GLTFLoader, args.positional[0],
                                                   [(parser) => new VRMAnimationLoaderPlugin(parser)]);
const animation = animationGltf.userData.vrmAnimations?.[0];
if (!report.check(animation, 'the file holds no VRM animation')) report.finish();

for (const model of animation ? models : []) {
  report.setContext(basename(model));
  const { gltf } = await loadGltfFile(THREE, GLTFLoader, model, [(parser) => new VRMLoaderPlugin(parser)]);
  const vrm = gltf.userData.vrm;
  if (!report.check(vrm, 'not a VRM')) continue;
  addLookAtProxy(vrm, VRMLookAtQuaternionProxy);
  const mixer = new THREE.AnimationMixer(vrm.scene);
  let duration = 0;
  withConsoleAsFailures(report, 'createVRMAnimationClip and binding', () => {
    const clip = createVRMAnimationClip(animation, vrm);
    duration = clip.duration;
    mixer.clipAction(clip).play();
  });
  const feet = FEET.map((name) => vrm.humanoid.getRawBoneNode(name)).filter(Boolean);
  if (!report.check(feet.length >= 2, 'the model has no foot bones')) continue;
  // three-vrm-animation scales the hips translation by the model's rest hips height: a model
  // whose hips sit on the floor at rest (vrmaddon_minimal_vrm0: hips at the origin, legs hanging
  // from y = 1) keeps its hips there whatever the clip says, so where its feet land depends on
  // the leg angles alone and no .vrma can put them on the floor. Printed, not held to the bound.
  vrm.scene.updateMatrixWorld(true);
  const restHipsHeight = vrm.humanoid.getNormalizedBoneNode('hips').getWorldPosition(new THREE.Vector3()).y;
  const groundable = restHipsHeight >= 1e-3;
  const position = new THREE.Vector3();
  let lowest = Infinity;
  let at = 0;
  const steps = Math.ceil(duration * RATE_HZ);
  for (let i = 0; i <= steps; ++i) {
    // Just short of the end: at the duration a repeating action wraps to its first frame.
    const seconds = Math.min(i / RATE_HZ, Math.max(duration - 1e-6, 0));
    mixer.setTime(seconds);
    vrm.update(0);
    vrm.scene.updateMatrixWorld(true);
    for (const bone of feet) {
      bone.getWorldPosition(position);
      if (position.y < lowest) [lowest, at] = [position.y, seconds];
    }
  }
  console.log(`${basename(model)}: lowest foot or toe point ${(lowest * 1000).toFixed(2)} mm at ${at.toFixed(3)} s` +
              (groundable ? '' : ` (not checked: rest hips height ${restHipsHeight} m, the hips cannot move)`));
  if (!groundable) continue;
  report.check(lowest >= -below && lowest <= above,
               () => `the lowest foot point is ${lowest} m at ${at} s, outside [-${below}, ${above}]`);
}
report.finish();
