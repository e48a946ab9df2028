#!/usr/bin/env node
// An output and its input, each played by its real consumer on one VRM model, must show the same
// motion: the model's raw humanoid bones (world rotations), the hips' world position and, with
// --morphs, every mesh's morphTargetInfluences, on a 1/480 s grid over the clip.
//   IN.vrma   played on M by @pixiv/three-vrm-animation 3.5.5 (createVRMAnimationClip, an
//             AnimationMixer, vrm.update);
//   IN.vrm    (a VRM model with its own clip 0) played by GLTFLoader + AnimationMixer on itself
//             (M must be IN);
//   OUT.vrma  played on M by three-vrm-animation; OUT.glb: its clip 0 on its own scene (the model
//             with the clip, `--skeleton M`), bones found by M's raw bone names.
// Tolerances: diff's (0.1 degree, 0.1 mm, 0.001 weight), or --expect-morph-error E: the largest
// influence difference must be E (within 1 % + 0.001), the error animconv's warning states.
//
//   node check_vrma_played.mjs --source IN --model M.vrm [--morphs] [--expect-morph-error E] OUT
//
// Prints one line per failure and "N passed, N failed"; exit 1 on failure, 2 on usage errors.

import { existsSync, readFileSync } from 'node:fs';
import { Report, parseArgs, requireModules, usage } from './lib/common.mjs';
import { isGlb } from './lib/glb.mjs';
import { VRM1_BONES, addLookAtProxy, loadGltfFile } from './lib/vrm.mjs';

requireModules(['three', '@pixiv/three-vrm', '@pixiv/three-vrm-animation']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { VRMLoaderPlugin } = await import('@pixiv/three-vrm');
const { VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy, createVRMAnimationClip } =
  await import('@pixiv/three-vrm-animation');

const args = parseArgs(process.argv.slice(2), {
  flags: ['morphs'], options: ['source', 'model', 'expect-morph-error', 'max-failure-lines'],
});
if (args.source === undefined || args.model === undefined) usage('--source and --model are required');
if (args.positional.length !== 1) usage('give one OUT.vrma or OUT.glb');
const outFile = args.positional[0];
for (const file of [args.source, args.model, outFile]) if (!existsSync(file)) usage(`${file} not found`);
const expectMorph = args['expect-morph-error'] === undefined ? undefined : Number(args['expect-morph-error']);
const report = new Report(args['max-failure-lines'] === undefined ? 40 : Number(args['max-failure-lines']));

const isVrma = (file) => file.toLowerCase().endsWith('.vrma');

async function loadVrm(file) {
  const { gltf } = await loadGltfFile(THREE, GLTFLoader, file, [(parser) => new VRMLoaderPlugin(parser)]);
  const vrm = gltf.userData.vrm;
  addLookAtProxy(vrm, VRMLookAtQuaternionProxy);
  return { vrm, gltf };
}

// A player: sample(t) poses a scene; `bones` maps a VRM 1.0 bone name to its raw node there.
function player(scene, clip, update) {
  const mixer = new THREE.AnimationMixer(scene);
  const action = mixer.clipAction(clip);
  action.play();
  return {
    duration: clip.duration,
    sample(t) {
      action.reset();
      action.play();
      mixer.setTime(t);
      update?.();
      scene.updateMatrixWorld(true);
    },
  };
}

async function vrmaPlayer(file) {
  const { vrm } = await loadVrm(args.model);
  const { gltf } = await loadGltfFile(THREE, GLTFLoader, file, [(parser) => new VRMAnimationLoaderPlugin(parser)]);
  const animation = (gltf.userData.vrmAnimations ?? [])[0];
  if (!animation) usage(`${file}: three-vrm-animation finds no VRMAnimation`);
  const play = player(vrm.scene, createVRMAnimationClip(animation, vrm), () => vrm.update(0));
  return { ...play, scene: vrm.scene, vrm };
}

async function rawPlayer(file) {
  const { vrm, gltf } = await loadVrm(file);
  return { ...player(vrm.scene, gltf.animations[0]), scene: vrm.scene, vrm };
}

async function glbPlayer(file, model) {
  const { gltf } = await loadGltfFile(THREE, GLTFLoader, file, []);
  return { ...player(gltf.scene, gltf.animations[0]), scene: gltf.scene };
}

const model = await loadVrm(args.model);
const rawNames = new Map();
for (const bone of VRM1_BONES) {
  const node = model.vrm.humanoid.getRawBoneNode(bone);
  if (node) rawNames.set(bone, node.name);
}

const source = isVrma(args.source) ? await vrmaPlayer(args.source) : await rawPlayer(args.source);
const output = isVrma(outFile) ? await vrmaPlayer(outFile)
  : isGlb(new Uint8Array(readFileSync(outFile))) ? await glbPlayer(outFile) : usage('OUT is a .vrma or a .glb');

function pose(scene) {
  const out = { bones: new Map(), hips: null, morphs: [] };
  for (const [bone, name] of rawNames) {
    const node = scene.getObjectByName(name);
    if (!node) continue;
    out.bones.set(bone, node.getWorldQuaternion(new THREE.Quaternion()));
    if (bone === 'hips') out.hips = node.getWorldPosition(new THREE.Vector3());
  }
  scene.traverse((object) => {
    if (object.morphTargetInfluences) out.morphs.push([object.name, Array.from(object.morphTargetInfluences)]);
  });
  return out;
}

const duration = Math.max(source.duration, output.duration);
const worst = { deg: [0], m: [0], weight: [0] };
for (let i = 0; i <= Math.round(duration * 480); ++i) {
  const t = Math.min(duration, i / 480);
  source.sample(t);
  const a = pose(source.scene);
  output.sample(t);
  const b = pose(output.scene);
  for (const [bone, q] of a.bones) {
    const other = b.bones.get(bone);
    if (!other) continue;
    const deg = (2 * Math.acos(Math.min(1, Math.abs(q.dot(other)))) * 180) / Math.PI;
    if (deg > worst.deg[0]) worst.deg = [deg, bone, t];
  }
  if (a.hips && b.hips) {
    const m = a.hips.distanceTo(b.hips);
    if (m > worst.m[0]) worst.m = [m, 'hips', t];
  }
  if (args.morphs) {
    for (let k = 0; k < Math.min(a.morphs.length, b.morphs.length); ++k) {
      a.morphs[k][1].forEach((value, index) => {
        const weight = Math.abs(value - (b.morphs[k][1][index] ?? 0));
        if (weight > worst.weight[0]) worst.weight = [weight, `${a.morphs[k][0]}[${index}]`, t];
      });
    }
  }
}
const line = (unit) => `${worst[unit][0].toPrecision(3)} ${unit}` + (worst[unit][1] ? ` (${worst[unit][1]} at ${worst[unit][2].toFixed(4)} s)` : '');
console.log(`largest differences: ${line('deg')}, ${line('m')}${args.morphs ? `, ${line('weight')}` : ''}`);
report.check(worst.deg[0] <= 0.1, () => `bones play up to ${line('deg')} apart (tolerance 0.1)`);
report.check(worst.m[0] <= 1e-4, () => `the hips play up to ${line('m')} apart (tolerance 0.0001)`);
if (args.morphs && expectMorph === undefined) {
  report.check(worst.weight[0] <= 1e-3, () => `morph influences play up to ${line('weight')} apart (tolerance 0.001)`);
}
if (expectMorph !== undefined) {
  report.check(Math.abs(worst.weight[0] - expectMorph) <= 0.01 * expectMorph + 1e-3,
               () => `morph influences play up to ${line('weight')} apart; the warning stated ${expectMorph}`);
}
report.finish();
