#!/usr/bin/env node
// Expressions written to a .vrma from morph-weight clips (`convert IN.glb -o OUT.vrma`,
// docs/formats/vrma.md "Expressions from morph weights") as the real consumer reads them: OUT is
// played on the VRM model M with @pixiv/three-vrm-animation 3.5.5 (createVRMAnimationClip and an
// AnimationMixer), and expressionManager.getValue(name) must equal the weight the source morph
// targets give it, IN being played by GLTFLoader + AnimationMixer, within 1e-6, at every key time
// of OUT's expression tracks and halfway between (but inside the 1 ms ramp a STEP source becomes):
//   --rules arkit  the mean of the ARKit blendshapes the table maps to the expression (eyeBlink_L
//                  spelt so too);
//   --rules map    --map FILE's `morph target,expression` lines (--expression-map): the mean of
//                  the targets so named;
//   --rules binds  IN is a VRM model with the clip: each of its expressions with one morph bind on
//                  a target no other expression binds reads that influence / the bind weight.
//
//   node check_vrm_expression_written.mjs --source IN.glb --rules arkit|map|binds [--map FILE]
//        --model M.vrm [--clip N] OUT.vrma
//
// Prints one line per failure and "N passed, N failed"; exit 1 on failure, 2 on usage errors.

import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Report, parseArgs, requireModules, usage, withConsoleAsFailures } from './lib/common.mjs';
import { splitContainer } from './lib/glb.mjs';
import { loadWithThree } from './lib/gltf_load.mjs';
import { addLookAtProxy, loadGltfFile } from './lib/vrm.mjs';

requireModules(['three', '@pixiv/three-vrm', '@pixiv/three-vrm-animation']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { VRMLoaderPlugin } = await import('@pixiv/three-vrm');
const { VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy, createVRMAnimationClip } =
  await import('@pixiv/three-vrm-animation');

const TOLERANCE = 1e-6;
// Key intervals this short are the hold ramps of a STEP source (include/animconv/timing.h,
// kStepHoldSeconds = 1 ms, float32 times), where the output blends by design (the warning says).
const HOLD_RAMP = 1.5e-3;
// docs/formats/vrma.md, "ARKit blendshapes" (pipeline/expressions_from_morphs.cpp).
const ARKIT = {
  eyeBlinkLeft: 'blinkLeft', eyeBlinkRight: 'blinkRight', jawOpen: 'aa', mouthFunnel: 'oh',
  mouthPucker: 'ou', mouthStretchLeft: 'ee', mouthStretchRight: 'ee', mouthSmileLeft: 'happy',
  mouthSmileRight: 'happy', mouthFrownLeft: 'sad', mouthFrownRight: 'sad', browDownLeft: 'angry',
  browDownRight: 'angry', browInnerUp: 'surprised',
};
const spellings = (name) => [name, name.replace(/Left$/, '_L').replace(/Right$/, '_R')];

const args = parseArgs(process.argv.slice(2), { options: ['source', 'rules', 'map', 'model', 'clip', 'max-failure-lines'] });
for (const required of ['source', 'rules', 'model']) if (args[required] === undefined) usage(`--${required} is required`);
if (!['arkit', 'map', 'binds'].includes(args.rules)) usage('--rules is arkit, map or binds');
if (args.rules === 'map' && args.map === undefined) usage('--rules map needs --map FILE');
if (args.positional.length !== 1) usage('give one OUT.vrma');
const outFile = args.positional[0];
for (const file of [args.source, args.model, outFile]) if (!existsSync(file)) usage(`${file} not found`);
const report = new Report(args['max-failure-lines'] === undefined ? 20 : Number(args['max-failure-lines']));
report.setContext(`${basename(outFile)} vs ${basename(args.source)} on ${basename(args.model)}`);

// The source: expression name -> [{ mesh, index, scale }], averaged.
// A face capture may hold KTX2 textures and meshopt data: loaded as the other checks load inputs.
const source = args.rules === 'binds'
  ? (await loadGltfFile(THREE, GLTFLoader, args.source, [(parser) => new VRMLoaderPlugin(parser)])).gltf
  : (await loadWithThree(args.source, splitContainer(new Uint8Array(readFileSync(args.source))))).gltf;
const sources = new Map();
if (args.rules === 'map') {
  const meshes = [];
  source.scene.traverse((object) => { if (object.morphTargetDictionary) meshes.push(object); });
  for (const line of readFileSync(args.map, 'utf8').split('\n')) {
    const [from, to] = line.split(',').map((field) => field?.trim());
    if (!from || !to || from.startsWith('#')) continue;
    for (const mesh of meshes) {
      if (mesh.morphTargetDictionary[from] === undefined) continue;
      if (!sources.has(to)) sources.set(to, []);
      sources.get(to).push({ mesh, index: mesh.morphTargetDictionary[from], scale: 1 });
      break;
    }
  }
} else if (args.rules === 'arkit') {
  const meshes = [];
  source.scene.traverse((object) => { if (object.morphTargetDictionary) meshes.push(object); });
  for (const [arkit, expression] of Object.entries(ARKIT)) {
    for (const mesh of meshes) {
      const name = spellings(arkit).find((n) => mesh.morphTargetDictionary[n] !== undefined);
      if (name === undefined) continue;
      if (!sources.has(expression)) sources.set(expression, []);
      sources.get(expression).push({ mesh, index: mesh.morphTargetDictionary[name], scale: 1 });
      break;
    }
  }
} else {
  const manager = source.userData.vrm.expressionManager;
  const binders = new Map();
  const key = (bind) => `${bind.primitives.map((p) => p.uuid).join()}#${bind.index}`;
  for (const expression of manager.expressions) {
    for (const bind of expression.binds) if (bind.primitives) binders.set(key(bind), (binders.get(key(bind)) ?? 0) + 1);
  }
  for (const expression of manager.expressions) {
    const binds = expression.binds.filter((bind) => bind.primitives);
    if (binds.length !== 1 || binders.get(key(binds[0])) !== 1 || binds[0].weight === 0) continue;
    sources.set(expression.expressionName,
                [{ mesh: binds[0].primitives[0], index: binds[0].index, scale: 1 / binds[0].weight }]);
  }
}
report.check(sources.size > 0, `${basename(args.source)} has no morph target for an expression: not a test`);
const clipIndex = args.clip === undefined ? 0 : Number(args.clip);
const sourceMixer = new THREE.AnimationMixer(source.scene);
sourceMixer.clipAction(source.animations[clipIndex]).play();

// Ours, on the model.
const { gltf: modelGltf } = await loadGltfFile(THREE, GLTFLoader, args.model, [(parser) => new VRMLoaderPlugin(parser)]);
const vrm = modelGltf.userData.vrm;
const { gltf: animationGltf, messages } = await loadGltfFile(THREE, GLTFLoader, outFile,
                                                             [(parser) => new VRMAnimationLoaderPlugin(parser)]);
report.check(messages.length === 0, () => `loading ${basename(outFile)} printed: ${messages.join(' | ')}`);
const vrmAnimation = animationGltf.userData.vrmAnimations[0];
addLookAtProxy(vrm, VRMLookAtQuaternionProxy);
const mixer = new THREE.AnimationMixer(vrm.scene);
withConsoleAsFailures(report, 'createVRMAnimationClip and binding', () => {
  mixer.clipAction(createVRMAnimationClip(vrmAnimation, vrm)).play();
});

let worst = 0;
let compared = 0;
for (const [name, feeds] of sources) {
  const track = vrmAnimation.expressionTracks.preset.get(name) ?? vrmAnimation.expressionTracks.custom.get(name);
  if (!report.check(track, () => `${basename(outFile)} has no expression track '${name}'`)) continue;
  if (!vrm.expressionManager.getExpression(name)) continue;  // three-vrm skips it too
  const times = [];
  track.times.forEach((t, k) => {
    times.push(t);
    // Not inside the 1 ms ramp a STEP source becomes (animconv's hold key before each change:
    // three-vrm-animation plays a .vrma's expression tracks linearly whatever the sampler says).
    if (k + 1 < track.times.length && track.times[k + 1] - t > HOLD_RAMP) {
      times.push((t + track.times[k + 1]) / 2);
    }
  });
  for (const t of times) {
    sourceMixer.setTime(t);
    mixer.setTime(t);
    const want = feeds.reduce((sum, feed) => sum + feed.scale * feed.mesh.morphTargetInfluences[feed.index], 0) / feeds.length;
    const got = vrm.expressionManager.getValue(name);
    worst = Math.max(worst, Math.abs(got - want));
    report.check(Math.abs(got - want) <= TOLERANCE, () => `${name} at t=${t}: ${got}, the source gives ${want}`);
  }
  ++compared;
}
report.check(compared > 0, `no expression of ${basename(args.model)} compared: not a test`);
console.log(`${compared} expression(s) compared: largest difference ${worst.toExponential(2)}`);
report.finish();
