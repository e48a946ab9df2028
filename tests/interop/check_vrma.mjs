#!/usr/bin/env node
// Checks a VRM Animation (.vrma) that animconv wrote from a Unity CSV with the REAL consumer:
// @pixiv/three-vrm-animation 3.5.5 (VRMAnimationLoaderPlugin + createVRMAnimationClip) on VRM
// models loaded by @pixiv/three-vrm 3.5.5 (VRMLoaderPlugin), three r187.
//
//   node check_vrma.mjs --vrma OUT.vrma --model A.vrm [--model B.vrm ...] --csv UNITY.csv
//        [--bones bone.txt] --interval 0.2 [--max-failure-lines N]
//
// For each model the clip plays on an AnimationMixer on vrm.scene; at every row time and every
// midpoint between rows each NORMALIZED humanoid bone node's quaternion must equal the value
// computed from the CSV alone (up to sign, 1e-5):
//   - column i of the CSV is Unity HumanBodyBones i (or the --bones list), VRM 1.0 name with the
//     thumb shift (lib/vrm.mjs, Unity HumanBodyBones and the VRM 0.x / 1.0 humanoid specs);
//   - the Unity localRotation (x,y,z,w) is normalised and mirrored to the VRM 1.0 / VRMA
//     convention (x,−y,−z,w) (VRM 0.x faces -Z, VRM 1.0 +Z; the CSV's avatar is a normalized rig: docs/retargeting.md);
//   - on a VRM 0.x model three-vrm-animation negates x and z (180° about Y; §3.3), so the
//     expected value is (−x,−y,z,w);
//   - between rows the expectation is our own short-path slerp of the neighbouring rows;
//   - 0,0,0,0 = no data in that row; a bone without data in any row has no track and its
//     normalized node stays identity. Eyes cannot be in a VRMA (§3.1): no track, identity.
//   - bones the model does not have are skipped and counted.
// Exit status 1 when a check failed, 2 on a usage/setup error.

import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import {
  Report, takeRepeatedOption, expectedBones, formatQuat, parseArgs, poseAt, requireModules, sampleTimes,
  signFreeDistance, usage, withConsoleAsFailures,
} from './lib/common.mjs';
import { IDENTITY, NOT_IN_VRMA, VRM1_BONES, addLookAtProxy, readRecording, loadGltfFile } from './lib/vrm.mjs';

requireModules(['three', '@pixiv/three-vrm', '@pixiv/three-vrm-animation']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { VRMLoaderPlugin } = await import('@pixiv/three-vrm');
const { VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy, createVRMAnimationClip } =
  await import('@pixiv/three-vrm-animation');

const TOLERANCE = 1e-5;

const argv = process.argv.slice(2);
const models = takeRepeatedOption(argv, 'model');
const args = parseArgs(argv, { flags: [], options: ['vrma', 'csv', 'bones', 'interval', 'max-failure-lines'] });
for (const required of ['vrma', 'csv', 'interval']) {
  if (args[required] === undefined) usage(`--${required} is required`);
}
if (models.length === 0) usage('no --model given');
if (args.positional.length > 0) usage(`unexpected argument ${args.positional[0]}`);
const interval = Number(args.interval);
if (!(interval > 0)) usage(`--interval must be a positive number, not '${args.interval}'`);
for (const file of [args.vrma, args.csv, ...models, ...(args.bones ? [args.bones] : [])]) {
  if (!existsSync(file)) usage(`${file} not found`);
}

const report = new Report(args['max-failure-lines'] === undefined ? 200 : Number(args['max-failure-lines']));

// ---------------------------------------------------------------------------------------------
// Expectation from the CSV

const { columns, rows } = readRecording(args.bones, args.csv);
// keysByBone[mirror][vrm1 name] = keys (rows with data), for the two conventions.
function keysByBone(mirrorAxis) {
  const map = new Map();
  for (const { name, keys } of expectedBones(rows, columns, { interval, mirrorAxis })) {
    if (keys.length > 0 && !map.has(name)) map.set(name, keys);
  }
  return map;
}
const expected = { 1: keysByBone('x'), 0: keysByBone('z') };  // VRM 1.0 / VRMA; VRM 0.x
const bonesWithData = [...expected[1].keys()];
const animatedBones = bonesWithData.filter((name) => !NOT_IN_VRMA.has(name));
const duration = (rows.length - 1) * interval;
const samples = sampleTimes(rows.length, interval);

// ---------------------------------------------------------------------------------------------
// The .vrma

report.setContext(basename(args.vrma));
let vrmAnimation = null;
try {
  const { gltf, messages } = await loadGltfFile(THREE, GLTFLoader, args.vrma,
                                                 [(parser) => new VRMAnimationLoaderPlugin(parser)]);
  report.check(messages.length === 0,
               () => `loading printed ${messages.length} console message(s): ${messages.join(' | ')}`);
  const animations = gltf.userData.vrmAnimations ?? [];
  if (report.check(animations.length === 1,
                   `VRMAnimationLoaderPlugin gave ${animations.length} VRMAnimation(s), expected 1 ` +
                   '(is VRMC_vrm_animation in extensionsUsed, specVersion "1.0"?)')) {
    vrmAnimation = animations[0];
  }
} catch (error) {
  report.fail(`GLTFLoader + VRMAnimationLoaderPlugin failed: ${error && error.message ? error.message : error}`);
}

if (vrmAnimation !== null) {
  report.check(Math.abs(vrmAnimation.duration - duration) <= TOLERANCE,
               `duration ${vrmAnimation.duration}, expected (rows-1) x interval = ${duration}`);
  const rotationBones = [...vrmAnimation.humanoidTracks.rotation.keys()].sort();
  const want = animatedBones.slice().sort();
  report.check(JSON.stringify(rotationBones) === JSON.stringify(want),
               () => `humanoid rotation tracks for [${rotationBones.join(', ')}], expected one per CSV bone ` +
                     `with data except the eyes: [${want.join(', ')}]`);
  const translationBones = [...vrmAnimation.humanoidTracks.translation.keys()];
  report.check(translationBones.every((name) => name === 'hips'),
               `translation tracks on [${translationBones.join(', ')}]; only hips may have one`);
  const expressions = vrmAnimation.expressionTracks.preset.size + vrmAnimation.expressionTracks.custom.size;
  report.check(expressions === 0 && vrmAnimation.lookAtTrack == null,
               `${expressions} expression track(s)${vrmAnimation.lookAtTrack ? ' and a lookAt track' : ''}; ` +
               'a Unity CSV has neither');
  for (const model of models) await checkModel(model);
}

report.finish();

// ---------------------------------------------------------------------------------------------
// One model

async function checkModel(path) {
  report.setContext(`${basename(args.vrma)} on ${basename(path)}`);
  let vrm;
  try {
    const { gltf, messages } = await loadGltfFile(THREE, GLTFLoader, path,
                                                   [(parser) => new VRMLoaderPlugin(parser)]);
    // The model is third-party data: what three-vrm says about it is shown, not judged.
    for (const message of new Set(messages)) console.log(`note: loading ${basename(path)} printed ${message}`);
    vrm = gltf.userData.vrm;
  } catch (error) {
    report.fail(`GLTFLoader + VRMLoaderPlugin failed: ${error && error.message ? error.message : error}`);
    return;
  }
  if (!report.check(vrm != null && vrm.humanoid != null, 'VRMLoaderPlugin found no VRM humanoid')) return;
  const version = vrm.meta.metaVersion === '0' ? 0 : 1;
  const humanoid = vrm.humanoid;

  addLookAtProxy(vrm, VRMLookAtQuaternionProxy);

  // The clip and its binding: any console message of three-vrm-animation or three counts as a
  // failure (e.g. an unbound track).
  const mixer = new THREE.AnimationMixer(vrm.scene);
  let clip;
  let action;
  try {
    withConsoleAsFailures(report, 'createVRMAnimationClip and binding', () => {
      clip = createVRMAnimationClip(vrmAnimation, vrm);
      action = mixer.clipAction(clip);
      action.setLoop(THREE.LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
      mixer.setTime(0);
    });
  } catch (error) {
    report.fail(`createVRMAnimationClip or binding threw: ${error && error.message ? error.message : error}`);
    return;
  }

  const present = VRM1_BONES.filter((name) => humanoid.getNormalizedBoneNode(name) != null);
  const missing = bonesWithData.filter((name) => humanoid.getNormalizedBoneNode(name) == null);
  console.log(`${basename(path)}: VRM ${version === 0 ? '0.x' : '1.0'}, ${present.length} humanoid bones; ` +
              `${missing.length} CSV bone(s) with data not in the model, skipped` +
              `${missing.length ? `: ${missing.join(', ')}` : ''}`);

  // Tracks: one quaternion track per animated bone the model has, on its normalized node; at
  // most a hips position track besides.
  const wantTracks = animatedBones.filter((name) => present.includes(name))
    .map((name) => `${humanoid.getNormalizedBoneNode(name).name}.quaternion`).sort();
  const hipsPosition = `${humanoid.getNormalizedBoneNode('hips')?.name}.position`;
  const gotTracks = clip.tracks.map((track) => track.name).filter((name) => name !== hipsPosition).sort();
  report.check(JSON.stringify(gotTracks) === JSON.stringify(wantTracks),
               () => `clip tracks [${gotTracks.join(', ')}], expected [${wantTracks.join(', ')}]`);
  const hasHipsPosition = clip.tracks.some((track) => track.name === hipsPosition);

  let worst = 0;
  let hipsStart = null;
  for (const { t, kind } of samples) {
    action.reset();
    mixer.setTime(t);
    for (const name of present) {
      const node = humanoid.getNormalizedBoneNode(name);
      const keys = NOT_IN_VRMA.has(name) ? undefined : expected[version].get(name);
      const want = keys ? poseAt(keys, t) : IDENTITY;
      const got = [node.quaternion.x, node.quaternion.y, node.quaternion.z, node.quaternion.w];
      const distance = signFreeDistance(got, want);
      worst = Math.max(worst, distance);
      report.check(distance <= TOLERANCE,
                   () => `${name} (${node.name}) at t=${t} (${kind}): three-vrm ${formatQuat(got)}, ` +
                         `expected ${formatQuat(want)}${keys ? '' : ' (no track: identity)'}`);
    }
    if (hasHipsPosition) {
      // A Unity CSV has no translation: a hips position track may hold the hips still, not move them.
      const p = humanoid.getNormalizedBoneNode('hips').position.toArray();
      if (hipsStart === null) hipsStart = p;
      const moved = Math.max(...p.map((c, i) => Math.abs(c - hipsStart[i])));
      report.check(moved <= TOLERANCE,
                   () => `hips position at t=${t} (${kind}) is (${p.join(', ')}), moved ${moved} from t=0; ` +
                         'the CSV has no translation');
    }
  }
  console.log(`${basename(path)}: ${samples.length} sample times, largest difference ${worst.toExponential(2)}` +
              `${hasHipsPosition ? ', hips position track present (checked constant)' : ', no hips position track'}`);
}
