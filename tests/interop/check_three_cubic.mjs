#!/usr/bin/env node
// Checks that animconv's three.js AnimationClip JSON of a glTF with CUBICSPLINE samplers plays like
// the glTF itself in three.js (npm three@0.187.0): GLTFLoader plays the source's splines with its
// GLTFCubicSplineInterpolant, AnimationClip.parse + AnimationMixer play our linear keys (slerp for
// quaternions). three.js JSON has no cubic mode, so animconv bakes the curve to linear keys within
// the --reduce tolerances (docs/timing.md, "Cubic splines"); this is the consumer's side of that.
//
// usage: node check_three_cubic.mjs --gltf IN.gltf --clip NAME [--rate 200] [--animconv BIN]
//                                   [--max-failure-lines N] OUT.json
//
// Both clips are sampled at --rate samples per second over the source clip, at every key time of
// both, and (with --animconv, which runs `BIN diff IN OUT.json --clip NAME --clip-b 0 --json`) at
// every channel's time of max diff reports. Per track of the source clip (the node names are the glTF's, `node_<i>`
// for unnamed nodes as animconv names them), at every sample: rotation angle <= 0.1°, translation
// distance <= 0.1 mm, scale max |ours - source| / max(|source|, 0.01) <= 0.1 %, weights <= 0.001
// (the units of `animconv diff`; the floor keeps a scale through zero measurable). With --animconv, the largest error per channel three.js measures must equal the
// one `diff` reports to within float32 (rotations and translations; scale ratios near zero are
// float32 noise):
// diff's adaptive sampling finds the true max, three's denser sampling at diff's times must not
// find more, and must find as much at them.
//
// Prints one line per failure and ends with "N passed, N failed"; exit status 1 on failure.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import {
  Report, parseArgs, parseGltfCapturingConsole, readJson, requireModules, stubProgressEvent, usage,
  withConsoleAsFailures,
} from './lib/common.mjs';

requireModules(['three']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');

const args = parseArgs(process.argv.slice(2), {
  options: ['gltf', 'clip', 'rate', 'animconv', 'max-failure-lines'],
});
for (const required of ['gltf', 'clip']) {
  if (args[required] === undefined) usage(`--${required} is required`);
}
if (args.positional.length !== 1) usage('give exactly one clip JSON file');
const rate = args.rate === undefined ? 200 : Number(args.rate);
if (!(rate > 0)) usage(`--rate must be a positive number, not '${args.rate}'`);
const report = new Report(args['max-failure-lines'] === undefined ? 200 : Number(args['max-failure-lines']));
const file = args.positional[0];

// docs/cli.md `diff` units and the --reduce default tolerances (include/animconv/reduce.h).
const TOLERANCE = { quaternion: 0.1, position: 1e-4, scale: 1e-3, morphTargetInfluences: 1e-3 };
const UNIT = { quaternion: 'deg', position: 'm', scale: 'ratio', morphTargetInfluences: 'weight' };
const PATH = { quaternion: 'rotation', position: 'translation', scale: 'scale', morphTargetInfluences: 'weights' };

function error(property, reference, value) {
  if (property === 'quaternion') {
    let dot = 0;
    for (let i = 0; i < 4; ++i) dot += reference[i] * value[i];
    const lengths = Math.hypot(...reference) * Math.hypot(...value);
    return 2 * Math.acos(Math.min(1, Math.abs(dot) / lengths)) * 180 / Math.PI;
  }
  if (property === 'position') {
    return Math.hypot(value[0] - reference[0], value[1] - reference[1], value[2] - reference[2]);
  }
  let worst = 0;
  for (let i = 0; i < reference.length; ++i) {
    // A scale through zero has no ratio there (float32 alone makes it any number): below 0.01 the
    // difference is taken relative to 0.01, so 1e-5 absolute. `diff`'s ratio has no such floor, so
    // the cross-check below skips scale.
    const e = property === 'scale' ? Math.abs(value[i] - reference[i]) / Math.max(Math.abs(reference[i]), 0.01)
                                   : Math.abs(value[i] - reference[i]);
    worst = Math.max(worst, e);
  }
  return worst;
}

// --- the source, as GLTFLoader plays it -------------------------------------------------------
stubProgressEvent();
const sourceJson = readJson(args.gltf);
// animconv names an unnamed node node_<index> (its tracks bind by that name); so does this copy.
// Only the clip under test: three.js throws on the fixture's other, empty, clips.
sourceJson.animations = (sourceJson.animations ?? []).filter((animation) => animation.name === args.clip);
(sourceJson.nodes ?? []).forEach((node, index) => { if (!node.name) node.name = `node_${index}`; });
for (const buffer of sourceJson.buffers ?? []) {
  if (typeof buffer.uri === 'string' && !buffer.uri.startsWith('data:')) {
    const bytes = readFileSync(new URL(buffer.uri, `file://${args.gltf}`));
    buffer.uri = `data:application/octet-stream;base64,${bytes.toString('base64')}`;
  }
}
const { gltf } = await parseGltfCapturingConsole(new GLTFLoader(), JSON.stringify(sourceJson));
const sourceClip = gltf.animations.find((clip) => clip.name === args.clip);
if (!sourceClip) usage(`${args.gltf} has no clip '${args.clip}'`);
const cubicTracks = sourceClip.tracks.filter(
  (track) => track.createInterpolant?.isInterpolantFactoryMethodGLTFCubicSpline === true);
const root = gltf.scene ?? new THREE.Group();
if (!gltf.scene) {
  for (const node of await gltf.parser.getDependencies('node')) if (node.parent === null) root.add(node);
}

// --- ours, as AnimationClip.parse + AnimationMixer play it -----------------------------------
report.setContext(file);
const parsed = report.attempt('JSON.parse of the file', () => readJson(file));
if (!parsed.ok) finish();
const ours = withConsoleAsFailures(report, 'AnimationClip.parse',
                                   () => report.attempt('AnimationClip.parse', () => THREE.AnimationClip.parse(parsed.value)));
if (!ours.ok) finish();
const ourClip = ours.value;
report.check(ourClip.validate(), 'clip.validate() is false');
for (const track of ourClip.tracks) {
  report.check(track.getInterpolation() !== THREE.InterpolateSmooth && track.values.length ===
                 track.times.length * track.getValueSize(),
               () => `track ${track.name} is not plain linear keys`);
}
// A scene of named Object3Ds, one per node our tracks name (the hierarchy does not matter: every
// comparison is of one node's local value).
const ourRoot = new THREE.Object3D();
const ourNodes = new Map();
for (const track of ourClip.tracks) {
  const { nodeName } = THREE.PropertyBinding.parseTrackName(track.name);
  if (ourNodes.has(nodeName)) continue;
  const node = new THREE.Object3D();
  node.name = nodeName;
  ourRoot.add(node);
  ourNodes.set(nodeName, node);
}

// --- sample times -----------------------------------------------------------------------------
const diff = args.animconv
  ? JSON.parse(execFileSync(args.animconv, ['diff', args.gltf, file, '--clip', args.clip, '--clip-b', '0', '--json'],
                            { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }))
  : null;
if (diff) {
  console.log(`animconv diff: sampling ${JSON.stringify(diff.sampling)}`);
}
const times = new Set();
const duration = sourceClip.duration;
const count = Math.ceil(duration * rate);
for (let i = 0; i <= count; ++i) times.add(Math.min(duration, i / rate));
for (const clip of [sourceClip, ourClip]) for (const track of clip.tracks) for (const t of track.times) times.add(t);
for (const channel of diff?.channels ?? []) times.add(channel.time_of_max_seconds);
const samples = [...times].sort((a, b) => a - b);

function play(clip, scene, targets, property) {
  const mixer = new THREE.AnimationMixer(scene);
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);  // time == duration must not wrap to 0
  action.clampWhenFinished = true;
  action.play();
  const values = [];
  for (const t of samples) {
    action.reset();  // clampWhenFinished pauses the action at the end
    mixer.setTime(t);
    values.push(targets.map((object) => Array.from(property === 'morphTargetInfluences'
      ? object.morphTargetInfluences : object[property].toArray())));
  }
  action.stop();
  mixer.uncacheRoot(scene);
  return values;
}

// --- compare track by track -------------------------------------------------------------------
console.log(`three r${THREE.REVISION}: ${args.gltf} clip '${args.clip}' (${sourceClip.tracks.length} tracks, ` +
            `${cubicTracks.length} CUBICSPLINE) vs ${file} (${ourClip.tracks.length} tracks), ` +
            `${samples.length} samples (${rate}/s + keys${diff ? ' + diff times of max' : ''})`);
report.check(cubicTracks.length > 0, `${args.gltf} clip '${args.clip}' has no CUBICSPLINE track: nothing is tested`);
for (const sourceTrack of sourceClip.tracks) {
  const { nodeName, propertyName } = THREE.PropertyBinding.parseTrackName(sourceTrack.name);
  const ourTrack = ourClip.tracks.find((track) => track.name === sourceTrack.name);
  if (!report.check(ourTrack, `no track ${sourceTrack.name} in ${file}`)) continue;
  const sourceNode = THREE.PropertyBinding.findNode(root, nodeName);
  const single = (clip, track) => new THREE.AnimationClip(clip.name, clip.duration, [track]);
  const want = play(single(sourceClip, sourceTrack), root, [sourceNode], propertyName);
  const got = play(single(ourClip, ourTrack), ourRoot, [ourNodes.get(nodeName)], propertyName);
  let worst = 0;
  let worstTime = 0;
  let failures = 0;
  samples.forEach((t, s) => {
    const e = error(propertyName, want[s][0], got[s][0]);
    if (e > worst) { worst = e; worstTime = t; }
    if (e > TOLERANCE[propertyName]) ++failures;
  });
  report.check(failures === 0, () => `${sourceTrack.name}: ${failures} of ${samples.length} samples off by more ` +
                                     `than ${TOLERANCE[propertyName]} ${UNIT[propertyName]}; worst ${worst} at ${worstTime} s`);
  console.log(`${sourceTrack.name}: max ${worst} ${UNIT[propertyName]} at ${worstTime} s over ${samples.length} samples`);
  if (diff && propertyName !== 'scale') {
    const channel = diff.channels.find((c) => c.node === nodeName && c.path === PATH[propertyName]);
    if (!report.check(channel, `the diff JSON has no channel ${nodeName}.${PATH[propertyName]}`)) continue;
    // float32: three.js keeps values in Float32Arrays (2^-24 relative per component, which for a
    // quaternion is up to ~1.4e-5 deg of angle); diff evaluates the same numbers in double.
    const slack = 1e-5 * Math.max(worst, channel.max) + (propertyName === 'quaternion' ? 3e-5 : 1e-7);
    report.check(Math.abs(channel.max - worst) <= slack,
                 () => `${sourceTrack.name}: animconv diff reports max ${channel.max} ${UNIT[propertyName]} at ` +
                       `${channel.time_of_max_seconds} s, three.js measures ${worst} at ${worstTime} s`);
  }
}
finish();

function finish() {
  report.setContext('');
  report.finish();
  process.exit(process.exitCode);
}
