#!/usr/bin/env node
// Property test of `animconv diff` (docs/cli.md, `diff`): for pairs of files the interop suite
// produces (a source and its conversion), `diff --json A B` must agree with three.js r187's own
// sampling of the two files. three reads each side with its own loader (GLTFLoader for .gltf/.glb/
// .vrm/.vrma, AnimationClip.parse for three.js JSON, BVHLoader for .bvh) and evaluates every track
// with the track's own interpolant (KeyframeTrack.createInterpolant: linear, slerp, discrete,
// GLTFCubicSplineInterpolant); the poses are set on three's objects and world values come from
// three's matrixWorld. For every channel diff reports:
//   (a) at the channel's time_of_max_seconds, the error three.js measures equals diff's max within
//       float32 (three keeps keys and interpolated values in Float32Arrays); where a discrete
//       (step) track has a key at that time, the larger of three's error there and just before it
//       (diff reports a step's left limit at the key's time);
//   (b) on a dense grid (the key times of both clips plus 9 evenly spaced times between each
//       pair, the midpoint among them, and the times just before each discrete track's keys,
//       where a step still holds its previous key) three.js never measures more than diff's max
//       plus float32 plus the chord fraction diff documents (1 % of the --reduce tolerance:
//       0.001°, 1 µm, 1e-5 ratio, 1e-5 weight).
// The error is diff's: in the space diff says it used (`space.name`), rotations as the angle
// between the two (world rotations from the T-pose, W(t)·W_rest⁻¹·S⁻¹, S the turn from the rest
// pose to the T-pose that lib/tpose.mjs works out from the VRM T-pose, identity for a rig drawn
// in it; the humanoid bones it needs are those `animconv info --json` names), translations as
// the distance (B's world positions times space.translation_scale), scales as max |b/a − 1| with
// |a| floored at 1e-3, weights as the largest difference (targets by name when both sides name
// them). A channel only in one clip is compared with the other side's rest value (world: rest).
//
// usage: node check_diff_three.mjs --animconv BIN [--perturb] [--max-failure-lines N]
//                                  A B [A B ...]
// --perturb turns every max diff reports into 1.5 × max + 0.01 (its unit) before checking, so the
// check must fail
// (the detects-* self-test). Prints one line per failure and "N passed, N failed".

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { splitContainer } from './lib/glb.mjs';
import { swingsToTPose } from './lib/tpose.mjs';
import { HUMAN_BONES, VRM1_PARENT } from './lib/vrm.mjs';
import { Report, parseArgs, requireModules, stubProgressEvent, usage } from './lib/common.mjs';

requireModules(['three']);
const THREE = await import('three');
const { BVHLoader } = await import('three/addons/loaders/BVHLoader.js');
const { dropEmptyChannels, loadWithThree, renormaliseRotationKeys, unstrideAnimationAccessors } =
  await import('./lib/gltf_load.mjs');

const args = parseArgs(process.argv.slice(2), {
  flags: ['perturb'], options: ['animconv', 'max-failure-lines'],
});
if (!args.animconv) usage('--animconv is required');
if (args.positional.length === 0 || args.positional.length % 2 !== 0) usage('give pairs of files: A B [A B ...]');
const report = new Report(args['max-failure-lines'] === undefined ? 200 : Number(args['max-failure-lines']));
stubProgressEvent();

// 1 % of the --reduce default tolerances (include/animconv/reduce.h): diff's documented bound on
// what its samples can miss of a cubic curve between them.
const CHORD = { deg: 0.1 * 0.01, m: 1e-4 * 0.01, ratio: 1e-3 * 0.01, weight: 1e-3 * 0.01 };
const SCALE_FLOOR = 1e-3;  // libconvert/value_error.h kScaleRatioFloor
const BETWEEN = 9;  // odd: the midpoint, where a symmetric curve is farthest from its chord

// float32: a key or an interpolated value is rounded to 2^-24 relative per component. An angle
// from float32 quaternions is good to ~1e-5° (two components of ~6e-8 rad each, plus the
// renormalisation); a position to 6e-8 of its size (BVH centimetres: of the size in cm).
function slack(unit, value, magnitude) {
  switch (unit) {
    case 'deg': return 1e-4 + 1e-5 * value;
    case 'm': return 1e-6 * Math.max(value, magnitude, 1e-2) + 1e-7;
    case 'ratio': return 2e-5 * Math.max(1, value);
    default: return 1e-6 * Math.max(1, value);
  }
}

// --- loading ------------------------------------------------------------------------------------

// One side: its clips, its objects by animconv's node name, its rest pose, and the factor that
// brings its lengths to metres (BVH: centimetres, as animconv reads it).
async function loadSide(file) {
  if (/\.(gltf|glb|vrm|vrma)$/i.test(file)) return loadGltfSide(file);
  if (/\.bvh$/i.test(file)) return loadBvhSide(file);
  if (/\.json$/i.test(file)) return loadThreeSide(file);
  throw new Error(`${file}: no three.js loader for this extension`);
}

async function loadGltfSide(file) {
  const container = splitContainer(new Uint8Array(readFileSync(file)));
  const names = (container.json.nodes ?? []).map((node, index) => node.name ?? `node_${index}`);
  // animconv names an unnamed node node_<index>; the copy three loads carries that name too.
  // three ignores byteStride on animation accessors and throws on a track without keys, so the
  // copy is made playable first (as check_gltf.mjs does); nothing that plays changes.
  const { gltf } = await loadWithThree(file, container, (json) => {
    (json.nodes ?? []).forEach((node, index) => { if (!node.name) node.name = `node_${index}`; });
    unstrideAnimationAccessors(file, container, json, []);
    dropEmptyChannels(json, []);
  });
  // diff renormalises rotation keys first (a quaternion's length is no error): so does three's copy.
  renormaliseRotationKeys(gltf.animations);
  const nodes = await gltf.parser.getDependencies('node');
  const byName = new Map();
  const duplicates = new Set();
  nodes.forEach((object, index) => {
    if (byName.has(names[index])) duplicates.add(names[index]);
    else byName.set(names[index], object);
  });
  const root = gltf.root;
  // The unique names GLTFLoader gave the objects ("Head", "Head_1" for two nodes "Head"), which a
  // three.js clip of this glTF names its tracks after.
  const byObjectName = new Map();
  nodes.forEach((object) => { if (!byObjectName.has(object.name)) byObjectName.set(object.name, object); });
  const tracks = (clip) => clip.tracks.map((track) => {
    const { nodeName, propertyName, propertyIndex } = THREE.PropertyBinding.parseTrackName(track.name);
    return { track, object: THREE.PropertyBinding.findNode(root, nodeName), propertyName, propertyIndex };
  });
  return { file, clips: gltf.animations, root, byName, byObjectName, duplicates, tracks, unit: 1 };
}

function loadBvhSide(file) {
  const { skeleton, clip } = new BVHLoader().parse(readFileSync(file, 'utf8'));
  const root = new THREE.Group();
  root.add(skeleton.bones[0]);
  const byName = new Map(skeleton.bones.map((bone) => [bone.name, bone]));
  clip.name = file.replace(/^.*\//, '').replace(/\.bvh$/i, '');
  const tracks = (c) => c.tracks.map((track) => {
    // BVHLoader names its tracks JOINT.quaternion / JOINT.position with the joint's raw name,
    // which three's track-name parser cannot always read ('mixamorig:Hips'): split at the last dot.
    const dot = track.name.lastIndexOf('.');
    return { track, object: byName.get(track.name.slice(0, dot)), propertyName: track.name.slice(dot + 1) };
  });
  // animconv's BVH reader computes BVHLoader's quaternion product in double (formats/bvh), but
  // BVHLoader keeps its tracks in Float32Array (KeyframeTrack's value buffer), so three sees this
  // side rounded to float32 where diff sees the double: up to ~4e-4° near half turns (measured:
  // threejs_pirouette.bvh rShldr at 2.35 s, 3.26e-4°, the same with Assimp's float32 reading
  // before). That is the reference's rounding, not diff's error.
  return { file, clips: [clip], root, byName, duplicates: new Set(), tracks, unit: 0.01, readerDeg: 1e-3 };
}

function loadThreeSide(file) {
  const json = JSON.parse(readFileSync(file, 'utf8'));
  const clips = (Array.isArray(json) ? json : [json]).map((c) => THREE.AnimationClip.parse(c));
  renormaliseRotationKeys(clips);
  // A three.js clip has no scene: one object per track node, all at the root (no rest pose, no
  // hierarchy), as animconv's reader builds its rig.
  const root = new THREE.Group();
  const byName = new Map();
  const objectOf = (name) => {
    if (!byName.has(name)) {
      const object = new THREE.Object3D();
      object.name = name;
      root.add(object);
      byName.set(name, object);
    }
    return byName.get(name);
  };
  for (const clip of clips) {
    for (const track of clip.tracks) {
      const { nodeName, propertyName, propertyIndex } = THREE.PropertyBinding.parseTrackName(track.name);
      const object = objectOf(nodeName);
      if (propertyName !== 'morphTargetInfluences') continue;
      object.morphTargetDictionary ??= {};
      object.morphTargetInfluences ??= [];
      if (propertyIndex === undefined) {
        while (object.morphTargetInfluences.length < track.getValueSize()) object.morphTargetInfluences.push(0);
      } else if (!(propertyIndex in object.morphTargetDictionary)) {
        object.morphTargetDictionary[propertyIndex] = object.morphTargetInfluences.length;
        object.morphTargetInfluences.push(0);
      }
    }
  }
  const tracks = (clip) => clip.tracks.map((track) => {
    const { nodeName, propertyName, propertyIndex } = THREE.PropertyBinding.parseTrackName(track.name);
    return { track, object: byName.get(nodeName), propertyName, propertyIndex };
  });
  return { file, clips, root, byName, duplicates: new Set(), tracks, unit: 1, noRestPose: true };
}

// A side's humanoid bones (`animconv info --json`: which node is which bone; the turn to the
// T-pose is worked out here) as a lookup from VRM 1.0 bone name to the side's object.
function humanObjects(side) {
  const info = JSON.parse(execFileSync(args.animconv, ['-q', 'info', '--json', side.file], { encoding: 'utf8' }));
  const objects = new Map();
  for (const { bone, node } of info.humanoid?.bones ?? []) {
    if (!objects.has(bone) && side.byName.has(node)) objects.set(bone, side.byName.get(node));
  }
  return (bone) => objects.get(bone);
}

// --- posing -------------------------------------------------------------------------------------

function morphObjects(object) {
  const found = [];
  object.traverse((o) => { if (o.morphTargetInfluences) found.push(o); });
  return found;
}

// A side posed by one clip with the tracks' own interpolants. Objects no track animates keep
// their rest values; every call starts from the rest pose.
class Pose {
  constructor(side, clip) {
    this.side = side;
    this.entries = side.tracks(clip).filter((entry) => entry.object).map((entry) => ({
      ...entry,
      interpolant: entry.track.createInterpolant(),
      targets: entry.propertyName === 'morphTargetInfluences' ? morphObjects(entry.object) : [entry.object],
    }));
    this.rest = [];
    side.root.traverse((o) => this.rest.push([o, o.position.clone(), o.quaternion.clone(), o.scale.clone(),
                                              o.morphTargetInfluences ? [...o.morphTargetInfluences] : null]));
    side.root.updateMatrixWorld(true);
    this.restWorld = new Map();
    side.root.traverse((o) => this.restWorld.set(o, {
      quaternion: o.getWorldQuaternion(new THREE.Quaternion()),
      position: o.getWorldPosition(new THREE.Vector3()),
      scale: o.getWorldScale(new THREE.Vector3()),
    }));
    this.restLocal = new Map(this.rest.map(([o, p, q, s, w]) => [o, { p, q, s, w }]));
    this.swing = side.noRestPose ? new Map() : swingsToTPose(THREE, side.root, humanObjects(side));
  }
  reset() {
    for (const [o, p, q, s, w] of this.rest) {
      o.position.copy(p);
      o.quaternion.copy(q);
      o.scale.copy(s);
      if (w) o.morphTargetInfluences.splice(0, w.length, ...w);
    }
  }
  at(t) {
    this.reset();
    for (const { interpolant, object, targets, propertyName, propertyIndex } of this.entries) {
      const v = interpolant.evaluate(t);
      if (propertyName === 'quaternion') object.quaternion.fromArray(v);
      else if (propertyName === 'position') object.position.fromArray(v);
      else if (propertyName === 'scale') object.scale.fromArray(v);
      else if (propertyName === 'morphTargetInfluences') {
        for (const target of targets) {
          if (propertyIndex === undefined) {
            for (let i = 0; i < v.length; ++i) target.morphTargetInfluences[i] = v[i];
          } else {
            const index = /^\d+$/.test(propertyIndex) ? Number(propertyIndex) : target.morphTargetDictionary?.[propertyIndex];
            if (index !== undefined) target.morphTargetInfluences[index] = v[0];
          }
        }
      }
    }
    this.side.root.updateMatrixWorld(true);
  }
}

// --- diff's metric, on three's values -----------------------------------------------------------

function angleDegrees(a, b) {
  let d = 0;
  for (let i = 0; i < 4; ++i) d += a[i] * b[i];
  const lengths = Math.hypot(...a) * Math.hypot(...b);
  return 2 * Math.acos(Math.min(1, Math.abs(d) / lengths)) * 180 / Math.PI;
}

function scaleRatio(a, b) {
  let worst = 0;
  for (let i = 0; i < 3; ++i) {
    worst = Math.max(worst, Math.abs(a[i]) >= SCALE_FLOOR ? Math.abs(b[i] / a[i] - 1) : Math.abs(b[i] - a[i]) / SCALE_FLOOR);
  }
  return worst;
}

function weightError(a, b, namesA, namesB) {
  // By target name when both sides name all their targets, else by index (docs/cli.md).
  const named = namesA && namesB && namesA.length === a.length && namesB.length === b.length;
  let worst = 0;
  if (named) {
    const all = new Set([...namesA, ...namesB]);
    for (const name of all) {
      const x = namesA.includes(name) ? a[namesA.indexOf(name)] : 0;
      const y = namesB.includes(name) ? b[namesB.indexOf(name)] : 0;
      worst = Math.max(worst, Math.abs(x - y));
    }
    return worst;
  }
  for (let i = 0; i < Math.max(a.length, b.length); ++i) worst = Math.max(worst, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return worst;
}

function targetNames(object) {
  const mesh = object && morphObjects(object)[0];
  if (!mesh?.morphTargetDictionary) return null;
  const names = [];
  for (const [name, index] of Object.entries(mesh.morphTargetDictionary)) names[index] = name;
  return names.length && !names.includes(undefined) && !names.every((n, i) => n === String(i)) ? names : null;
}

function weightsOf(object, restLocal) {
  const mesh = morphObjects(object)[0];
  if (!mesh) return [];
  return restLocal ? (restLocal.get(mesh).w ?? []) : [...mesh.morphTargetInfluences];
}

// The value of one channel's side at the current pose: what diff compares, in metres.
function valueOf(channel, pose, object, world, ownRest) {
  const unit = pose.side.unit;
  if (channel.path === 'weights') return weightsOf(object, ownRest ? pose.restLocal : null);
  if (world) {
    // The other side lacks the node: this node held at its rest local value under its animated
    // parent (clip_diff_world.cpp), so only its own motion counts.
    const at = ownRest ? object.parent : object;
    const rest = pose.restWorld.get(at);
    if (channel.path === 'rotation') {
      if (!at || !rest) return [0, 0, 0, 1];
      const fromRest = at.getWorldQuaternion(new THREE.Quaternion()).multiply(rest.quaternion.clone().invert());
      const swing = pose.swing.get(at);
      return (swing ? fromRest.multiply(new THREE.Quaternion().fromArray(swing).invert()) : fromRest).toArray();
    }
    if (channel.path === 'translation') {
      const p = ownRest ? pose.restLocal.get(object).p.clone().applyMatrix4(object.parent?.matrixWorld ?? new THREE.Matrix4())
                        : object.getWorldPosition(new THREE.Vector3());
      return p.toArray().map((x) => x * unit);
    }
    if (!at || !rest) return [1, 1, 1];
    const s = at.getWorldScale(new THREE.Vector3());
    return [s.x / rest.scale.x, s.y / rest.scale.y, s.z / rest.scale.z];
  }
  const local = ownRest ? pose.restLocal.get(object) : { p: object.position, q: object.quaternion, s: object.scale };
  if (channel.path === 'rotation') return local.q.toArray();
  if (channel.path === 'translation') return local.p.toArray().map((x) => x * unit);
  return local.s.toArray();
}

function errorOf(channel, a, b, namesA, namesB) {
  // A VRMA expression node's translation is the expression's weight, its x (three-vrm-animation
  // reads x alone): diff reports it as a weight.
  if (channel.path === 'translation' && channel.unit === 'weight') return Math.abs(a[0] - b[0]);
  switch (channel.path) {
    case 'rotation': return angleDegrees(a, b);
    case 'translation': return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    case 'scale': return scaleRatio(a, b);
    default: return weightError(a, b, namesA, namesB);
  }
}

// --- one pair -----------------------------------------------------------------------------------

// The clip diff compared, by its name. three drops a clip without keys (and GLTFLoader names an
// unnamed one as animconv does, animation_<i>), so a name three lacks is an empty clip: every
// channel is then at rest on that side, as diff compares it.
function clipOf(side, name) {
  return side.clips.find((clip) => clip.name === name) ??
    (side.clips.length === 1 && !/\.(gltf|glb|vrm|vrma)$/i.test(side.file) ? side.clips[0]
                                                                         : new THREE.AnimationClip(name, 0, []));
}

// diff reads a humanoid three.js clip without a rest pose as normalised rotations on the T-pose
// rig when it faces the other way than the VRMA it is compared with (a.read_as_normalised_humanoid
// in diff's JSON): then its objects hang in the VRM 1.0 humanoid hierarchy (nearest present
// ancestor), with identity rest rotations, as convert retargets such a clip. The bone of each name
// comes from the humanoid tables (Unity, VRM 0.x or VRM 1.0 naming; a VRM 0.x thumb chain names
// "ThumbIntermediate", which VRM 1.0 lacks).
function hangInHumanoidHierarchy(side) {
  const names = [...side.byName.keys()];
  const column = names.some((name) => /Thumb(Intermediate)$/.test(name)) ? 1
    : names.some((name) => /^[A-Z]/.test(name) && HUMAN_BONES.some((row) => row[0] === name)) ? 0 : 2;
  const objectOfBone = new Map();
  for (const row of HUMAN_BONES) {
    const object = side.byName.get(row[column]);
    if (object) objectOfBone.set(row[2], object);
  }
  for (const [bone, object] of objectOfBone) {
    let parent = VRM1_PARENT[bone];
    while (parent && !objectOfBone.has(parent)) parent = VRM1_PARENT[parent];
    if (parent) objectOfBone.get(parent).add(object);
  }
  return objectOfBone.size;
}

// The clip to compare, named: A's first clip (as three.js loaded it) that B has by name, else
// A's first. Named because animconv's A can hold a clip three.js drops (one without keys, which
// comes first in magnum's animation.gltf and which a glTF conversion leaves out), and diff
// refuses to guess a clip of another name.
function clipArguments(sideA, sideB) {
  const namesB = new Set(sideB.clips.map((clip) => clip.name));
  const chosen = sideA.clips.find((clip) => namesB.has(clip.name)) ?? sideA.clips[0];
  return chosen ? ['--clip', chosen.name] : [];
}

async function checkPair(fileA, fileB) {
  report.setContext(`${fileA} vs ${fileB}`);
  const sideA = await loadSide(fileA);
  const sideB = await loadSide(fileB);
  let diff;
  try {
    diff = JSON.parse(execFileSync(args.animconv, ['-q', 'diff', '--json', fileA, fileB, ...clipArguments(sideA, sideB)],
                                   { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 }));
  } catch (error) {
    report.fail(`animconv diff failed: ${String(error.stderr ?? error.message).trim()}`);
    return;
  }
  for (const [side, json] of [[sideA, diff.a], [sideB, diff.b]]) {
    if (json.read_as_normalised_humanoid) {
      report.check(hangInHumanoidHierarchy(side) > 0, `${side.file}: no humanoid bone to hang in the hierarchy`);
    }
  }
  const clipA = clipOf(sideA, diff.a.clip);
  const clipB = clipOf(sideB, diff.b.clip);
  const poseA = new Pose(sideA, clipA);
  const poseB = new Pose(sideB, clipB);
  if (!report.check(diff.space, 'the diff JSON has no space')) diff.space = { name: 'local', translation_scale: 1 };
  const world = diff.space.name === 'world';
  const scaleB = diff.space.translation_scale;
  const turnB = diff.space.turn_b === true;
  // B's world into A's by the signed permutation diff reports (row-major; the half turn about +Y
  // between ±Z facings, a quarter turn about X for a rig drawn Z-up): a vector is M·v, a
  // rotation's vector part too (M is proper), its w stays.
  const m = diff.space.turn_b_matrix ?? [-1, 0, 0, 0, 1, 0, 0, 0, -1];
  const times = (v) => [0, 1, 2].map((r) => m[3 * r] * v[0] + m[3 * r + 1] * v[1] + m[3 * r + 2] * v[2]);
  const turn = (path, v) => (path === 'rotation' ? [...times(v), v[3]]
                             : path === 'translation' ? times(v) : v);

  // The objects of every channel; a name three cannot place (a duplicate) is left out and said.
  const channels = [];
  let skipped = 0;
  for (const channel of diff.channels) {
    let nameA = channel.only_in_b && !sideA.byName.has(channel.node) ? null : channel.node;
    let nameB = channel.node_b || null;
    let objectA = nameA && sideA.byName.get(nameA);
    let objectB = nameB && sideB.byName.get(nameB);
    // A name two nodes of a glTF share, against a side that names it uniquely (its three.js clip,
    // "Head_1"): the glTF object three.js itself binds that unique name to.
    if (nameA && nameB && sideA.duplicates.has(nameA) && !sideB.duplicates.has(nameB) && sideA.byObjectName?.has(nameB)) {
      objectA = sideA.byObjectName.get(nameB);
      nameA = null;
    }
    if (nameA && nameB && sideB.duplicates.has(nameB) && !sideA.duplicates.has(nameA) && sideB.byObjectName?.has(nameA)) {
      objectB = sideB.byObjectName.get(nameA);
      nameB = null;
    }
    if ((nameA && (!objectA || sideA.duplicates.has(nameA))) || (nameB && (!objectB || sideB.duplicates.has(nameB)))) {
      ++skipped;
      continue;
    }
    // --perturb: a diff that reports 1.5 times its max plus 0.01 of its unit, far outside float32.
    const max = args.perturb ? channel.max * 1.5 + 0.01 : channel.max;
    channels.push({ channel, max, objectA, objectB, namesA: targetNames(objectA), namesB: targetNames(objectB),
                    atMax: 0, gridMax: 0, gridTime: 0, magnitude: 0 });
  }
  // diff names nodes, and two nodes may share a name (RobotExpressive's joint and mesh "Head"):
  // those channels are left out, and the count is said.
  if (skipped > 0) console.log(`${fileA} vs ${fileB}: ${skipped} of ${diff.channels.length} channels left out: their node names are not unique`);
  report.check(channels.length > 0 || diff.channels.length === 0, 'no channel three.js can place');
  // A channel diff calls only in one clip must be one three.js does not bind on the other side:
  // no track of the other clip animates the object of that name (GLTFLoader's unique object
  // names for a glTF: "Head_1" is the second node "Head") with that property.
  const PROPERTY = { rotation: 'quaternion', translation: 'position', scale: 'scale', weights: 'morphTargetInfluences' };
  for (const channel of diff.channels) {
    if (!channel.only_in_a && !channel.only_in_b) continue;
    const [other, clip, name] = channel.only_in_a ? [sideB, clipB, channel.node_b || channel.node] : [sideA, clipA, channel.node];
    const object = other.byObjectName?.get(name) ?? (other.duplicates.has(name) ? null : other.byName.get(name));
    if (!object || channel.path === 'weights') continue;
    const bound = other.tracks(clip).some((entry) => entry.object === object && entry.propertyName === PROPERTY[channel.path]);
    report.check(!bound, () => `${channel.node}.${channel.path}: diff calls it only in ${channel.only_in_a ? 'A' : 'B'}, ` +
                               `but three.js binds a track of the other clip to '${name}'`);
  }

  const measure = (entry) => {
    const { channel, objectA, objectB } = entry;
    // A side without the channel: locally, the other rig's rest value of the node, else this
    // rig's own (clip_diff.h); in world space the node as that side poses it, else at rest.
    let a = channel.only_in_b ? (objectA ? valueOf(channel, poseA, objectA, world, !world)
                                            : valueOf(channel, poseB, objectB, world, true))
                                : valueOf(channel, poseA, objectA, world, false);
    let b = channel.only_in_a ? (objectB ? valueOf(channel, poseB, objectB, world, !world)
                                          : valueOf(channel, poseA, objectA, world, true))
                              : valueOf(channel, poseB, objectB, world, false);
    // B's positions, whichever of its nodes gives them, carry the hips-height scale.
    if (world && channel.path === 'translation' && objectB) b = b.map((x) => x * scaleB);
    if (world && channel.path === 'translation' && !objectA) a = a.map((x) => x * scaleB);
    // Rigs standing or facing differently: B's world values turned into A's frame (above),
    // whichever side's value B's pose gave.
    if (world && turnB) {
      if (objectB || !channel.only_in_a) b = turn(channel.path, b);
      if (!objectA && channel.only_in_b) a = turn(channel.path, a);
    }
    if (channel.path === 'translation') entry.magnitude = Math.max(entry.magnitude, Math.hypot(...a) / (objectA ? sideA.unit : 1));
    return errorOf(channel, a, b, entry.namesA, entry.namesB);
  };

  // The key times of discrete tracks: just before them a step still holds its previous key.
  // BEFORE is far below any key spacing and far above a double's resolution of a clip's times.
  const BEFORE = 1e-9;
  const jumps = new Set();
  for (const clip of [clipA, clipB]) {
    for (const track of clip.tracks) {
      if (track.getInterpolation() !== THREE.InterpolateDiscrete) continue;
      track.times.forEach((t, k) => { if (k > 0) jumps.add(t); });
    }
  }
  // (a) at each channel's time of max.
  const byTime = new Map();
  for (const entry of channels) {
    const t = entry.channel.time_of_max_seconds;
    if (!byTime.has(t)) byTime.set(t, []);
    byTime.get(t).push(entry);
  }
  for (const [t, entries] of byTime) {
    poseA.at(t);
    poseB.at(t);
    for (const entry of entries) entry.atMax = measure(entry);
    if (!jumps.has(Math.fround(t)) && !jumps.has(t)) continue;
    poseA.at(t - BEFORE);
    poseB.at(t - BEFORE);
    for (const entry of entries) entry.atMax = Math.max(entry.atMax, measure(entry));
  }
  // (b) the dense grid: both clips' key times and 9 between each pair.
  const keys = new Set();
  for (const clip of [clipA, clipB]) for (const track of clip.tracks) for (const t of track.times) keys.add(t);
  const sorted = [...keys].sort((x, y) => x - y);
  const grid = [];
  sorted.forEach((t, k) => {
    if (jumps.has(t)) grid.push(t - BEFORE);
    grid.push(t);
    if (k + 1 < sorted.length) for (let i = 1; i <= BETWEEN; ++i) grid.push(t + (sorted[k + 1] - t) * i / (BETWEEN + 1));
  });
  for (const t of grid) {
    poseA.at(t);
    poseB.at(t);
    for (const entry of channels) {
      const e = measure(entry);
      if (e > entry.gridMax) { entry.gridMax = e; entry.gridTime = t; }
    }
  }
  let worst = 0;
  for (const entry of channels) {
    const { channel, max } = entry;
    const name = `${channel.node}${channel.node_b && channel.node_b !== channel.node ? `->${channel.node_b}` : ''}.${channel.path}`;
    const tolerance = slack(channel.unit, max, entry.magnitude) +
                      (channel.unit === 'deg' ? (sideA.readerDeg ?? 0) + (sideB.readerDeg ?? 0) : 0);
    report.check(Math.abs(entry.atMax - max) <= tolerance,
                 () => `${name}: at diff's time of max ${channel.time_of_max_seconds} s three.js measures ${entry.atMax} ` +
                       `${channel.unit}, diff reports ${max}`);
    report.check(entry.gridMax <= max + tolerance + CHORD[channel.unit],
                 () => `${name}: three.js measures ${entry.gridMax} ${channel.unit} at ${entry.gridTime} s, more than ` +
                       `diff's max ${max}`);
    worst = Math.max(worst, Math.abs(entry.atMax - max) / tolerance);
  }
  console.log(`${fileA} vs ${fileB}: space ${diff.space.name}${world ? ` (${diff.space.reason})` : ''}, ` +
              `${channels.length} channels, ${grid.length} grid times; worst |three - diff| at the time of max ` +
              `${(worst * 100).toFixed(1)} % of the float32 slack`);
}

for (let i = 0; i < args.positional.length; i += 2) {
  try {
    await checkPair(args.positional[i], args.positional[i + 1]);
  } catch (error) {
    report.fail(`threw ${error?.stack ?? error}`);
  }
}
report.setContext('');
console.log(`${args.positional.length / 2} pairs`);
report.finish();
process.exit(process.exitCode);
