#!/usr/bin/env node
// A .vrma's lookAt made from a BVH's eye rotations, as the real consumer plays it: OUT.vrma is
// loaded with @pixiv/three-vrm-animation 3.5.5 and played on M.vrm (createVRMAnimationClip,
// AnimationMixer, the VRMLookAtQuaternionProxy), and M's vrm.lookAt.yaw and .pitch must equal the
// gaze the BVH's eyes give as three.js's BVHLoader reads them: each eye's rotation relative to the
// head as Euler YXZ angles (VRMLookAt.EULER_ORDER), the mean of both eyes' yaw and pitch
// (docs/formats/vrma.md, "lookAt from eye rotations"), within 2e-3 degrees at every frame of the
// BVH and halfway between.
//
//   node check_vrma_lookat.mjs --bvh IN.bvh --model M.vrm OUT.vrma
//
// Prints one line per failure and "N passed, N failed"; exit 1 on failure, 2 on usage errors.

import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Report, parseArgs, usage, withConsoleAsFailures } from './lib/common.mjs';
import { importVrmModules } from './lib/vrm_modules.mjs';
import { addLookAtProxy, loadGltfFile } from './lib/vrm.mjs';

const {
  THREE, GLTFLoader, BVHLoader, VRMLoaderPlugin, VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy,
  createVRMAnimationClip,
} = await importVrmModules();

const TOLERANCE_DEGREES = 2e-3;
const RAD2DEG = 180 / Math.PI;

const args = parseArgs(process.argv.slice(2), { options: ['bvh', 'model', 'max-failure-lines'] });
if (args.bvh === undefined || args.model === undefined) usage('--bvh IN.bvh and --model M.vrm are required');
if (args.positional.length !== 1) usage('give one OUT.vrma');
for (const file of [args.bvh, args.model, args.positional[0]]) {
  if (!existsSync(file)) usage(`${file} not found`);
}
const report = new Report(args['max-failure-lines'] === undefined ? 20 : Number(args['max-failure-lines']));
report.setContext(`${basename(args.positional[0])} on ${basename(args.model)} vs ${basename(args.bvh)}`);

// The BVH's gaze: its eye tracks as BVHLoader reads them (BVH joints have no rest rotation, so a
// track's value is the eye's rotation relative to the head).
const bvh = new BVHLoader().parse(readFileSync(args.bvh, 'utf8'));
const eyes = ['leftEye', 'rightEye'].map((name) => bvh.clip.tracks.find((t) => t.name === `${name}.quaternion`));
if (!report.check(eyes.every((t) => t), 'the BVH has no leftEye and rightEye quaternion tracks')) {
  report.finish();
  process.exit();
}
const interpolants = eyes.map((track) => track.createInterpolant());
function expectedGaze(t) {
  let yaw = 0;
  let pitch = 0;
  for (const interpolant of interpolants) {
    const q = new THREE.Quaternion().fromArray(interpolant.evaluate(t));
    const euler = new THREE.Euler().setFromQuaternion(q, 'YXZ');
    yaw += euler.y * RAD2DEG / interpolants.length;
    pitch += euler.x * RAD2DEG / interpolants.length;
  }
  return { yaw, pitch };
}

const { gltf: animationGltf, messages } = await loadGltfFile(
  THREE, GLTFLoader, args.positional[0], [(parser) => new VRMAnimationLoaderPlugin(parser)]);
report.check(messages.length === 0, () => `loading the .vrma printed: ${messages.join(' | ')}`);
const animation = (animationGltf.userData.vrmAnimations ?? [])[0];
const { gltf: modelGltf } = await loadGltfFile(THREE, GLTFLoader, args.model, [(parser) => new VRMLoaderPlugin(parser)]);
const vrm = modelGltf.userData.vrm;
let worst = 0;
let compared = 0;
if (report.check(animation && animation.lookAtTrack, 'the .vrma has no lookAt track') &&
    report.check(vrm && vrm.lookAt, () => `${basename(args.model)} has no lookAt`)) {
  addLookAtProxy(vrm, VRMLookAtQuaternionProxy);
  const mixer = new THREE.AnimationMixer(vrm.scene);
  withConsoleAsFailures(report, 'createVRMAnimationClip and binding', () => {
    // Played once and held at its end: a repeating action is back at its start at t = duration.
    const action = mixer.clipAction(createVRMAnimationClip(animation, vrm));
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
  });
  const times = eyes[0].times;
  for (let i = 0; i < times.length; ++i) {
    for (const t of i + 1 < times.length ? [times[i], (times[i] + times[i + 1]) / 2] : [times[i]]) {
      mixer.setTime(t);
      const want = expectedGaze(t);
      const off = Math.max(Math.abs(vrm.lookAt.yaw - want.yaw), Math.abs(vrm.lookAt.pitch - want.pitch));
      worst = Math.max(worst, off);
      ++compared;
      report.check(off <= TOLERANCE_DEGREES, () => `t=${t}: yaw ${vrm.lookAt.yaw} pitch ${vrm.lookAt.pitch}, ` +
                                                   `expected ${want.yaw} ${want.pitch}`);
    }
  }
  // A gaze that never leaves the front checks nothing.
  const moving = times.some((t) => Math.abs(expectedGaze(t).yaw) > 5);
  report.check(moving, 'the BVH\'s eyes do not move: not a test');
}
console.log(`${basename(args.positional[0])}: lookAt at ${compared} time(s), largest difference ${worst.toExponential(2)} deg`);
report.finish();
