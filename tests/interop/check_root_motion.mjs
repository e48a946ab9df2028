#!/usr/bin/env node
// Checks `animconv convert IN.bvh --root-motion in-place|extract -o OUT.glb` (or `--ground`) in
// three.js r187:
// OUT is loaded with GLTFLoader and played with an AnimationMixer at every BVH frame time; the
// reference is BVHLoader's reading of IN, its skeleton posed by hand with its own tracks
// (docs/root_motion.md). The hips are the BVH's ROOT joint.
//
//   node check_root_motion.mjs --bvh IN.bvh --unit 0.01 --mode in-place|extract OUT.glb
//   node check_root_motion.mjs --bvh IN.bvh --unit 0.01 --mode ground --feet A,B,.. OUT.glb
//   node check_root_motion.mjs --bvh IN.bvh --unit 0.01 --mode in-place|extract --yaw OUT.glb
//
// Travel(t) = the ROOT's world position at t minus at the first frame, over the ground (x, z).
//   in-place: every joint's world position in OUT = the BVH's minus Travel(t) (so the hips stay
//             over their start and keep their height), world rotations equal;
//   extract:  every joint's world position and rotation in OUT = the BVH's, and OUT's root node
//             (the hips' parent: a new one, or an armature above them) is at its rest position
//             moved by Travel(t), turned as at rest.
//   --yaw (animconv's --root-yaw): Turn(t) = the twist about +Y of the ROOT's world rotation
//             W(t)·W(0)⁻¹ (swing-twist: 2·atan2(y, w)), and P(t) the ROOT's ground position:
//             in-place: every joint's world pose = turn(-Turn(t)) about the vertical through P(0)
//             applied to the BVH's moved back by the travel, so the hips keep their first heading;
//             extract: every joint's world pose = the BVH's, and the root's world pose is
//             rotation turn(Turn(t))·(its rest rotation), position P(t) + turn(Turn(t))·(its rest
//             position - P(0)). The clip must turn more than 30° (or it tested nothing).
//   ground:   every joint's world position in OUT = the BVH's + (0, shift, 0), one shift for the
//             whole clip (taken from the hips at the first frame, at least 1 cm, or it tested
//             nothing), rotations equal; and the lowest of the --feet joints over OUT as the mixer
//             plays it, 8 samples per BVH frame, is at y = 0 within 1 mm (docs/root_motion.md).
// Positions within 1e-6 m, rotations within 1e-4 (quaternion distance, sign-free).
// Prints one line per failure and "N passed, N failed"; exit 1 on failure, 2 on usage errors.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import {
  Report, parseArgs, requireModules, signFreeDistance, usage, withConsoleAsFailures,
} from './lib/common.mjs';
import { keysAndBetween, nodeFinder, playOnce } from './lib/playback.mjs';
import { loadGltfFile } from './lib/vrm.mjs';

requireModules(['three']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { BVHLoader } = await import('three/addons/loaders/BVHLoader.js');

const METRES = 1e-6;
const ROTATION = 1e-4;

const args = parseArgs(process.argv.slice(2), {
  flags: ['yaw'], options: ['bvh', 'unit', 'mode', 'feet', 'max-failure-lines'] });
if (args.bvh === undefined) usage('--bvh IN.bvh is required');
if (args.positional.length !== 1) usage('give one OUT.glb');
const unit = Number(args.unit);
if (!(unit > 0)) usage('--unit must be a positive number');
if (!['in-place', 'extract', 'ground'].includes(args.mode)) usage('--mode must be in-place, extract or ground');
const feet = args.feet === undefined ? [] : args.feet.split(',');
if (args.mode === 'ground' && feet.length === 0) usage('--mode ground needs --feet A,B,..');
const yaw = args.yaw === true;
if (yaw && args.mode === 'ground') usage('--yaw goes with --mode in-place or extract');
const FLOOR = 1e-3;
const report = new Report(args['max-failure-lines'] === undefined ? 20 : Number(args['max-failure-lines']));
report.setContext(`${basename(args.positional[0])} (${args.mode}${yaw ? ' --yaw' : ''}) vs ${basename(args.bvh)}`);

// The BVH, posed by hand at each frame (a mixer cannot bind names with ':').
const bvh = new BVHLoader().parse(readFileSync(args.bvh, 'utf8'));
const times = Array.from(bvh.clip.tracks[0].times);
const joints = bvh.skeleton.bones.filter((bone) => bone.name !== 'ENDSITE');
const tracks = new Map(bvh.clip.tracks.map((track) => [track.name, track.createInterpolant()]));
const world = (object) => {
  const p = new THREE.Vector3();
  const q = new THREE.Quaternion();
  object.matrixWorld.decompose(p, q, new THREE.Vector3());
  return { p, q };
};
// With --yaw also the middle of every frame: OUT's channels computed from the turn have keys of
// their own there, within 0.01° of the exact turn (docs/root_motion.md, "Heading").
const samples = yaw ? times.flatMap((t, i) => (i + 1 < times.length ? [t, (t + times[i + 1]) / 2] : [t]))
                    : times;
const isKey = new Set(times);
const BETWEEN_METRES = 2.5e-4;  // 0.01° at 1.4 m from the hips
const BETWEEN_ROTATION = 1e-4;
const reference = samples.map((t) => {
  for (const joint of joints) {
    joint.quaternion.fromArray(tracks.get(`${joint.name}.quaternion`).evaluate(t));
    joint.position.fromArray(tracks.get(`${joint.name}.position`).evaluate(t));
  }
  joints[0].updateMatrixWorld(true);
  return new Map(joints.map((joint) => {
    const pose = world(joint);
    return [joint.name, { p: pose.p.multiplyScalar(unit), q: pose.q }];
  }));
});
const hipsName = joints[0].name;
const start = reference[0].get(hipsName).p;
const travelAt = (frame) => {
  const d = reference[frame].get(hipsName).p.clone().sub(start);
  return new THREE.Vector3(d.x, 0, d.z);
};
const startInverse = reference[0].get(hipsName).q.clone().invert();
const turnAt = (frame) => {
  if (!yaw) return 0;
  const delta = reference[frame].get(hipsName).q.clone().multiply(startInverse);
  return 2 * Math.atan2(delta.y, delta.w);
};
const up = new THREE.Vector3(0, 1, 0);
const groundStart = new THREE.Vector3(start.x, 0, start.z);

const { gltf, messages } = await loadGltfFile(THREE, GLTFLoader, args.positional[0], []);
report.check(messages.length === 0, () => `loading printed: ${messages.join(' | ')}`);
if (report.check(gltf.animations.length === 1, () => `${gltf.animations.length} clips, expected 1`)) {
  let mixer;
  withConsoleAsFailures(report, 'binding the clip', () => { mixer = playOnce(THREE, gltf.scene, gltf.animations[0]); });
  const nodeOf = nodeFinder(THREE, gltf.scene);
  const hips = nodeOf(hipsName);
  if (report.check(hips !== undefined, () => `no node for the hips '${hipsName}'`)) {
    // The root's rest, before the mixer moves it: an armature (make_armature_fixture.mjs) has a
    // turn and a scale of its own, a created root none.
    const rootRest = { p: hips.parent.position.clone(), q: hips.parent.quaternion.clone() };
    let worstMetres = 0;
    let largestTravel = 0;
    let largestTurn = 0;
    let worstBetween = 0;
    let shift;
    samples.forEach((t, frame) => {
      mixer.setTime(t);
      const metresBound = isKey.has(t) ? METRES : BETWEEN_METRES;
      const rotationBound = isKey.has(t) ? ROTATION : BETWEEN_ROTATION;
      gltf.scene.updateMatrixWorld(true);
      const travel = travelAt(frame);
      largestTravel = Math.max(largestTravel, travel.length());
      const turn = turnAt(frame);
      largestTurn = Math.max(largestTurn, Math.abs(Math.atan2(Math.sin(turn), Math.cos(turn))));
      const back = new THREE.Quaternion().setFromAxisAngle(up, -turn);
      const hipsGround = reference[frame].get(hipsName).p.clone().setY(0);
      for (const joint of joints) {
        const node = nodeOf(joint.name);
        if (!report.check(node !== undefined, () => `no node for '${joint.name}'`)) continue;
        const got = world(node);
        const want = reference[frame].get(joint.name);
        if (args.mode === 'ground' && shift === undefined) shift = got.p.y - want.p.y;
        let wantP = want.p;
        let wantQ = want.q;
        if (args.mode === 'in-place') wantP = want.p.clone().sub(travel);
        if (args.mode === 'in-place' && yaw) {
          wantP = want.p.clone().sub(hipsGround).applyQuaternion(back).add(groundStart);
          wantQ = back.clone().multiply(want.q);
        }
        if (args.mode === 'ground') wantP = want.p.clone().add(new THREE.Vector3(0, shift, 0));
        const metres = got.p.distanceTo(wantP);
        if (isKey.has(t)) worstMetres = Math.max(worstMetres, metres);
        else worstBetween = Math.max(worstBetween, metres);
        report.check(metres <= metresBound, () => `${joint.name} at t=${t}: position ${got.p.toArray()}, ` +
                                             `expected ${wantP.toArray()} (${metres.toExponential(2)} m off)`);
        const rotation = signFreeDistance(got.q.toArray(), wantQ.toArray());
        report.check(rotation <= rotationBound, () => `${joint.name} at t=${t}: rotation off by ${rotation}`);
      }
      if (args.mode === 'extract') {
        const root = hips.parent;
        const rootPose = world(root);
        const turned = new THREE.Quaternion().setFromAxisAngle(up, turn);
        // Without --yaw the turn is 0 and this is the travel (plus where the root stands at rest).
        const wantRoot = hipsGround.clone().add(rootRest.p.clone().sub(groundStart).applyQuaternion(turned));
        report.check(root !== gltf.scene && rootPose.p.distanceTo(wantRoot) <= metresBound,
                     () => `root '${root.name}' at t=${t}: ${rootPose.p.toArray()}, expected ${wantRoot.toArray()}`);
        const rootTurn = signFreeDistance(rootPose.q.toArray(), turned.clone().multiply(rootRest.q).toArray());
        report.check(rootTurn <= rotationBound, () => `root '${root.name}' at t=${t}: rotation off by ${rootTurn}`);
      }
    });
    // A check that compares nothing that moved would pass anything.
    if (yaw) {
      report.check(largestTurn > Math.PI / 6, () => `the BVH's hips turn only ${largestTurn} rad: not a test`);
    } else {
      report.check(largestTravel > 0.1, () => `the BVH's hips travel only ${largestTravel} m: not a test`);
    }
    if (args.mode === 'ground') {
      report.check(Math.abs(shift) >= 0.01, () => `OUT is moved ${shift} m from the BVH: not a test`);
      const footNodes = feet.map((name) => nodeOf(name));
      report.check(footNodes.every((node) => node !== undefined), () => `no node for one of ${feet}`);
      // A fresh action: the one above finished at the clip's end and stays clamped there.
      mixer.stopAllAction();
      const action = mixer.clipAction(gltf.animations[0]);
      action.reset();
      action.setLoop(THREE.LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
      let lowest = Infinity;
      let lowestAt = 0;
      for (const t of keysAndBetween(times, 8)) {
        mixer.setTime(t);
        gltf.scene.updateMatrixWorld(true);
        for (const node of footNodes.filter((n) => n !== undefined)) {
          const y = world(node).p.y;
          if (y < lowest) { lowest = y; lowestAt = t; }
        }
      }
      report.check(Math.abs(lowest) <= FLOOR, () => `the lowest foot point is at y = ${lowest} (t=${lowestAt}), ` +
                                                    `not within ${FLOOR} m of the floor`);
      console.log(`${basename(args.positional[0])}: moved ${shift.toFixed(4)} m; lowest foot point ` +
                  `${lowest.toExponential(2)} m at t=${lowestAt.toFixed(3)}`);
    }
    console.log(`${basename(args.positional[0])}: ${joints.length} joints x ${times.length} frames, hips travel up to ` +
                `${largestTravel.toFixed(3)} m${yaw ? `, turn up to ${(largestTurn * 180 / Math.PI).toFixed(1)}°` : ''}; ` +
                `largest position difference ${worstMetres.toExponential(2)} m` +
                `${yaw ? ` at the frames, ${worstBetween.toExponential(2)} m between them` : ''}`);
  }
}
report.finish();
