#!/usr/bin/env node
// A .vrma written from a .vrma keeps its expressions and lookAt, as the real consumer reads them:
// both files are loaded with @pixiv/three-vrm-animation 3.5.5 (VRMAnimationLoaderPlugin, three
// r187), and OUT's VRMAnimation must hold the same preset and custom expression tracks and the same
// lookAt track as IN's, each evaluated by its own three.js interpolant at every key time of both
// tracks and halfway between, within 1e-6 (weights; quaternion distance, sign-free, for lookAt).
// With --model M.vrm, OUT is also played on M (createVRMAnimationClip + AnimationMixer) and each
// of M's expressions that OUT animates must read, through expressionManager.getValue, IN's weight
// at those times (docs/formats/vrma.md).
//
//   node check_vrma_expressions.mjs --source IN.vrma [--model M.vrm] OUT.vrma
//
// Prints one line per failure and "N passed, N failed"; exit 1 on failure, 2 on usage errors.

import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import {
  Report, parseArgs, requireModules, signFreeDistance, usage, withConsoleAsFailures,
} from './lib/common.mjs';
import { addLookAtProxy, loadGltfFile } from './lib/vrm.mjs';

requireModules(['three', '@pixiv/three-vrm', '@pixiv/three-vrm-animation']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { VRMLoaderPlugin } = await import('@pixiv/three-vrm');
const { VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy, createVRMAnimationClip } =
  await import('@pixiv/three-vrm-animation');

const TOLERANCE = 1e-6;

const args = parseArgs(process.argv.slice(2), { options: ['source', 'model', 'max-failure-lines'] });
if (args.source === undefined) usage('--source IN.vrma is required');
if (args.positional.length !== 1) usage('give one OUT.vrma');
for (const file of [args.source, args.positional[0], ...(args.model ? [args.model] : [])]) {
  if (!existsSync(file)) usage(`${file} not found`);
}
const report = new Report(args['max-failure-lines'] === undefined ? 20 : Number(args['max-failure-lines']));
report.setContext(`${basename(args.positional[0])} vs ${basename(args.source)}`);

async function loadAnimation(file) {
  const { gltf, messages } = await loadGltfFile(THREE, GLTFLoader, file,
                                                [(parser) => new VRMAnimationLoaderPlugin(parser)]);
  report.check(messages.length === 0, () => `loading ${basename(file)} printed: ${messages.join(' | ')}`);
  const animations = gltf.userData.vrmAnimations ?? [];
  if (!report.check(animations.length === 1, () => `${basename(file)}: ${animations.length} VRMAnimations`)) return null;
  return animations[0];
}

// Key times of both tracks and the midpoints between them.
function sampleTimes(a, b) {
  const keys = [...new Set([...a.times, ...b.times])].sort((x, y) => x - y);
  const times = [];
  keys.forEach((t, i) => {
    times.push(t);
    if (i + 1 < keys.length) times.push((t + keys[i + 1]) / 2);
  });
  return times;
}

const source = await loadAnimation(args.source);
const output = await loadAnimation(args.positional[0]);
let compared = 0;
let worst = 0;
if (source && output) {
  for (const group of ['preset', 'custom']) {
    const want = source.expressionTracks[group];
    const got = output.expressionTracks[group];
    report.check(got.size === want.size, () => `${group}: ${got.size} expression tracks, expected ${want.size} ` +
                                               `(${[...want.keys()].join(', ')})`);
    for (const [name, track] of want) {
      const mine = got.get(name);
      if (!report.check(mine !== undefined, () => `${group} expression '${name}' is missing`)) continue;
      const a = track.createInterpolant();
      const b = mine.createInterpolant();
      for (const t of sampleTimes(track, mine)) {
        const difference = Math.abs(a.evaluate(t)[0] - b.evaluate(t)[0]);
        worst = Math.max(worst, difference);
        report.check(difference <= TOLERANCE, () => `${name} at t=${t}: ${b.evaluate(t)[0]}, expected ${a.evaluate(t)[0]}`);
      }
      ++compared;
    }
  }
  const wantLook = source.lookAtTrack;
  const gotLook = output.lookAtTrack;
  report.check((wantLook === null) === (gotLook === null), () => `lookAt track ${gotLook ? 'present' : 'missing'}`);
  if (wantLook && gotLook) {
    const a = wantLook.createInterpolant();
    const b = gotLook.createInterpolant();
    for (const t of sampleTimes(wantLook, gotLook)) {
      const distance = signFreeDistance(Array.from(a.evaluate(t)), Array.from(b.evaluate(t)));
      worst = Math.max(worst, distance);
      report.check(distance <= TOLERANCE, () => `lookAt at t=${t}: off by ${distance}`);
    }
    ++compared;
  }
  // A source without expressions or lookAt checks nothing.
  report.check(compared > 0, `${basename(args.source)} has no expression or lookAt track: not a test`);

  if (args.model) {
    const { gltf } = await loadGltfFile(THREE, GLTFLoader, args.model, [(parser) => new VRMLoaderPlugin(parser)]);
    const vrm = gltf.userData.vrm;
    const manager = vrm && vrm.expressionManager;
    if (report.check(manager, () => `${basename(args.model)} has no expressionManager`)) {
      addLookAtProxy(vrm, VRMLookAtQuaternionProxy);
      const mixer = new THREE.AnimationMixer(vrm.scene);
      withConsoleAsFailures(report, 'createVRMAnimationClip and binding', () => {
        mixer.clipAction(createVRMAnimationClip(output, vrm)).play();
      });
      let played = 0;
      for (const [name, track] of [...source.expressionTracks.preset, ...source.expressionTracks.custom]) {
        if (!manager.getExpression(name)) continue;
        const want = track.createInterpolant();
        for (const t of track.times) {
          mixer.setTime(t);
          const value = manager.getValue(name);
          worst = Math.max(worst, Math.abs(value - want.evaluate(t)[0]));
          report.check(Math.abs(value - want.evaluate(t)[0]) <= TOLERANCE,
                       () => `${basename(args.model)}: ${name} at t=${t} reads ${value}, expected ${want.evaluate(t)[0]}`);
        }
        ++played;
      }
      report.check(played > 0, `${basename(args.model)} has none of the expressions: not a test`);
    }
  }
  console.log(`${basename(args.positional[0])}: ${compared} expression/lookAt track(s) compared, largest difference ` +
              `${worst.toExponential(2)}`);
}
report.finish();
