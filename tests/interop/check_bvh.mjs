#!/usr/bin/env node
// Checks animconv's BVH conversions against three.js r187's own BVHLoader, the reading of the
// same file by the real consumer.
//
//   node check_bvh.mjs --bvh IN.bvh --unit 0.01 OUT.glb
//     OUT.glb (animconv convert IN.bvh -o OUT.glb) is loaded with GLTFLoader and played with an
//     AnimationMixer at every BVH frame time. BVHLoader.parse(IN) gives one key per frame on
//     `<joint>.position` (OFFSET + channels) and `<joint>.quaternion` tracks. At every frame, for
//     every joint: the glTF node of the same name has BVHLoader's quaternion (q = -q) and, divided
//     by --unit (animconv's documented metres per BVH unit), its position, both within 1e-4.
//     Same clip count (1) and duration.
//
//   node check_bvh.mjs --bvh IN.bvh --vrma OUT.vrma --model A.vrm [--model B.vrm ...]
//     OUT.vrma (animconv convert IN.bvh -o OUT.vrma) is loaded with @pixiv/three-vrm-animation
//     3.5.5 and played on each VRM model (three-vrm 3.5.5); loading, createVRMAnimationClip and
//     binding must print nothing. Motion: BVHLoader's skeleton is posed at each frame, and every
//     humanoid bone the VRMA animates must have, on the model's normalized rig, the world rotation
//     the BVH joint has relative to its orientation in the VRM T-pose (within 1e-4; turned from
//     the BVH's body frame to the model's, each snapped to world axes: 180° about Y on a VRM 0.x
//     model, as three-vrm-animation turns it, a quarter turn about X for a BVH drawn Z-up):
//     W(t)·W(rest)⁻¹·S⁻¹, S the turn
//     from the BVH's rest to that T-pose. S is worked out here from the VRM 1.0 T-pose
//     (VRMC_vrm-1.0 tpose.md: arms horizontal, legs straight down), taken in the body's own rest
//     axes (up from the hips to the head, left towards the left upper leg: a BVH drawn Z-up is in
//     its T-pose with its legs along -Z): an arm or leg segment of the BVH's rest more than 10°
//     from it is turned onto it by the shortest arc, the joints below it (a hand, the toes) with
//     it, every other joint not at all (identity for a BVH drawn in a T-pose). And, independently
//     of S, where the limbs point: each arm and leg segment of the model (normalized bone to its
//     child) within 20° of the BVH's at every frame, each measured in its own rig's rest body
//     axes: two rigs' rest poses may each differ up to 10° from the T-pose unaligned, a rest pose
//     taken for the T-pose (a mocap BVH standing arms down) plays 84-90° off. Bones are matched
//     with the naming table below, written from the skeletons' conventions (not from animconv's C++). A bone is compared
//     only when the model has it and every animated humanoid ancestor, since three-vrm-animation
//     drops tracks of bones a model lacks. Grounding: the lowest foot point over the clip, as a
//     fraction of the hips height above the floor (heights along each rig's own up), is the BVH's within 0.15 (feet neither sink
//     nor float when the BVH's rest pose is drawn around its hips).
//
// Prints one line per failure and "N passed, N failed"; exit 1 on failure, 2 on usage errors.

import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import {
  Report, takeRepeatedOption, formatQuat, parseArgs, requireModules, signFreeDistance, usage, withConsoleAsFailures,
} from './lib/common.mjs';
import { bvhHumanBoneOf } from './lib/bvh_names.mjs';
import { LIMB_SEGMENTS, bodyAxes, bodyFrameTurn, inBody, segmentDirection, swingsToTPose } from './lib/tpose.mjs';
import { VRM1_PARENT, addLookAtProxy, conjugate, loadGltfFile, multiply } from './lib/vrm.mjs';

requireModules(['three', '@pixiv/three-vrm', '@pixiv/three-vrm-animation']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { BVHLoader } = await import('three/addons/loaders/BVHLoader.js');

const TOLERANCE = 1e-4;

const DIRECTION_DEGREES = 20;

const argv = process.argv.slice(2);
const models = takeRepeatedOption(argv, 'model');
const args = parseArgs(argv, { flags: [], options: ['bvh', 'unit', 'vrma', 'max-failure-lines'] });
if (args.bvh === undefined || !existsSync(args.bvh)) usage('--bvh IN.bvh is required and must exist');
const report = new Report(args['max-failure-lines'] === undefined ? 200 : Number(args['max-failure-lines']));

const bvh = new BVHLoader().parse(readFileSync(args.bvh, 'utf8'));
const frameTimes = Array.from(bvh.clip.tracks[0].times);
const joints = bvh.skeleton.bones.filter((bone) => bone.name !== 'ENDSITE');
const jointNames = joints.map((joint) => joint.name);

if (args.vrma !== undefined) {
  if (models.length === 0) usage('--vrma needs at least one --model');
  await checkVrma();
} else {
  if (args.positional.length !== 1) usage('give one OUT.glb');
  const unit = Number(args.unit);
  if (!(unit > 0)) usage('--unit must be a positive number');
  await checkGlb(args.positional[0], unit);
}
report.finish();

function bvhTrackValue(name, t) {
  const track = bvh.clip.tracks.find((candidate) => candidate.name === name);
  return track ? Array.from(track.createInterpolant().evaluate(t)) : null;
}

// ---------------------------------------------------------------------------------------------
async function checkGlb(path, unit) {
  report.setContext(basename(path));
  const { gltf, messages } = await loadGltfFile(THREE, GLTFLoader, path, []);
  report.check(messages.length === 0, () => `loading printed: ${messages.join(' | ')}`);
  if (!report.check(gltf.animations.length === 1, `${gltf.animations.length} clips, expected 1`)) return;
  const clip = gltf.animations[0];
  const duration = frameTimes[frameTimes.length - 1];
  report.check(Math.abs(clip.duration - duration) <= 1e-5,
               `duration ${clip.duration}, BVHLoader ${duration}`);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const action = withConsoleAsFailures(report, 'binding the clip', () => {
    const a = mixer.clipAction(clip);
    a.setLoop(THREE.LoopOnce, 1);
    a.clampWhenFinished = true;
    a.play();
    return a;
  });
  const nodes = new Map();
  gltf.scene.traverse((object) => nodes.set(object.name, object));
  let worstRotation = 0;
  let worstPosition = 0;
  // GLTFLoader sanitises node names as three's property paths need ("mixamorig:Hips" ->
  // "mixamorigHips").
  const nodeOf = (joint) => nodes.get(THREE.PropertyBinding.sanitizeNodeName(joint.name));
  for (const joint of joints) {
    report.check(nodeOf(joint) !== undefined, `no node named '${joint.name}'`);
  }
  for (const t of frameTimes) {
    action.reset();
    mixer.setTime(t);
    for (const joint of joints) {
      const node = nodeOf(joint);
      if (!node) continue;
      const wantQ = bvhTrackValue(`${joint.name}.quaternion`, t);
      const gotQ = node.quaternion.toArray();
      const dq = signFreeDistance(gotQ, wantQ);
      worstRotation = Math.max(worstRotation, dq);
      report.check(dq <= TOLERANCE, () => `${joint.name} at t=${t}: quaternion ${formatQuat(gotQ)}, ` +
                                          `BVHLoader ${formatQuat(wantQ)}`);
      const wantP = bvhTrackValue(`${joint.name}.position`, t);
      const gotP = node.position.toArray().map((c) => c / unit);
      const dp = Math.max(...gotP.map((c, i) => Math.abs(c - wantP[i])));
      worstPosition = Math.max(worstPosition, dp);
      report.check(dp <= TOLERANCE, () => `${joint.name} at t=${t}: position/${unit} (${gotP.join(', ')}), ` +
                                          `BVHLoader (${wantP.join(', ')})`);
    }
  }
  console.log(`${basename(path)}: ${joints.length} joints x ${frameTimes.length} frames; largest ` +
              `difference: quaternion ${worstRotation.toExponential(2)}, position ${worstPosition.toExponential(2)} BVH units`);
}

async function checkVrma() {
  const { VRMLoaderPlugin } = await import('@pixiv/three-vrm');
  const { VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy, createVRMAnimationClip } =
    await import('@pixiv/three-vrm-animation');
  report.setContext(basename(args.vrma));
  const { gltf, messages } = await loadGltfFile(THREE, GLTFLoader, args.vrma,
                                                 [(parser) => new VRMAnimationLoaderPlugin(parser)]);
  report.check(messages.length === 0, () => `loading printed: ${messages.join(' | ')}`);
  const animations = gltf.userData.vrmAnimations ?? [];
  if (!report.check(animations.length === 1, `${animations.length} VRMAnimations, expected 1`)) return;
  const vrmAnimation = animations[0];
  const animated = new Set(vrmAnimation.humanoidTracks.rotation.keys());

  // Expected normalized world rotations: BVHLoader's skeleton posed by its own clip.
  // Posed by hand from the track values: a mixer cannot bind "mixamorig:Hips.quaternion" (':'
  // is reserved in three's property paths).
  const root = bvh.skeleton.bones[0];
  const pose = (t) => {
    for (const joint of joints) {
      joint.quaternion.fromArray(bvhTrackValue(`${joint.name}.quaternion`, t));
      joint.position.fromArray(bvhTrackValue(`${joint.name}.position`, t));
    }
  };
  const jointByBone = new Map();
  for (const joint of joints) {
    const bone = bvhHumanBoneOf(joint.name, jointNames);
    if (bone !== null && !jointByBone.has(bone)) jointByBone.set(bone, joint);
  }
  // The rest pose: BVHLoader's bones as built, before any frame is applied.
  root.updateMatrixWorld(true);
  const restWorld = new Map();
  for (const [bone, joint] of jointByBone) restWorld.set(bone, joint.getWorldQuaternion(new THREE.Quaternion()).toArray());
  const toTPose = swingsToTPose(THREE, root, (bone) => jointByBone.get(bone));
  const bvhAxes = bodyAxes(THREE, (bone) => jointByBone.get(bone)?.getWorldPosition(new THREE.Vector3()) ?? null);
  // Grounding: where the feet are over the clip, as a fraction of the hips height above the
  // floor. The motion's floor is the origin; the rest pose stands on it, or, drawn around its
  // hips (CMU: root OFFSET 0), on its lowest foot point (docs/retargeting.md, "Hips translation").
  // Heights along each rig's own up (a BVH drawn Z-up stands along +Z).
  const FEET = ['leftFoot', 'rightFoot', 'leftToes', 'rightToes'];
  const upOf = (axes) => (axes === null ? new THREE.Vector3(0, 1, 0) : axes.up);
  const lowestFoot = (positionOf, up) => Math.min(...FEET.map(positionOf).filter((p) => p !== null).map((p) => p.dot(up)));
  const bvhFoot = (bone) => (jointByBone.has(bone) ? jointByBone.get(bone).getWorldPosition(new THREE.Vector3()) : null);
  const hasFeet = FEET.some((bone) => jointByBone.has(bone)) && jointByBone.has('hips');
  const bvhUp = upOf(bvhAxes);
  const bvhHipsHeight = hasFeet ? jointByBone.get('hips').getWorldPosition(new THREE.Vector3()).dot(bvhUp) - Math.min(0, lowestFoot(bvhFoot, bvhUp)) : 0;
  let bvhLowest = Infinity;
  const expected = frameTimes.map((t) => {
    pose(t);
    root.updateMatrixWorld(true);
    if (hasFeet) bvhLowest = Math.min(bvhLowest, lowestFoot(bvhFoot, bvhUp));
    const map = new Map();
    for (const [bone, joint] of jointByBone) {
      const fromRest = multiply(joint.getWorldQuaternion(new THREE.Quaternion()).toArray(), conjugate(restWorld.get(bone)));
      map.set(bone, multiply(fromRest, conjugate(toTPose.get(joint))));
    }
    const directions = new Map();
    for (const [bone, child] of LIMB_SEGMENTS) {
      if (bvhAxes === null || !jointByBone.has(bone) || !jointByBone.has(child)) continue;
      directions.set(bone, inBody(THREE, bvhAxes, segmentDirection(THREE, jointByBone.get(bone), jointByBone.get(child))));
    }
    map.directions = directions;
    return map;
  });
  report.check(animated.size > 0 && [...animated].every((bone) => jointByBone.has(bone)),
               () => `VRMA animates [${[...animated].join(', ')}]; the BVH maps [${[...jointByBone.keys()].join(', ')}]`);
  // And the other way: every BVH joint that is a humanoid bone (by the table below) reaches the
  // VRMA, which holds all bones but the eyes (lookAt drives those). A naming animconv misread
  // leaves most of the body out (DAZ Genesis legs, arms and spine before daz-genesis naming).
  // Joints that never leave their rest rotation may be dropped (the FBX reader drops such curves).
  const moves = (joint) => frameTimes.some((t) => signFreeDistance(bvhTrackValue(`${joint.name}.quaternion`, t), [0, 0, 0, 1]) > 1e-6);
  const lost = [...jointByBone.entries()]
    .filter(([bone, joint]) => !animated.has(bone) && !/Eye$/.test(bone) && moves(joint))
    .map(([bone]) => bone);
  report.check(lost.length === 0, () => `humanoid joints of the BVH missing from the VRMA: ${lost.join(', ')}`);

  for (const path of models) {
    report.setContext(`${basename(args.vrma)} on ${basename(path)}`);
    const loaded = await loadGltfFile(THREE, GLTFLoader, path, [(parser) => new VRMLoaderPlugin(parser)]);
    for (const message of new Set(loaded.messages)) console.log(`note: loading ${basename(path)} printed ${message}`);
    const vrm = loaded.gltf.userData.vrm;
    if (!report.check(vrm?.humanoid != null, 'no VRM humanoid')) continue;
    const version = vrm.meta.metaVersion === '0' ? 0 : 1;
    addLookAtProxy(vrm, VRMLookAtQuaternionProxy);
    vrm.scene.updateMatrixWorld(true);
    const modelFoot = (bone) => vrm.humanoid.getNormalizedBoneNode(bone)?.getWorldPosition(new THREE.Vector3()) ?? null;
    const modelAxes = bodyAxes(THREE, (bone) => vrm.humanoid.getNormalizedBoneNode(bone)?.getWorldPosition(new THREE.Vector3()) ?? null);
    const modelUp = upOf(modelAxes);
    const modelHipsHeight = vrm.humanoid.getNormalizedBoneNode('hips').getWorldPosition(new THREE.Vector3()).dot(modelUp) -
                            Math.min(0, lowestFoot(modelFoot, modelUp));  // Infinity without feet: not checked
    let modelLowest = Infinity;
    const mixer = new THREE.AnimationMixer(vrm.scene);
    let action;
    withConsoleAsFailures(report, 'createVRMAnimationClip and binding', () => {
      const clip = createVRMAnimationClip(vrmAnimation, vrm);
      action = mixer.clipAction(clip);
      action.setLoop(THREE.LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
      mixer.setTime(0);
    });
    const humanoid = vrm.humanoid;
    const has = (bone) => humanoid.getNormalizedBoneNode(bone) != null;
    const comparable = [...animated].filter((bone) => {
      for (let b = bone; b !== undefined; b = VRM1_PARENT[b]) {
        if (animated.has(b) && !has(b)) return false;
      }
      return true;
    });
    // The BVH's world motion in the model's world: turned from the one's body frame to the
    // other's (up and facing from each rest pose; a VRM 0.x model faces -Z, as three-vrm-animation
    // turns it; a BVH drawn Z-up or facing +X stands otherwise). Without both frames, by version.
    const turn = bvhAxes !== null && modelAxes !== null ? bodyFrameTurn(THREE, bvhAxes, modelAxes)
      : version === 0 ? [0, 1, 0, 0] : [0, 0, 0, 1];
    let worst = 0;
    let worstDirection = 0;
    frameTimes.forEach((t, frame) => {
      action.reset();
      mixer.setTime(t);
      vrm.scene.updateMatrixWorld(true);
      modelLowest = Math.min(modelLowest, lowestFoot(modelFoot, modelUp));
      for (const bone of comparable) {
        const got = humanoid.getNormalizedBoneNode(bone).getWorldQuaternion(new THREE.Quaternion()).toArray();
        const want = multiply(multiply(turn, expected[frame].get(bone)), conjugate(turn));
        const distance = signFreeDistance(got, want);
        worst = Math.max(worst, distance);
        report.check(distance <= TOLERANCE, () => `${bone} at t=${t}: normalized world ${formatQuat(got)}, ` +
                                                  `BVH world rotation from the T-pose ${formatQuat(want)}`);
      }
      for (const [bone, child] of LIMB_SEGMENTS) {
        const want = expected[frame].directions.get(bone);
        const from = humanoid.getNormalizedBoneNode(bone);
        const to = humanoid.getNormalizedBoneNode(child);
        if (want === undefined || modelAxes === null || !from || !to || !comparable.includes(bone)) continue;
        const got = inBody(THREE, modelAxes, segmentDirection(THREE, from, to));
        const degrees = THREE.MathUtils.radToDeg(got.angleTo(want));
        worstDirection = Math.max(worstDirection, degrees);
        report.check(degrees <= DIRECTION_DEGREES, () => `${bone} at t=${t}: points ${degrees.toFixed(1)}° away from the BVH's ` +
                                                          `(model ${got.toArray().map((c) => c.toFixed(3))}, BVH ${want.toArray().map((c) => c.toFixed(3))})`);
      }
    });
    const modelHasFeet = FEET.some((bone) => modelFoot(bone) !== null);
    // A model whose bones all sit at the origin (vrmaddon_minimal_vrm0) has no height to compare.
    if (hasFeet && modelHasFeet && modelHipsHeight > 0.01 && vrmAnimation.humanoidTracks.translation.has('hips')) {
      // Legs of other proportions (hips height vs leg length, where the ankle and toe joints
      // sit) move the feet by a few per cent of the hips height: 15 % is allowed. An unscaled or
      // wrongly scaled hips translation puts the feet 40-90 % of the hips height off.
      const source = bvhLowest / bvhHipsHeight;
      const played = modelLowest / modelHipsHeight;
      report.check(Math.abs(played - source) <= 0.15,
                   () => `grounding: the lowest foot point over the clip is ${played.toFixed(3)} hips heights above the ` +
                         `floor on the model (${modelLowest.toFixed(3)} m), ${source.toFixed(3)} in the BVH`);
      console.log(`${basename(path)}: lowest foot point ${played.toFixed(3)} hips heights above the floor ` +
                  `(BVH: ${source.toFixed(3)})`);
    }
    console.log(`${basename(path)}: VRM ${version === 0 ? '0.x' : '1.0'}; ${comparable.length} of ${animated.size} ` +
                `animated bones compared over ${frameTimes.length} frames; largest difference ${worst.toExponential(2)}; ` +
                `limbs point at most ${worstDirection.toFixed(2)}° from the BVH's`);
  }
}
