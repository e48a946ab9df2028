#!/usr/bin/env node
// A .vrma's lookAt played onto a VRM model by animconv (`--skeleton M.vrm`, OUT.glb or OUT.json)
// against three-vrm playing the .vrma itself: @pixiv/three-vrm-animation 3.5.5 on M
// (createVRMAnimationClip, AnimationMixer, the VRMLookAtQuaternionProxy, then
// humanoid.update() and lookAt.update() as vrm.update() runs them) turns M's raw eye bones; OUT,
// played by plain three.js (GLTFLoader, or AnimationClip.parse on M's scene), must turn the same
// nodes the same way (sign-free quaternion distance within 1e-5) at every key of the lookAt track
// and halfway between (docs/formats/vrma.md, "lookAt on a model").
//
//   node check_vrm_lookat_on_model.mjs --model M.vrm --vrma IN.vrma OUT.glb|OUT.json
//
// Prints one line per failure and "N passed, N failed"; exit 1 on failure, 2 on usage errors.

import { basename } from 'node:path';
import {
  Report, signFreeDistance, withConsoleAsFailures,
} from './lib/common.mjs';
import { importVrmModules } from './lib/vrm_modules.mjs';
import { addLookAtProxy, loadGltfFile, loadOutputOnModel, parseModelOutputArgs } from './lib/vrm.mjs';

const {
  THREE, GLTFLoader, VRMLoaderPlugin, VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy,
  createVRMAnimationClip,
} = await importVrmModules();

const TOLERANCE = 1e-5;

const { args, outFile } = parseModelOutputArgs(process.argv.slice(2));
const report = new Report(args['max-failure-lines'] === undefined ? 20 : Number(args['max-failure-lines']));
report.setContext(`${basename(outFile)} vs ${basename(args.vrma)} on ${basename(args.model)}`);

function playOnce(mixer, clip) {
  // Held at its end: a repeating action is back at its start at t = duration.
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
}

// three-vrm's eyes.
const { gltf: vrmaGltf } = await loadGltfFile(THREE, GLTFLoader, args.vrma, [(parser) => new VRMAnimationLoaderPlugin(parser)]);
const animation = (vrmaGltf.userData.vrmAnimations ?? [])[0];
const { gltf: modelGltf } = await loadGltfFile(THREE, GLTFLoader, args.model, [(parser) => new VRMLoaderPlugin(parser)]);
const vrm = modelGltf.userData.vrm;
if (!report.check(animation && animation.lookAtTrack, `${basename(args.vrma)} has no lookAt track`) ||
    !report.check(vrm && vrm.lookAt, `${basename(args.model)} has no lookAt`)) {
  report.finish();
  process.exit();
}
const eyeNames = ['leftEye', 'rightEye'].map((bone) => vrm.humanoid.getRawBoneNode(bone)?.name).filter((n) => n);
report.check(eyeNames.length > 0, `${basename(args.model)} has no eye bones: not a test`);
addLookAtProxy(vrm, VRMLookAtQuaternionProxy);
const vrmMixer = new THREE.AnimationMixer(vrm.scene);
withConsoleAsFailures(report, 'createVRMAnimationClip and binding', () => {
  playOnce(vrmMixer, createVRMAnimationClip(animation, vrm));
});
const keys = animation.lookAtTrack.times;
const times = [];
keys.forEach((t, i) => {
  times.push(t);
  if (i + 1 < keys.length) times.push((t + keys[i + 1]) / 2);
});
function eyesAt(scene, mixer, after) {
  const nodes = eyeNames.map((name) => scene.getObjectByName(name));
  return times.map((t) => {
    mixer.setTime(t);
    after();
    return nodes.map((node) => (node ? node.quaternion.toArray() : null));
  });
}
const want = eyesAt(vrm.scene, vrmMixer, () => {
  vrm.humanoid.update();
  vrm.lookAt.update(0);
});

// Ours, in plain three.js.
const { scene, clip } = await loadOutputOnModel(THREE, GLTFLoader, outFile, args.model, report);
let worst = 0;
let largestTurn = 0;
if (report.check(clip, `${basename(outFile)} holds no clip`)) {
  const mixer = new THREE.AnimationMixer(scene);
  withConsoleAsFailures(report, 'binding our clip', () => playOnce(mixer, clip));
  const got = eyesAt(scene, mixer, () => {});
  times.forEach((t, i) => {
    eyeNames.forEach((name, e) => {
      if (!report.check(want[i][e] && got[i][e], () => `${name} not found in ${basename(outFile)}`)) return;
      const distance = signFreeDistance(want[i][e], got[i][e]);
      worst = Math.max(worst, distance);
      largestTurn = Math.max(largestTurn, signFreeDistance(want[i][e], want[0][e]));
      report.check(distance <= TOLERANCE, () => `${name} at t=${t}: off by ${distance} from three-vrm's`);
    });
  });
}
// Eyes three-vrm never turns check nothing.
report.check(largestTurn > 0.01, 'three-vrm turns the eyes by nothing: not a test');
console.log(`${basename(outFile)}: ${eyeNames.join(', ')} at ${times.length} time(s), largest difference ` +
            `${worst.toExponential(2)} (three-vrm turns them by up to ${largestTurn.toFixed(3)})`);
report.finish();
