#!/usr/bin/env node
// Checks a three.js AnimationClip JSON that animconv retargeted onto a VRM model's RAW bones
// (`convert UNITY.csv --skeleton MODEL.vrm -o CLIP.json`) by playing it on that model as loaded
// by @pixiv/three-vrm 3.5.5 (VRMLoaderPlugin), three r187:
//
//   node check_vrm_skeleton.mjs --clip CLIP.json --model MODEL.vrm --csv UNITY.csv
//        [--bones bone.txt] --interval 0.2 [--facing auto|+z|-z] [--max-failure-lines N]
//
// --facing overrides the model's facing (auto: VRM 0.x -Z, VRM 1.0 +Z); the self-test uses it to
// show that a clip checked with the wrong facing fails.
//
// The clip plays on an AnimationMixer on vrm.scene. The scene root is NOT turned
// (VRMUtils.rotateVRM0 is not called) and vrm.update() is not called (with the default
// autoUpdateHumanBones it would copy the idle normalized rig onto the raw bones). At every row
// time and every midpoint, after updateMatrixWorld, each object's world-space delta rotation
// D = Wpose · Wrest⁻¹ (Wrest captured before playing) must equal, up to sign within 1e-5:
//   - for a humanoid bone b: G_b = G_parent(b) · N_b over the VRM 1.0 humanoid parent chain
//     (VRM 1.0 humanoid spec: the thumbs renamed from VRM 0.x), N_b = the CSV's Unity localRotation as (x,−y,−z,w), normalised
//     (identity where the CSV has no data), interpolated with our own slerp between rows.
//     This is the pose in world axes, independent of the model's rest rotations (§5).
//     On a VRM 0.x model (facing −Z) G is turned 180° about Y: R_y(π)·G·R_y(π)⁻¹ = (−x,y,−z,w).
//   - for any other object: the G of its nearest humanoid ancestor (it moves rigidly with it),
//     or identity outside the skeleton (the scene root must not move).
// The hips' world position must stay at rest (a Unity CSV has no translation).
// Exit status 1 when a check failed, 2 on a usage/setup error.

import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import {
  Report, expectedBones, formatQuat, parseArgs, poseAt, requireModules, sampleTimes,
  signFreeDistance, usage, withConsoleAsFailures,
} from './lib/common.mjs';
import { IDENTITY, VRM1_BONES, VRM1_PARENT, readRecording, conjugate, loadGltfFile, multiply } from './lib/vrm.mjs';

requireModules(['three', '@pixiv/three-vrm']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { VRMLoaderPlugin } = await import('@pixiv/three-vrm');

const TOLERANCE = 1e-5;

const args = parseArgs(process.argv.slice(2), {
  flags: [], options: ['clip', 'model', 'csv', 'bones', 'interval', 'facing', 'max-failure-lines'],
});
for (const required of ['clip', 'model', 'csv', 'interval']) {
  if (args[required] === undefined) usage(`--${required} is required`);
}
if (args.positional.length > 0) usage(`unexpected argument ${args.positional[0]}`);
const interval = Number(args.interval);
const facing = args.facing ?? 'auto';
if (!['auto', '+z', '-z'].includes(facing)) usage(`--facing must be auto, +z or -z, not '${facing}'`);
if (!(interval > 0)) usage(`--interval must be a positive number, not '${args.interval}'`);
for (const file of [args.clip, args.csv, args.model, ...(args.bones ? [args.bones] : [])]) {
  if (!existsSync(file)) usage(`${file} not found`);
}
const report = new Report(args['max-failure-lines'] === undefined ? 200 : Number(args['max-failure-lines']));
report.setContext(`${basename(args.clip)} on ${basename(args.model)}`);

// ---------------------------------------------------------------------------------------------
// Expectation from the CSV: N_b keys in the VRM 1.0 convention.

const { columns, rows } = readRecording(args.bones, args.csv);
const keysByBone = new Map();
for (const { name, keys } of expectedBones(rows, columns, { interval, mirrorAxis: 'x' })) {
  if (keys.length > 0 && !keysByBone.has(name)) keysByBone.set(name, keys);
}
const duration = (rows.length - 1) * interval;
const samples = sampleTimes(rows.length, interval);

// Bones ordered parents first.
const ORDERED = [];
{
  const depth = (name) => (VRM1_PARENT[name] ? 1 + depth(VRM1_PARENT[name]) : 0);
  ORDERED.push(...VRM1_BONES.slice().sort((a, b) => depth(a) - depth(b)));
}

// The expectation for a model that has the humanoid bones `present`. Each present bone b gets,
// relative to its nearest present humanoid ancestor a (VRM 1.0 humanoid spec: the thumbs renamed from VRM 0.x: walk up past missing
// bones), the rotation F_b = N_s1 · … · N_sk · N_b of the bones in between that the model lacks
// (a missing bone passes its rotation to its children, issue 4) — at the CSV rows. F_b =
// G_a⁻¹ · G_b there, so at the rows the model's world pose is exactly the CSV's full-chain pose
// G_b = G_parent · N_b. Between rows three.js slerps each track of the clip, so the expectation
// is our slerp of F_b's row values; when nothing is folded (F_b = N_b) that is the slerp of the
// CSV rows, and G_b is the full-chain pose at every time. (A folded product slerped is not the
// product of the slerps: e.g. a model without shoulders differs between rows by up to ~1e-2 on
// walk.csv from what a model with shoulders shows.)
function expectationFor(present) {
  const has = new Set(present);
  const segments = new Map();  // b -> { anchor: a or null, chain: [s1 … sk, b] }
  for (const name of present) {
    const chain = [name];
    let up = VRM1_PARENT[name];
    while (up && !has.has(up)) {
      chain.unshift(up);
      up = VRM1_PARENT[up];
    }
    segments.set(name, { anchor: up ?? null, chain });
  }
  // F_b keys: at every row where a bone of the chain has data; identity if none has.
  const folded = new Map();
  for (const [name, { chain }] of segments) {
    const rowsWithData = new Set();
    for (const bone of chain) for (const key of keysByBone.get(bone) ?? []) rowsWithData.add(key.row);
    const keys = [...rowsWithData].sort((a, b) => a - b).map((row) => {
      const time = Math.fround(row * interval);
      let q = IDENTITY;
      for (const bone of chain) {
        const boneKeys = keysByBone.get(bone);
        if (boneKeys) q = multiply(q, poseAt(boneKeys, time));
      }
      return { row, time, q };
    });
    folded.set(name, keys);
  }
  const order = ORDERED.filter((name) => has.has(name));
  // G_b at time t for every present bone, in the +Z-facing (VRM 1.0) world.
  return (t) => {
    const world = new Map();
    for (const name of order) {
      const keys = folded.get(name);
      const local = keys.length > 0 ? poseAt(keys, t) : IDENTITY;
      const anchor = segments.get(name).anchor;
      world.set(name, anchor ? multiply(world.get(anchor), local) : local);
    }
    return world;
  };
}

// ---------------------------------------------------------------------------------------------
// The model and the clip

let vrm;
try {
  const { gltf, messages } = await loadGltfFile(THREE, GLTFLoader, args.model,
                                                 [(parser) => new VRMLoaderPlugin(parser)]);
  // The model is third-party data: what three-vrm says about it is shown, not judged.
  for (const message of new Set(messages)) console.log(`note: loading ${basename(args.model)} printed ${message}`);
  vrm = gltf.userData.vrm;
} catch (error) {
  report.fail(`GLTFLoader + VRMLoaderPlugin failed: ${error && error.message ? error.message : error}`);
}

if (vrm != null && report.check(vrm.humanoid != null, 'VRMLoaderPlugin found no VRM humanoid')) {
  checkClip();
} else if (vrm == null) {
  report.fail('no VRM in the model file');
}
report.finish();

function checkClip() {
  const humanoid = vrm.humanoid;
  const vrm0 = vrm.meta.metaVersion === '0';
  const facesMinusZ = facing === 'auto' ? vrm0 : facing === '-z';
  const scene = vrm.scene;
  // The world delta in the model's own facing: a VRM 0.x model faces −Z, 180° about Y from the
  // VRM 1.0 convention the CSV was mirrored into.
  const toModel = facesMinusZ ? (q) => [-q[0], q[1], -q[2], q[3]] : (q) => q;

  // Which humanoid bone each raw node is, and each object's nearest humanoid ancestor-or-self.
  const boneOfNode = new Map();
  for (const name of VRM1_BONES) {
    const node = humanoid.getRawBoneNode(name);
    if (node) boneOfNode.set(node, name);
  }
  const present = VRM1_BONES.filter((name) => humanoid.getRawBoneNode(name) != null);
  const ownerOf = new Map();
  const objects = [];
  scene.traverse((object) => {
    objects.push(object);
    let at = object;
    while (at && !boneOfNode.has(at)) at = at === scene ? null : at.parent;
    ownerOf.set(object, at ? boneOfNode.get(at) : null);
  });
  const expectedWorld = expectationFor(present);
  const missing = [...keysByBone.keys()].filter((name) => !present.includes(name));
  console.log(`${basename(args.model)}: VRM ${vrm0 ? '0.x' : '1.0'}, checked as facing ${facesMinusZ ? '-Z (expected world deltas turned 180 deg about Y)' : '+Z'}${facing === 'auto' ? '' : ' (--facing)'}, ` +
              `${present.length} humanoid bones, ${objects.length} objects in vrm.scene; ` +
              `${missing.length} CSV bone(s) with data not in the model` +
              `${missing.length ? ` (their rotation must reach their children): ${missing.join(', ')}` : ''}`);

  // Rest pose, before the mixer touches anything.
  scene.updateMatrixWorld(true);
  const rest = new Map();
  for (const object of objects) {
    rest.set(object, object.getWorldQuaternion(new THREE.Quaternion()));
  }
  const hipsNode = humanoid.getRawBoneNode('hips');
  const hipsRest = hipsNode.getWorldPosition(new THREE.Vector3());

  // Parse and bind: any console message of three.js counts as a failure (an unbound track, ...).
  let clip;
  let action;
  const mixer = new THREE.AnimationMixer(scene);
  try {
    withConsoleAsFailures(report, 'AnimationClip.parse, validate and binding', () => {
      let json = JSON.parse(readFileSync(args.clip, 'utf8'));
      clip = THREE.AnimationClip.parse(json);
      report.check(clip.validate(), 'clip.validate() is false');
      action = mixer.clipAction(clip);
      action.setLoop(THREE.LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
      mixer.setTime(0);
    });
  } catch (error) {
    report.fail(`parsing or binding the clip threw: ${error && error.message ? error.message : error}`);
    return;
  }
  report.check(Math.abs(clip.duration - duration) <= TOLERANCE,
               `duration ${clip.duration}, expected (rows-1) x interval = ${duration}`);
  report.check(clip.tracks.length > 0, 'the clip has no tracks');
  // Every track drives a node of this model (three.js also warns about unbound ones above).
  for (const track of clip.tracks) {
    const parsed = THREE.PropertyBinding.parseTrackName(track.name);
    const node = THREE.PropertyBinding.findNode(scene, parsed.nodeName);
    report.check(node != null && node !== scene,
                 `track ${track.name}: no node '${parsed.nodeName}' in the model`);
  }

  let worstBone = 0;
  let worstOther = 0;
  const Wpose = new THREE.Quaternion();
  for (const { t, kind } of samples) {
    action.reset();
    mixer.setTime(t);
    scene.updateMatrixWorld(true);
    const world = expectedWorld(t);
    for (const object of objects) {
      object.getWorldQuaternion(Wpose);
      const r = rest.get(object);
      const got = multiply([Wpose.x, Wpose.y, Wpose.z, Wpose.w], conjugate([r.x, r.y, r.z, r.w]));
      const owner = ownerOf.get(object);
      const want = owner ? toModel(world.get(owner)) : IDENTITY;
      const distance = signFreeDistance(got, want);
      const isBone = boneOfNode.has(object);
      if (isBone) worstBone = Math.max(worstBone, distance);
      else worstOther = Math.max(worstOther, distance);
      report.check(distance <= TOLERANCE, () => {
        const what = isBone ? `humanoid bone ${owner} (${object.name})`
          : `${object.type} '${object.name}' (${owner ? `follows ${owner}` : 'outside the skeleton'})`;
        return `${what} at t=${t} (${kind}): world delta ${formatQuat(got)}, expected ${formatQuat(want)}`;
      });
    }
    const hips = hipsNode.getWorldPosition(new THREE.Vector3());
    const moved = hips.distanceTo(hipsRest);
    report.check(moved <= TOLERANCE,
                 () => `hips world position at t=${t} (${kind}) moved ${moved} from rest; the CSV has no translation`);
  }
  console.log(`${basename(args.model)}: ${samples.length} sample times, largest difference: humanoid bones ` +
              `${worstBone.toExponential(2)}, other objects ${worstOther.toExponential(2)} (tolerance ${TOLERANCE})`);
}
