#!/usr/bin/env node
// Checks animconv's legacy hierarchy JSON (`--to three-hierarchy`, `.hierarchy.json`) with
// three.js r125 (npm three@0.125.1, installed as `three-r125`; the seed article's version, which
// still has AnimationClip.parseAnimation — it was removed in r185) against the ORIGINAL Unity CSV.
//
// usage: node check_three_hierarchy.mjs --csv anim.csv --bones bone.txt --interval 0.2 --mirror z
//                                       [--time-unit s|ms] [--max-failure-lines N] FILE.hierarchy.json ...
//
// Per file: one hierarchy entry per bone (`keys: []` for bones that are 0,0,0,0 in every row),
// `bones` naming the bone list in order with valid parents. Then the consumer side: THREE.Bone
// objects from json.bones, a Skeleton and a SkinnedMesh bound to it, and
// THREE.AnimationClip.parseAnimation(json, skeleton.bones), whose tracks are named
// `.bones[NAME].quaternion` and bind to the mixer root's skeleton. An AnimationMixer on the mesh
// is then sampled at every row time and every midpoint between rows (times in ms with
// --time-unit ms) and each bone's .quaternion must equal the CSV's mirrored, normalised
// rotation (q ≡ -q), resp. the short-path slerp of the neighbouring rows, within 1e-6.
//
// Prints one line per failure and ends with "N passed, N failed"; exit status 1 on failure.

import {
  EPS, Report, expectedBones, firstHemisphereFlip, formatQuat, parseArgs, poseAt, readBoneList, readJson, readUnityCsv,
  requireModules, sampleTimes, signFreeDistance, usage, withConsoleAsFailures,
} from './lib/common.mjs';

requireModules(['three-r125']);
const THREE = await import('three-r125');

const args = parseArgs(process.argv.slice(2), {
  flags: [],
  options: ['csv', 'bones', 'interval', 'mirror', 'time-unit', 'max-failure-lines'],
});
for (const required of ['csv', 'bones', 'interval', 'mirror']) {
  if (args[required] === undefined) usage(`--${required} is required`);
}
if (args.positional.length === 0) usage('no hierarchy JSON file given');
const interval = Number(args.interval);
if (!(interval > 0)) usage(`--interval must be a positive number, not '${args.interval}'`);
const timeUnit = args['time-unit'] ?? 's';
if (timeUnit !== 's' && timeUnit !== 'ms') usage(`--time-unit must be s or ms, not '${timeUnit}'`);
const timeScale = timeUnit === 'ms' ? 1000 : 1;

const report = new Report(args['max-failure-lines'] === undefined ? 200 : Number(args['max-failure-lines']));

const boneNames = readBoneList(args.bones);
const rows = readUnityCsv(args.csv, boneNames.length);
const expected = expectedBones(rows, boneNames, { interval, mirrorAxis: args.mirror, timeScale });
const animated = expected.filter((bone) => bone.keys.length > 0);
const missing = expected.filter((bone) => bone.keys.length === 0);
const samples = sampleTimes(rows.length, interval, timeScale);

console.log(`three r${THREE.REVISION}: ${args.csv}: ${rows.length} rows x ${boneNames.length} bones ` +
            `every ${interval} s, mirror ${args.mirror}, times in ${timeUnit}; ${animated.length} ` +
            `animated, ${missing.length} missing (0,0,0,0): ${missing.map((b) => b.name).join(', ') || 'none'}`);

for (const file of args.positional) {
  report.setContext(file);
  const loaded = report.attempt('JSON.parse of the file', () => readJson(file));
  if (loaded.ok) checkHierarchy(loaded.value);
}
report.setContext('');
report.finish();

function isFiniteArray(value, length) {
  return Array.isArray(value) && value.length === length && value.every(Number.isFinite);
}

function checkHierarchy(json) {
  // --- the JSON as written -------------------------------------------------------------------
  if (!report.check(Array.isArray(json.hierarchy), 'hierarchy is not an array')) return;
  if (!report.check(Array.isArray(json.bones), 'bones is not an array')) return;
  report.check(json.hierarchy.length === boneNames.length,
               () => `${json.hierarchy.length} hierarchy entries, expected ${boneNames.length} (one per bone)`);
  report.check(json.bones.length === boneNames.length,
               () => `${json.bones.length} bones records, expected ${boneNames.length}`);
  const length = (rows.length - 1) * interval * timeScale;
  report.check(typeof json.length === 'number' && Math.abs(json.length - length) <= 1e-9 * timeScale,
               () => `length ${json.length}, expected ${length} ((rows-1) x interval in ${timeUnit})`);
  if ('fps' in json) {
    // Informational only (parseAnimation does not scale times by it): keys per second.
    report.check(typeof json.fps === 'number' && Math.abs(json.fps - 1 / interval) <= 1e-9 / interval,
                 () => `fps ${json.fps}, expected ${1 / interval} or no fps`);
  }
  const count = Math.min(json.bones.length, boneNames.length);
  for (let i = 0; i < count; ++i) {
    const record = json.bones[i];
    report.check(record.name === boneNames[i],
                 () => `bones[${i}].name ${JSON.stringify(record.name)}, expected ${JSON.stringify(boneNames[i])}`);
    report.check(Number.isInteger(record.parent) && record.parent >= -1 && record.parent < json.bones.length &&
                 record.parent !== i,
                 () => `bones[${i}].parent ${record.parent} is not -1 or another bone's index`);
    // Rest values are written only when the source had a rest pose (a Unity CSV has none); when
    // present they must all be there and finite.
    const rest = [record.pos, record.rotq, record.scl];
    report.check(rest.every((v) => v === undefined) ||
                 (isFiniteArray(record.pos, 3) && isFiniteArray(record.rotq, 4) && isFiniteArray(record.scl, 3)),
                 () => `bones[${i}] pos/rotq/scl are not absent or 3/4/3 finite numbers`);
    if (i < json.hierarchy.length) {
      report.check(json.hierarchy[i].parent === record.parent,
                   () => `hierarchy[${i}].parent ${json.hierarchy[i].parent} differs from bones[${i}].parent ${record.parent}`);
    }
  }
  for (let i = 0; i < Math.min(json.hierarchy.length, expected.length); ++i) {
    const bone = expected[i];
    const keys = json.hierarchy[i].keys;
    if (!report.check(Array.isArray(keys), () => `hierarchy[${i}] (${bone.name}) has no keys array`)) continue;
    if (bone.keys.length === 0) {
      report.check(keys.length === 0,
                   () => `hierarchy[${i}] (${bone.name}) is 0,0,0,0 in every row, expected keys: [], found ${keys.length} keys`);
      continue;
    }
    const times = keys.map((key) => key.time);
    const want = bone.keys.map((key) => key.time);
    report.check(times.length === want.length && times.every((t, k) => Math.fround(t) === want[k]),
                 () => `hierarchy[${i}] (${bone.name}) key times [${times.join(',')}], expected [${want.join(',')}]`);
    report.check(keys.every((key) => isFiniteArray(key.rot, 4) && !('pos' in key) && !('scl' in key)),
                 () => `hierarchy[${i}] (${bone.name}): every key must have rot (4 numbers) and nothing else`);
    const flip = firstHemisphereFlip(keys.flatMap((key) => key.rot ?? []));
    report.check(flip < 0,
                 () => `hierarchy[${i}] (${bone.name}): keys ${flip - 1} and ${flip} are not sign-aligned (dot < 0)`);
  }
  // Detect cycles before building the skeleton (a cycle would make Object3D.add loop).
  const acyclic = json.bones.every((record, i) => {
    let steps = 0;
    for (let p = record.parent; Number.isInteger(p) && p >= 0; p = json.bones[p]?.parent) {
      if (++steps > json.bones.length || p === i) return false;
    }
    return true;
  });
  if (!report.check(acyclic, 'the bones parents form a cycle')) return;

  // --- the consumer: Bone objects, Skeleton, SkinnedMesh, parseAnimation ----------------------
  const bones = json.bones.map((record) => {
    const bone = new THREE.Bone();
    bone.name = record.name;
    return bone;
  });
  const roots = [];
  json.bones.forEach((record, i) => {
    if (record.parent >= 0 && record.parent < bones.length) {
      bones[record.parent].add(bones[i]);
    } else {
      roots.push(bones[i]);
    }
  });
  const skeleton = new THREE.Skeleton(bones);
  const mesh = new THREE.SkinnedMesh(new THREE.BufferGeometry(), new THREE.MeshBasicMaterial());
  for (const root of roots) mesh.add(root);
  mesh.bind(skeleton);

  const parsed = withConsoleAsFailures(report, 'AnimationClip.parseAnimation', () => report.attempt(
    'AnimationClip.parseAnimation', () => THREE.AnimationClip.parseAnimation(json, skeleton.bones)));
  if (!parsed.ok) return;
  const clip = parsed.value;
  if (!report.check(clip !== null && clip !== undefined, 'parseAnimation returned no clip (no track)')) return;
  withConsoleAsFailures(report, 'clip.validate()',
                        () => report.check(clip.validate() === true, 'clip.validate() is not true'));
  report.check(Math.abs(clip.duration - length) <= 1e-9 * timeScale,
               () => `clip duration ${clip.duration}, expected ${length} ${timeUnit}`);

  const tracksByName = new Map(clip.tracks.map((track) => [track.name, track]));
  report.check(tracksByName.size === clip.tracks.length, 'two tracks share a name');
  report.check(clip.tracks.length === animated.length,
               () => `${clip.tracks.length} tracks, expected ${animated.length} (one per animated bone)`);
  for (const bone of animated) {
    const name = `.bones[${bone.name}].quaternion`;
    const track = tracksByName.get(name);
    if (!report.check(track !== undefined, () => `no track ${name}`)) continue;
    report.check(track instanceof THREE.QuaternionKeyframeTrack,
                 () => `${name} is a ${track.ValueTypeName} track, expected quaternion`);
  }
  for (const bone of missing) {
    report.check(!tracksByName.has(`.bones[${bone.name}].quaternion`),
                 () => `missing bone ${bone.name} got a track`);
  }

  // --- play it -------------------------------------------------------------------------------
  const boneByName = new Map(bones.map((bone) => [bone.name, bone]));
  const mixer = new THREE.AnimationMixer(mesh);
  const action = mixer.clipAction(clip);
  // Play once and hold the last pose: with the default LoopRepeat, time == duration wraps to 0.
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  withConsoleAsFailures(report, 'binding the clip', () => {
    action.play();
    mixer.setTime(0);
  });
  const rest = new Map(json.bones.map((record) => [record.name, [0, 0, 0, 1]]));
  for (const { t, kind } of samples) {
    action.reset();  // clampWhenFinished pauses the action at the end
    mixer.setTime(t);
    for (const bone of animated) {
      const node = boneByName.get(bone.name);
      if (!node) continue;  // reported above (bones[i].name)
      const got = node.quaternion.toArray();
      const want = poseAt(bone.keys, t);
      const distance = signFreeDistance(got, want);
      report.check(distance <= EPS,
                   () => `${bone.name} at t=${t} ${timeUnit} (${kind}): three.js ${formatQuat(got)}, ` +
                         `expected ${formatQuat(want)} (±q), off by ${distance.toExponential(2)}`);
    }
    for (const bone of missing) {
      const node = boneByName.get(bone.name);
      if (!node) continue;
      const got = node.quaternion.toArray();
      report.check(signFreeDistance(got, rest.get(bone.name)) === 0,
                   () => `missing bone ${bone.name} moved to ${formatQuat(got)} at t=${t} ${timeUnit}`);
    }
  }
}
