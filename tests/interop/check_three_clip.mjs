#!/usr/bin/env node
// Checks animconv's three.js AnimationClip JSON (`--to three`, `.json`) with current three.js
// (npm three@0.187.0) against the ORIGINAL Unity CSV.
//
// usage: node check_three_clip.mjs --csv anim.csv --bones bone.txt --interval 0.2 --mirror z
//                                  [--array] [--max-failure-lines N] CLIP.json [CLIP2.json ...]
//
// Per file: the JSON shape (uuid, blendMode 2500, userData a string, no `fps`), then
// THREE.AnimationClip.parse (must not throw) and clip.validate(). Then a scene of named
// Object3Ds (one per bone name) is driven by an AnimationMixer, and at every row time and at
// every midpoint between rows each bone's .quaternion must equal the CSV's mirrored, normalised
// rotation (q ≡ -q), resp. the short-path slerp of the neighbouring rows, within 1e-6.
// Bones written 0,0,0,0 in every row must have no track. uuids must differ between different clips
// given. With --array every file must be a JSON array of clips (AnimationLoader's format) and
// each element is checked.
//
// Prints one line per failure and ends with "N passed, N failed"; exit status 1 on failure.

import {
  EPS, Report, expectedBones, firstHemisphereFlip, formatQuat, parseArgs, poseAt, readBoneList, readJson, readUnityCsv,
  requireModules, sampleTimes, signFreeDistance, usage, withConsoleAsFailures,
} from './lib/common.mjs';

requireModules(['three']);
const THREE = await import('three');

const args = parseArgs(process.argv.slice(2), {
  flags: ['array'],
  options: ['csv', 'bones', 'interval', 'mirror', 'max-failure-lines'],
});
for (const required of ['csv', 'bones', 'interval', 'mirror']) {
  if (args[required] === undefined) usage(`--${required} is required`);
}
if (args.positional.length === 0) usage('no clip JSON file given');
const interval = Number(args.interval);
if (!(interval > 0)) usage(`--interval must be a positive number, not '${args.interval}'`);

const report = new Report(args['max-failure-lines'] === undefined ? 200 : Number(args['max-failure-lines']));

const boneNames = readBoneList(args.bones);
const rows = readUnityCsv(args.csv, boneNames.length);
const expected = expectedBones(rows, boneNames, { interval, mirrorAxis: args.mirror });
// The names three.js (and GLTFLoader scenes) use for these nodes.
const nodeName = (name) => THREE.PropertyBinding.sanitizeNodeName(name);
const animated = expected.filter((bone) => bone.keys.length > 0);
const missing = expected.filter((bone) => bone.keys.length === 0);
const samples = sampleTimes(rows.length, interval);
// animconv derives the uuid from the clip (version 8, RFC 9562) so outputs are reproducible.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const seenUuids = new Map();

console.log(`three r${THREE.REVISION}: ${args.csv}: ${rows.length} rows x ${boneNames.length} bones ` +
            `every ${interval} s, mirror ${args.mirror}; ${animated.length} animated, ` +
            `${missing.length} missing (0,0,0,0): ${missing.map((b) => b.name).join(', ') || 'none'}`);

for (const file of args.positional) {
  report.setContext(file);
  const loaded = report.attempt('JSON.parse of the file', () => readJson(file));
  if (!loaded.ok) continue;
  const json = loaded.value;
  if (args.array) {
    if (!report.check(Array.isArray(json), 'expected a JSON array of clips (--three-array)')) continue;
    report.check(json.length === 1, `expected 1 clip in the array (one CSV), found ${json.length}`);
    json.forEach((clipJson, index) => {
      report.setContext(`${file}[${index}]`);
      checkClip(clipJson);
    });
  } else {
    if (!report.check(!Array.isArray(json) && typeof json === 'object' && json !== null,
                      'expected one clip object, found an array or a non-object')) continue;
    checkClip(json);
  }
}
report.setContext('');
report.finish();

function checkClip(json) {
  // --- the JSON as written -------------------------------------------------------------------
  report.check(typeof json.uuid === 'string' && UUID.test(json.uuid),
               () => `uuid ${JSON.stringify(json.uuid)} is not a derived (v8) lower-case UUID`);
  if (typeof json.uuid === 'string') {
    // Derived uuids: the same clip converted twice shares one (harmless, ObjectLoader keys
    // clips by uuid and they are equal); different clips must not.
    const content = JSON.stringify({ ...json, uuid: undefined });
    const seen = seenUuids.get(json.uuid);
    report.check(seen === undefined || seen.content === content,
                 () => `uuid ${json.uuid} repeats the uuid of a different clip, ${seen.where} ` +
                       '(ObjectLoader keys clips by uuid)');
    seenUuids.set(json.uuid, { where: report.context, content });
  }
  report.check(json.blendMode === 2500, () => `blendMode is ${JSON.stringify(json.blendMode)}, expected 2500`);
  report.check(typeof json.userData === 'string',
               () => `userData is ${typeof json.userData}, expected a JSON string (r180+ JSON.parses it)`);
  report.check(!('fps' in json),
               () => `has fps ${json.fps}: AnimationClip.parse would divide every key time by it`);
  report.check(Array.isArray(json.tracks), 'tracks is not an array');
  const duration = (rows.length - 1) * interval;
  report.check(typeof json.duration === 'number' && Math.abs(json.duration - duration) <= 1e-9,
               () => `duration ${json.duration}, expected ${duration} ((rows-1) x interval)`);

  // --- three.js reads it -----------------------------------------------------------------------
  const parsed = withConsoleAsFailures(report, 'AnimationClip.parse',
                                       () => report.attempt('AnimationClip.parse', () => THREE.AnimationClip.parse(json)));
  if (!parsed.ok) return;
  const clip = parsed.value;
  withConsoleAsFailures(report, 'clip.validate()',
                        () => report.check(clip.validate() === true, 'clip.validate() is not true'));
  report.check(clip.uuid === json.uuid, () => `parsed uuid ${clip.uuid} differs from the JSON's ${json.uuid}`);
  report.check(clip.blendMode === THREE.NormalAnimationBlendMode,
               () => `parsed blendMode ${clip.blendMode}`);

  // --- tracks: one linear quaternion track per animated bone, none for missing bones -----------
  const tracksByName = new Map();
  for (const track of clip.tracks) {
    report.check(!tracksByName.has(track.name), () => `two tracks named ${track.name}`);
    tracksByName.set(track.name, track);
  }
  for (const bone of animated) {
    const name = `${nodeName(bone.name)}.quaternion`;
    const track = tracksByName.get(name);
    if (!report.check(track !== undefined, () => `no track ${name} for bone ${bone.name}`)) continue;
    report.check(track instanceof THREE.QuaternionKeyframeTrack,
                 () => `${name} is a ${track.ValueTypeName} track, expected quaternion`);
    report.check(track.getInterpolation() === THREE.InterpolateLinear,
                 () => `${name} interpolation ${track.getInterpolation()}, expected linear 2301`);
    const times = Array.from(track.times);
    const want = bone.keys.map((key) => key.time);
    report.check(times.length === want.length && times.every((t, i) => t === want[i]),
                 () => `${name} times [${times.join(',')}], expected [${want.join(',')}]`);
    const flip = firstHemisphereFlip(Array.from(track.values));
    report.check(flip < 0, () => `${name}: keys ${flip - 1} and ${flip} are not sign-aligned (dot < 0)`);
  }
  for (const bone of missing) {
    const name = `${nodeName(bone.name)}.quaternion`;
    report.check(!tracksByName.has(name),
                 () => `bone ${bone.name} is 0,0,0,0 in every row but has a track ${name}`);
  }
  const known = new Set(animated.map((bone) => `${nodeName(bone.name)}.quaternion`));
  for (const name of tracksByName.keys()) {
    report.check(known.has(name), () => `unexpected track ${name}`);
  }

  // --- play it on a scene of named nodes ------------------------------------------------------
  const root = new THREE.Group();
  root.name = '__interop_root__';
  const nodes = new Map();
  let parent = root;
  for (const bone of expected) {
    const node = new THREE.Object3D();
    node.name = nodeName(bone.name);
    parent.add(node);  // a chain; the parenting does not matter for local rotations
    parent = node;
    nodes.set(bone.name, node);
  }
  const mixer = new THREE.AnimationMixer(root);
  const action = mixer.clipAction(clip);
  // Play once and hold the last pose: with the default LoopRepeat, time == duration wraps to 0.
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  withConsoleAsFailures(report, 'binding the clip', () => {
    action.play();
    mixer.setTime(0);
  });
  for (const { t, kind } of samples) {
    action.reset();  // clampWhenFinished pauses the action at the end
    mixer.setTime(t);
    for (const bone of animated) {
      const got = nodes.get(bone.name).quaternion.toArray();
      const want = poseAt(bone.keys, t);
      const distance = signFreeDistance(got, want);
      report.check(distance <= EPS,
                   () => `${bone.name} at t=${t} (${kind}): three.js ${formatQuat(got)}, expected ` +
                         `${formatQuat(want)} (±q), off by ${distance.toExponential(2)}`);
    }
    for (const bone of missing) {
      const got = nodes.get(bone.name).quaternion.toArray();
      report.check(signFreeDistance(got, [0, 0, 0, 1]) === 0,
                   () => `missing bone ${bone.name} moved to ${formatQuat(got)} at t=${t}`);
    }
  }
}
