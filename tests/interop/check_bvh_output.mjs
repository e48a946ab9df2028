#!/usr/bin/env node
// Checks animconv's BVH output in the real consumer: three.js r187's BVHLoader reads it and an
// AnimationMixer plays it on BVHLoader's skeleton.
//
//   node check_bvh_output.mjs --source SRC [--clip I] [--source-metres M] [--max-deg D]
//                             [--max-m L] [--between] [--synthetic-root] OUT.bvh
//     SRC is the file OUT.bvh was converted from: a .bvh (read with BVHLoader too), or a .glb,
//     .gltf or .vrma (read with GLTFLoader; clip I of it, default 0), played with its own
//     AnimationMixer. At every frame time of OUT (and with --between at every midpoint), for
//     every joint of OUT: the source node of that name (three's PropertyBinding.sanitizeNodeName
//     of it, the name GLTFLoader gives) has world rotation W(t)·W_rest⁻¹ equal to the joint's
//     world rotation (BVH rest rotations are identity) within D degrees (default 1e-4), and the
//     same world position within L metres (default 1e-6), OUT being centimetres and SRC M metres
//     per unit (default 1; a BVH source read as centimetres: 0.01). Every node the source clip
//     animates (rotation or position) must be a joint of OUT; the duration must agree within one
//     frame (a VRMA's expression and lookAt nodes, which a BVH does not hold, are left out). The
//     source's quaternion keys are normalised first (what they mean). With
//     --synthetic-root, OUT's ROOT is no source node (animconv joins several rig roots under one)
//     and must stay at the origin, unrotated.
//
// Prints one line per failure and "N passed, N failed"; exit 1 on failure, 2 on usage errors.

import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Report, parseArgs, requireModules, usage, withConsoleAsFailures } from './lib/common.mjs';
import { splitContainer } from './lib/glb.mjs';
import { loadGltfFile } from './lib/vrm.mjs';

requireModules(['three']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { BVHLoader } = await import('three/addons/loaders/BVHLoader.js');

const argv = process.argv.slice(2);
const args = parseArgs(argv, {
  flags: ['between', 'synthetic-root'],
  options: ['source', 'clip', 'source-metres', 'max-deg', 'max-m', 'max-failure-lines'],
});
if (args.source === undefined || !existsSync(args.source)) usage('--source SRC is required and must exist');
if (args.positional.length !== 1) usage('give one OUT.bvh');
const clipIndex = args.clip === undefined ? 0 : Number(args.clip);
const sourceMetres = args['source-metres'] === undefined ? 1 : Number(args['source-metres']);
const maxDegrees = args['max-deg'] === undefined ? 1e-4 : Number(args['max-deg']);
const maxMetres = args['max-m'] === undefined ? 1e-6 : Number(args['max-m']);
if (!(sourceMetres > 0) || !(maxDegrees > 0) || !(maxMetres > 0)) usage('numbers must be positive');
const report = new Report(args['max-failure-lines'] === undefined ? 50 : Number(args['max-failure-lines']));
const OUT_METRES = 0.01;  // animconv writes centimetres

// Something to play: a root object, its clip, and its nodes by name.
function playable(root, clip) {
  const mixer = new THREE.AnimationMixer(root);
  // Played once and held at the end: a looping action shows frame 0 again at t = duration.
  const action = withConsoleAsFailures(report, `binding ${clip.name || 'the clip'}`, () => {
    const a = mixer.clipAction(clip);
    a.setLoop(THREE.LoopOnce, 1);
    a.clampWhenFinished = true;
    return a.play();
  });
  const nodes = new Map();
  root.traverse((object) => { if (object.name && !nodes.has(object.name)) nodes.set(object.name, object); });
  root.updateMatrixWorld(true);
  const rest = new Map();
  root.traverse((object) => rest.set(object, object.getWorldQuaternion(new THREE.Quaternion())));
  return { root, clip, mixer, action, nodes, rest };
}

function loadBvh(path) {
  const text = readFileSync(path, 'utf8');
  const result = withConsoleAsFailures(report, `BVHLoader reading ${basename(path)}`,
                                       () => new BVHLoader().parse(text));
  // BVHLoader names bones and tracks as the file does; PropertyBinding cannot bind a track of a
  // name holding '.', ':', '/', '[' or ']' (mixamo_wave.bvh's 'mixamorig:Hips'), so the source is
  // played under sanitizeNodeName's names, the ones animconv writes.
  for (const bone of result.skeleton.bones) bone.name = THREE.PropertyBinding.sanitizeNodeName(bone.name);
  for (const track of result.clip.tracks) {
    const dot = track.name.lastIndexOf('.');
    track.name = THREE.PropertyBinding.sanitizeNodeName(track.name.slice(0, dot)) + track.name.slice(dot);
  }
  const root = result.skeleton.bones[0];
  return { ...playable(root, result.clip), frameTimes: Array.from(result.clip.tracks[0].times) };
}

async function loadSource(path) {
  if (path.toLowerCase().endsWith('.bvh')) return loadBvh(path);
  const { gltf, messages } = await loadGltfFile(THREE, GLTFLoader, path, []);
  report.check(messages.length === 0, () => `GLTFLoader printed: ${messages.join(' | ')}`);
  if (!report.check(clipIndex < gltf.animations.length, `no clip ${clipIndex} in ${path}`)) return null;
  const clip = gltf.animations[clipIndex];
  // A VRMA's expression and lookAt nodes are no joints of a BVH (docs/formats/bvh.md, "What BVH
  // cannot hold"): animconv leaves them out, with a warning; their tracks are not compared.
  const { json } = splitContainer(new Uint8Array(readFileSync(path)));
  const vrma = json.extensions?.VRMC_vrm_animation;
  const roles = new Set([
    ...Object.values(vrma?.expressions?.preset ?? {}), ...Object.values(vrma?.expressions?.custom ?? {}),
    ...(vrma?.lookAt ? [vrma.lookAt] : []),
  ].map(({ node }) => THREE.PropertyBinding.sanitizeNodeName(json.nodes[node].name ?? '')));
  if (roles.size) console.log(`source: VRMA expression/lookAt node(s) ${[...roles].join(', ')} have no place in a BVH, not compared`);
  clip.tracks = clip.tracks.filter((track) => !roles.has(THREE.PropertyBinding.parseTrackName(track.name).nodeName));
  // The rotation a key means is its unit quaternion (animconv normalises; three.js would compose
  // a non-unit key into a matrix that is no rotation: three-vrm_test.vrma has keys 1e-5 off).
  for (const track of clip.tracks) {
    if (!track.name.endsWith('.quaternion')) continue;
    const v = track.values;
    for (let i = 0; i + 3 < v.length; i += 4) {
      const length = Math.hypot(v[i], v[i + 1], v[i + 2], v[i + 3]);
      for (let c = 0; c < 4; ++c) v[i + c] /= length;
    }
  }
  return playable(gltf.scene, clip);
}

function sourceNames(p) {
  return new Set([...p.nodes.keys()].map((name) => THREE.PropertyBinding.sanitizeNodeName(name)));
}

// A LoopOnce action that reached its end stays paused: reset it before every time.
function pose(p, t) {
  p.action.reset();
  p.mixer.setTime(t);
  p.root.updateMatrixWorld(true);
}

report.setContext(basename(args.positional[0]));
const out = loadBvh(args.positional[0]);
const source = await loadSource(args.source);
if (source) {
  const rootName = out.root.name;
  const joints = [...out.nodes.keys()].filter((name) => name !== 'ENDSITE' && !(args['synthetic-root'] && name === rootName));
  if (args['synthetic-root']) {
    report.check(!sourceNames(source).has(rootName), `the ROOT ${rootName} is a node of the source, not a synthetic root`);
    for (const t of out.frameTimes) {
      pose(out, t);
      report.check(out.root.quaternion.angleTo(new THREE.Quaternion()) === 0 && out.root.position.length() === 0,
                   `the synthetic ROOT moves at ${t} s`);
    }
  }
  const sourceByName = new Map();
  // A glTF may name a mesh like a joint (RobotExpressive's 'Torso'): the bone wins, as in
  // animconv's skeleton, which leaves unanimated mesh nodes out.
  source.root.traverse((object) => {
    if (!object.name) return;
    const key = THREE.PropertyBinding.sanitizeNodeName(object.name);
    const known = sourceByName.get(key);
    if (!known || (object.isBone && !known.object.isBone)) sourceByName.set(key, { name: object.name, object });
  });
  for (const name of joints) report.check(sourceByName.has(name), `joint ${name} is no node of the source`);
  for (const track of source.clip.tracks) {
    const { nodeName, propertyName } = THREE.PropertyBinding.parseTrackName(track.name);
    if (propertyName !== 'quaternion' && propertyName !== 'position') continue;
    const node = source.root.getObjectByName(nodeName) || (source.root.name === nodeName ? source.root : null);
    const name = THREE.PropertyBinding.sanitizeNodeName(node ? node.name : nodeName);
    report.check(out.nodes.has(name), `the source animates ${track.name}, but ${name} is no joint`);
  }
  const frameTime = out.frameTimes.length > 1 ? out.frameTimes[1] - out.frameTimes[0] : 0;
  report.check(Math.abs(out.clip.duration - source.clip.duration) <= frameTime + 1e-6,
               `duration ${out.clip.duration}, source ${source.clip.duration}`);
  const times = [];
  for (let f = 0; f < out.frameTimes.length; ++f) {
    times.push(out.frameTimes[f]);
    if (args.between && f + 1 < out.frameTimes.length) times.push((out.frameTimes[f] + out.frameTimes[f + 1]) / 2);
  }
  let worstDegrees = 0, worstMetres = 0;
  const q = new THREE.Quaternion(), expected = new THREE.Quaternion();
  const p = new THREE.Vector3(), expectedP = new THREE.Vector3();
  for (const t of times) {
    pose(out, t);
    pose(source, t);
    for (const name of joints) {
      const match = sourceByName.get(name);
      if (!match) continue;
      const joint = out.nodes.get(name);
      joint.getWorldQuaternion(q);
      match.object.getWorldQuaternion(expected).multiply(source.rest.get(match.object).clone().invert());
      // The angle of q⁻¹·expected by atan2, not acos of a dot: float32 track values are unit only
      // to ~1e-7, which acos would turn into 0.03°.
      const r = q.clone().conjugate().multiply(expected);
      const degrees = THREE.MathUtils.radToDeg(2 * Math.atan2(Math.hypot(r.x, r.y, r.z), Math.abs(r.w)));
      worstDegrees = Math.max(worstDegrees, degrees);
      report.check(degrees <= maxDegrees,
                   () => `${name} at ${t.toFixed(4)} s: world rotation ${degrees.toExponential(3)}° off the source`);
      joint.getWorldPosition(p).multiplyScalar(OUT_METRES);
      match.object.getWorldPosition(expectedP).multiplyScalar(sourceMetres);
      const metres = p.distanceTo(expectedP);
      worstMetres = Math.max(worstMetres, metres);
      report.check(metres <= maxMetres,
                   () => `${name} at ${t.toFixed(4)} s: world position ${metres.toExponential(3)} m off the source`);
    }
  }
  console.log(`${joints.length} joints x ${times.length} times: worst ${worstDegrees.toExponential(3)}°, ${worstMetres.toExponential(3)} m`);
}
report.finish();
