#!/usr/bin/env node
// Checks animconv's glTF outputs (.glb / .gltf) with the real consumers: the Khronos glTF
// Validator (npm gltf-validator@2.0.0-dev.3.10) and three.js r187's GLTFLoader + AnimationMixer.
//
// usage: node check_gltf.mjs [--input IN.gltf|.glb|.vrm|.vrma [--new-clips]]
//                            [--csv anim.csv --bones bone.txt --interval 0.2 --mirror z]
//                            [--max-failure-lines N] OUT.glb [OUT.gltf ...]
//
// Per output file:
//  1. It is self-contained: no `uri` other than a `data:` URI (the writer embeds external
//     buffers and images).
//  2. The Khronos validator (all issues, maxIssues 0) reports 0 errors and 0 warnings. With
//     --input, issue codes the INPUT already had are allowed: per code (errors and warnings
//     together), the output may not have a code the input lacks, nor more occurrences of a code
//     than the input. Infos are printed, never failures.
//  3. three.js GLTFLoader.parse loads it. Node cannot decode images, so a copy of the JSON
//     (for GLB, the JSON chunk re-packed) loses `images`, `textures`, `samplers`, the materials'
//     texture references and texture extensions first; the animation data is untouched. Loader
//     console warnings/errors fail unless loading the input printed the same ones.
//  4. Pass-through (with --input): the non-animation JSON (scenes, nodes, meshes, skins,
//     materials, textures, samplers, cameras, images, top-level extensions such as VRM, extras;
//     accessor/bufferView numbers masked), extensionsUsed/Required, the image bytes and the
//     loaded scene tree (names, types, rest TRS, geometry data, skeletons) equal the input's.
//     With --new-clips (a model with clips retargeted onto it), step 5 only checks that the
//     output has clips whose every track binds to an object of the scene.
//  5. Playback. Every clip is played with an AnimationMixer on gltf.scene (LoopOnce, clamped) at
//     every key time and at every midpoint of consecutive key times of every track, and each
//     animated object's position/quaternion/scale/morphTargetInfluences is recorded.
//     - With a glTF --input: the input is loaded and played the same way (key times of both
//       files' clips); clip count, names and durations must match and every recorded value must
//       match within 1e-5 (quaternions q = -q). Objects are matched by their child-index path
//       from gltf.scene (node names may be empty; the names are compared too). The input
//       reference is adjusted only as animconv's contract says (printed as "input reference:"):
//       rotation keys renormalised, channels without keys dropped, strided animation accessors
//       read with their stride (three.js ignores it). See README.md.
//     - With --csv: exactly one clip; each bone with data is a node named after the bone with a
//       `<name>.quaternion` track and nothing else is animated. The node's quaternion must equal
//       the CSV row (mirrored, normalised, lib/common.mjs) at every row time, and the short-path
//       slerp at every midpoint, within 1e-5 (q = -q). Bones that are 0,0,0,0 in every row have
//       no track and do not move.
//
// Prints one line per failure and ends with "N passed, N failed"; exit status 1 on failure,
// 2 on a usage or setup error.

import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import {
  Report, expectedBones, formatQuat, parseArgs, parseGltfCapturingConsole, poseAt, readBoneList,
  readUnityCsv, requireModules, sampleTimes, signFreeDistance, stubProgressEvent, usage,
} from './lib/common.mjs';

requireModules(['three', 'gltf-validator']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { MeshoptDecoder } = await import('three/addons/libs/meshopt_decoder.module.js');
const validator = await import('gltf-validator');

const { isGlb, splitContainer, packGlb, readRelative } = await import('./lib/glb.mjs');
const {
  severityName, formatIssue, validate, removeTextureReferences, isTextureExtension, loadableCopy, loadWithThree, sceneOfRootNodes, dropEmptyChannels, renormaliseRotationKeys, COMPONENT_BYTES, TYPE_COMPONENTS, bufferBytes, unstrideAnimationAccessors, loadGltfSource, loadCsvSource,
} = await import('./lib/gltf_load.mjs');
const {
  TOLERANCE, trackTarget, pathOf, objectAt, snapshot, restore, keyAndMidTimes, play, maxDifference, formatVector, snapshotDifference, animatedPaths,
} = await import('./lib/playback.mjs');

const args = parseArgs(process.argv.slice(2), {
  flags: ['new-clips'],
  options: ['input', 'csv', 'bones', 'interval', 'mirror', 'max-failure-lines'],
});
if (args.positional.length === 0) usage('no output .glb/.gltf file given');
if (args.input !== undefined && args.csv !== undefined) usage('give --input or --csv, not both');
let csvSource = null;
if (args.csv !== undefined) {
  for (const required of ['bones', 'interval', 'mirror']) {
    if (args[required] === undefined) usage(`--csv needs --${required}`);
  }
  const interval = Number(args.interval);
  if (!(interval > 0)) usage(`--interval must be a positive number, not '${args.interval}'`);
  csvSource = { path: args.csv, bones: args.bones, interval, mirror: args.mirror };
}
if (args.input !== undefined && !existsSync(args.input)) usage(`input ${args.input} not found`);

const report = new Report(args['max-failure-lines'] === undefined ? 200 : Number(args['max-failure-lines']));

stubProgressEvent();

// ---------------------------------------------------------------------------------------------
// Validator

function checkValidation(file, validation, baseline) {
  const { result, messages, counts } = validation;
  const infos = messages.filter((message) => message.severity >= 2);
  const infoCounts = new Map();
  for (const message of infos) infoCounts.set(message.code, (infoCounts.get(message.code) ?? 0) + 1);
  console.log(`${file}: validator ${result.validatorVersion}: ${result.issues.numErrors} errors, ` +
              `${result.issues.numWarnings} warnings, ${result.issues.numInfos} infos, ` +
              `${result.issues.numHints} hints${infos.length ? ` (infos/hints: ${
                [...infoCounts].map(([code, n]) => `${code} x${n}`).join(', ')})` : ''}`);
  if (baseline) {
    const allowed = [...baseline.counts].map(([code, n]) => `${code} x${n}`).join(', ') || 'none';
    console.log(`${file}: issues the input already has (allowed): ${allowed}`);
  }
  let clean = true;
  for (const [code, n] of counts) {
    const had = baseline ? baseline.counts.get(code) ?? 0 : 0;
    const ok = report.check(n <= had, () => `validator: ${n} x ${code}${
      baseline ? ` (the input has ${had})` : ''}; not allowed`);
    if (!ok) {
      clean = false;
      let shown = 0;
      for (const message of messages) {
        if (message.code !== code) continue;
        if (++shown > 10) {
          console.log(`    ... ${n - 10} more ${code}`);
          break;
        }
        console.log(`    ${formatIssue(message)}`);
      }
    }
  }
  if (clean) report.pass();
  report.check(result.issues.truncated !== true, 'validator output was truncated');
}

// ---------------------------------------------------------------------------------------------
// three.js loading

// ---------------------------------------------------------------------------------------------
// Loading the source

// ---------------------------------------------------------------------------------------------
// The checks

function checkSelfContained(json) {
  const external = [];
  (json.buffers ?? []).forEach((buffer, i) => {
    if (buffer.uri !== undefined && !String(buffer.uri).startsWith('data:')) external.push(`buffers[${i}].uri ${buffer.uri}`);
  });
  (json.images ?? []).forEach((image, i) => {
    if (image.uri !== undefined && !String(image.uri).startsWith('data:')) external.push(`images[${i}].uri ${image.uri}`);
  });
  report.check(external.length === 0, () => `refers to external files: ${external.join(', ')}`);
}

function checkConsole(messages, source) {
  const allowed = new Map();
  for (const message of source ? source.consoleMessages : []) allowed.set(message, (allowed.get(message) ?? 0) + 1);
  const extra = [];
  for (const message of messages) {
    const left = allowed.get(message) ?? 0;
    if (left > 0) allowed.set(message, left - 1);
    else extra.push(message);
  }
  report.check(extra.length === 0, () => `GLTFLoader printed ${extra.length} message(s)${
    source ? ' that loading the input did not' : ''}: ${extra.join(' | ')}`);
}

// The bytes of image `index`: its bufferView, or its data: / relative URI.
function imageBytes(file, container, index) {
  const image = container.json.images[index];
  if (image.bufferView !== undefined) {
    const view = container.json.bufferViews[image.bufferView];
    if (view.extensions?.EXT_meshopt_compression) return null;  // not decoded here
    const offset = view.byteOffset ?? 0;
    return bufferBytes(file, container, view.buffer).subarray(offset, offset + view.byteLength);
  }
  if (String(image.uri).startsWith('data:')) {
    return new Uint8Array(Buffer.from(image.uri.slice(image.uri.indexOf(',') + 1), 'base64'));
  }
  return readRelative(file, image.uri);
}

// Pass-through of images: the same count and, image by image, the same bytes (external files
// of the input are embedded, not re-encoded).
function compareImages(file, container, source) {
  const want = source.container.json.images ?? [];
  const got = container.json.images ?? [];
  if (!report.check(got.length === want.length, () => `${got.length} image(s), the input has ${want.length}`)) return;
  want.forEach((_, i) => {
    const a = imageBytes(source.file, source.container, i);
    const b = imageBytes(file, container, i);
    if (a === null || b === null) return;
    report.check(a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0,
                 () => `images[${i}]: ${b.length} bytes differing from the input's ${a.length} bytes`);
  });
}

// One step of a normalized integer attribute (0 for float or non-normalized data).
function normalizedStep(attribute) {
  if (!attribute.normalized) return 0;
  const steps = { Int8Array: 127, Uint8Array: 255, Int16Array: 32767, Uint16Array: 65535 };
  const max = steps[attribute.array.constructor.name];
  return max ? 1 / max : 0;
}

// Values are compared within 1e-6 (relative above 1). Normalized integer data may also differ
// by one step: EXT_meshopt_compression specifies its filters (e.g. octahedral normals) only to
// one unit in the last place, so a writer that decodes it may round differently from three.js's
// decoder (seen with threejs_facecap_meshopt.glb).
function attributeDifference(a, b) {
  if (a.count !== b.count || a.itemSize !== b.itemSize) {
    return `${b.count} x ${b.itemSize}, input ${a.count} x ${a.itemSize}`;
  }
  const step = Math.max(normalizedStep(a), normalizedStep(b));
  for (let i = 0; i < a.count; ++i) {
    for (let c = 0; c < a.itemSize; ++c) {
      const x = a.getComponent(i, c);
      const y = b.getComponent(i, c);
      const tolerance = Math.max(1e-6 * Math.max(1, Math.abs(x)), step * 1.000001);
      if (!(Math.abs(x - y) <= tolerance)) return `element ${i}[${c}] ${y}, input ${x}`;
    }
  }
  return null;
}

function geometryDifference(a, b) {
  const names = (geometry) => Object.keys(geometry.attributes).sort().join(',');
  if (names(a) !== names(b)) return `attributes ${names(b)}, input ${names(a)}`;
  for (const name of Object.keys(a.attributes)) {
    const d = attributeDifference(a.attributes[name], b.attributes[name]);
    if (d) return `attribute ${name}: ${d}`;
  }
  if ((a.index === null) !== (b.index === null)) return `index ${b.index ? 'present' : 'missing'}`;
  if (a.index) {
    const d = attributeDifference(a.index, b.index);
    if (d) return `index: ${d}`;
  }
  const morphNames = (geometry) => Object.keys(geometry.morphAttributes).sort().join(',');
  if (morphNames(a) !== morphNames(b)) return `morph attributes ${morphNames(b)}, input ${morphNames(a)}`;
  for (const name of Object.keys(a.morphAttributes)) {
    const listA = a.morphAttributes[name];
    const listB = b.morphAttributes[name];
    if (listA.length !== listB.length) return `${listB.length} morph targets of ${name}, input ${listA.length}`;
    for (let t = 0; t < listA.length; ++t) {
      const d = attributeDifference(listA[t], listB[t]);
      if (d) return `morph target ${t} ${name}: ${d}`;
    }
  }
  return null;
}

// The first difference between an input object and the output object at the same scene path
// (rest state, before any clip plays), or null.
function objectDifference(a, b, pathTo) {
  if (a.type !== b.type || a.name !== b.name) return `${b.type} "${b.name}", input ${a.type} "${a.name}"`;
  if (a.children.length !== b.children.length) return `${b.children.length} children, input ${a.children.length}`;
  const rest = snapshotDifference(snapshot(a), snapshot(b));
  if (rest) return `rest ${rest}`;
  if (a.morphTargetDictionary || b.morphTargetDictionary) {
    const keys = (object) => JSON.stringify(Object.entries(object.morphTargetDictionary ?? {}).sort());
    if (keys(a) !== keys(b)) return `morph target names ${keys(b)}, input ${keys(a)}`;
  }
  if (a.geometry || b.geometry) {
    if (!a.geometry || !b.geometry) return `geometry ${b.geometry ? 'added' : 'missing'}`;
    const d = geometryDifference(a.geometry, b.geometry);
    if (d) return `geometry: ${d}`;
  }
  if (a.isSkinnedMesh) {
    const bonesA = a.skeleton.bones.map((bone) => pathTo(bone, 'input')).join(' ');
    const bonesB = b.skeleton.bones.map((bone) => pathTo(bone, 'output')).join(' ');
    if (bonesA !== bonesB) return `skeleton bones at [${bonesB}], input [${bonesA}]`;
    const d = maxDifference(a.skeleton.boneInverses.flatMap((m) => m.elements),
                            b.skeleton.boneInverses.flatMap((m) => m.elements));
    if (!(d <= TOLERANCE)) return `inverse bind matrices off by ${d.toExponential(2)}`;
  }
  return null;
}

// Differences between two JSON values, as "path: output, input ..." (at most `limit`).
function jsonDifferences(a, b, path = '', found = [], limit = 5) {
  if (a === b || found.length >= limit) return found;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object' || Array.isArray(a) !== Array.isArray(b)) {
    found.push(`${path}: ${JSON.stringify(b)?.slice(0, 120)}, input ${JSON.stringify(a)?.slice(0, 120)}`);
    return found;
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    jsonDifferences(a[key], b[key], Array.isArray(a) ? `${path}[${key}]` : `${path}.${key}`, found, limit);
  }
  return found;
}

// A copy of a document's non-animation JSON with the references to accessors, buffer views
// and buffers masked (a writer renumbers those; the data is compared through three.js).
function passThroughView(json) {
  const view = structuredClone({
    scene: json.scene, scenes: json.scenes, nodes: json.nodes, meshes: json.meshes, skins: json.skins,
    materials: json.materials, textures: json.textures, samplers: json.samplers, cameras: json.cameras,
    images: json.images, extensions: json.extensions, extras: json.extras,
  });
  for (const mesh of view.meshes ?? []) {
    for (const primitive of mesh.primitives ?? []) {
      for (const key of Object.keys(primitive.attributes ?? {})) primitive.attributes[key] = 'accessor';
      if (primitive.indices !== undefined) primitive.indices = 'accessor';
      for (const target of primitive.targets ?? []) for (const key of Object.keys(target)) target[key] = 'accessor';
    }
  }
  for (const skin of view.skins ?? []) if (skin.inverseBindMatrices !== undefined) skin.inverseBindMatrices = 'accessor';
  for (const image of view.images ?? []) {  // embedded: bufferView or data: URI, either way
    delete image.bufferView;
    delete image.uri;
  }
  return view;
}

// Pass-through of everything that is not animation, at the JSON level: scenes, nodes, meshes,
// skins, materials, textures, samplers, cameras, images, the top-level extensions (VRM,
// VRMC_vrm, VRMC_vrm_animation ...) and extras must equal the input's, except for accessor /
// bufferView numbers. extensionsUsed/extensionsRequired keep every name, except
// EXT_meshopt_compression when the writer stored the data decoded.
function compareJson(json, source) {
  const differences = jsonDifferences(passThroughView(source.container.json), passThroughView(json));
  report.check(differences.length === 0, () => `not passed through unchanged: ${differences.join('; ')}`);
  for (const key of ['extensionsUsed', 'extensionsRequired']) {
    const want = new Set(source.container.json[key] ?? []);
    const got = new Set(json[key] ?? []);
    const added = [...got].filter((name) => !want.has(name));
    const lost = [...want].filter((name) => !got.has(name) && name !== 'EXT_meshopt_compression');
    report.check(added.length === 0 && lost.length === 0,
                 () => `${key}: ${added.length ? `added ${added.join(', ')}` : ''}${
                   added.length && lost.length ? '; ' : ''}${lost.length ? `lost ${lost.join(', ')}` : ''}`);
  }
  const compressed = (json.bufferViews ?? []).some((view) => view.extensions?.EXT_meshopt_compression);
  report.check(!compressed || (json.extensionsUsed ?? []).includes('EXT_meshopt_compression'),
               'a bufferView uses EXT_meshopt_compression, which extensionsUsed does not list');
}

// Pass-through of the model: the same scene tree, object by object (type, name, rest TRS,
// morph weights and names, geometry data, skeletons), before anything plays.
function compareScenes(gltf, source) {
  const inputRoot = source.gltf.root;
  const outputRoot = gltf.root;
  const pathTo = (object, side) => pathOf(object, side === 'input' ? inputRoot : outputRoot) ?? '(outside the scene)';
  let objects = 0;
  let differences = 0;
  const walk = (a, b, path) => {
    ++objects;
    const d = objectDifference(a, b, pathTo);
    if (!report.check(d === null, () => `scene path ${path || '(root)'}: ${d}`)) {
      ++differences;
      return;
    }
    a.children.forEach((child, i) => walk(child, b.children[i], path ? `${path}/${i}` : String(i)));
  };
  walk(inputRoot, outputRoot, '');
  console.log(`  scene: ${objects} object(s) compared with the input: ${differences ? `${differences} differ` : 'the same'}`);
}

// --new-clips: the output is the input model with other clips (animconv --skeleton); those
// must each have tracks, all bound to objects of the loaded scene.
function checkClipsBind(gltf) {
  report.check(gltf.animations.length > 0, () => 'no clip in the output');
  for (const clip of gltf.animations) {
    const { unbound } = animatedPaths(gltf, clip);
    report.check(clip.tracks.length > 0, () => `clip "${clip.name}" has no tracks`);
    report.check(unbound.length === 0,
                 () => `clip "${clip.name}": track(s) not bound to an object of gltf.scene: ${unbound.join(', ')}`);
  }
}

function compareWithSource(gltf, source) {
  const want = source.gltf.animations;
  const got = gltf.animations;
  report.check(got.length === want.length, () => `${got.length} clip(s), the input has ${want.length}`);
  for (let c = 0; c < Math.min(got.length, want.length); ++c) {
    const clipLabel = `clip ${c} "${want[c].name}"`;
    report.check(got[c].name === want[c].name, () => `${clipLabel}: named "${got[c].name}"`);
    report.check(Math.abs(got[c].duration - want[c].duration) <= TOLERANCE,
                 () => `${clipLabel}: duration ${got[c].duration}, input ${want[c].duration}`);
    const inputAnimated = animatedPaths(source.gltf, want[c]);
    const outputAnimated = animatedPaths(gltf, got[c]);
    report.check(outputAnimated.unbound.length <= inputAnimated.unbound.length,
                 () => `${clipLabel}: track(s) not bound to an object of gltf.scene: ${outputAnimated.unbound.join(', ')}`);
    const paths = [...new Set([...inputAnimated.paths, ...outputAnimated.paths])].sort();
    const inputObjects = paths.map((path) => objectAt(source.gltf.root, path));
    const outputObjects = paths.map((path) => objectAt(gltf.root, path));
    paths.forEach((path, i) => {
      const a = inputObjects[i];
      const b = outputObjects[i];
      report.check(a !== null && b !== null, () => `${clipLabel}: object at scene path ${path} is missing in the ${
        a === null ? 'input' : 'output'}`);
      if (a && b) {
        report.check(a.name === b.name && a.type === b.type,
                     () => `${clipLabel}: object at scene path ${path} is ${b.type} "${b.name}", input ${a.type} "${a.name}"`);
      }
    });
    const times = keyAndMidTimes([want[c], got[c]]);
    const expectedValues = play(source.gltf.root, want[c], times, inputObjects);
    const actualValues = play(gltf.root, got[c], times, outputObjects);
    let firstFailure = null;
    let checks = 0;
    times.forEach((t, s) => {
      paths.forEach((path, i) => {
        if (!inputObjects[i] || !outputObjects[i]) return;
        ++checks;
        const difference = snapshotDifference(expectedValues[s][i], actualValues[s][i]);
        if (report.check(difference === null, () => `${clipLabel}: "${inputObjects[i].name}" (scene path ${path}) at t=${t}: ${difference}`)) return;
        firstFailure ??= t;
      });
    });
    console.log(`  ${clipLabel}: ${paths.length} animated object(s) x ${times.length} times: ${
      firstFailure === null ? 'plays the same' : `DIFFERS, first at t=${firstFailure}`} (${checks} comparisons)`);
  }
}

function compareWithCsv(gltf, json, csv) {
  const clips = gltf.animations;
  if (!report.check(clips.length === 1, () => `${clips.length} clips, expected 1 (one CSV)`)) return;
  const clip = clips[0];
  // The generated model: one node per bone, in bone list order, named after the bone.
  const nodeList = (json.nodes ?? []).map((node) => node.name);
  const boneList = csv.expected.map((bone) => bone.name);
  report.check(JSON.stringify(nodeList) === JSON.stringify(boneList),
               () => `nodes [${nodeList.join(', ')}], expected the bone list [${boneList.join(', ')}]`);
  const nodeNames = new Set(nodeList);
  const animated = csv.expected.filter((bone) => bone.keys.length > 0);
  const missing = csv.expected.filter((bone) => bone.keys.length === 0);
  const duration = (csv.rows.length - 1) * csv.interval;
  report.check(Math.abs(clip.duration - duration) <= TOLERANCE,
               () => `clip duration ${clip.duration}, expected ${duration} ((rows-1) x interval)`);
  const tracks = new Map();
  for (const track of clip.tracks) {
    report.check(!tracks.has(track.name), () => `two tracks named ${track.name}`);
    tracks.set(track.name, track);
  }
  const sanitized = (name) => THREE.PropertyBinding.sanitizeNodeName(name);
  const objects = new Map();
  for (const bone of animated) {
    report.check(nodeNames.has(bone.name), () => `no node named "${bone.name}" in the glTF JSON`);
    const object = gltf.root.getObjectByName(sanitized(bone.name));
    if (!report.check(object !== undefined, () => `no object "${sanitized(bone.name)}" in gltf.scene`)) continue;
    objects.set(bone.name, object);
    const trackName = `${sanitized(bone.name)}.quaternion`;
    const track = tracks.get(trackName);
    if (!report.check(track !== undefined, () => `no track ${trackName} for bone ${bone.name}`)) continue;
    const times = Array.from(track.times);
    const want = bone.keys.map((key) => key.time);
    report.check(times.length === want.length && times.every((t, i) => t === want[i]),
                 () => `${trackName} times [${times.join(',')}], expected [${want.join(',')}]`);
  }
  const still = new Map();
  for (const bone of missing) {
    report.check(!tracks.has(`${sanitized(bone.name)}.quaternion`),
                 () => `bone ${bone.name} is 0,0,0,0 in every row but has a track`);
    const object = gltf.root.getObjectByName(sanitized(bone.name));
    if (object) still.set(bone.name, { object, rest: object.quaternion.toArray() });
  }
  const known = new Set(animated.map((bone) => `${sanitized(bone.name)}.quaternion`));
  for (const name of tracks.keys()) report.check(known.has(name), () => `unexpected track ${name}`);

  const mixer = new THREE.AnimationMixer(gltf.root);
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  for (const { t, kind } of csv.samples) {
    action.reset();
    mixer.setTime(t);
    for (const bone of animated) {
      const object = objects.get(bone.name);
      if (!object) continue;
      const got = object.quaternion.toArray();
      const want = poseAt(bone.keys, t);
      const distance = signFreeDistance(got, want);
      report.check(distance <= TOLERANCE,
                   () => `${bone.name} at t=${t} (${kind}): three.js ${formatQuat(got)}, expected ` +
                         `${formatQuat(want)} (±q), off by ${distance.toExponential(2)}`);
    }
    for (const [name, { object, rest }] of still) {
      const got = object.quaternion.toArray();
      report.check(signFreeDistance(got, rest) === 0, () => `missing bone ${name} moved to ${formatQuat(got)} at t=${t}`);
    }
  }
  action.stop();
  mixer.uncacheRoot(gltf.root);
  console.log(`  clip "${clip.name}": ${animated.length} bones x ${csv.samples.length} times checked against the CSV`);
}

async function checkOutput(file, source, csv) {
  report.setContext(file);
  const read = report.attempt('reading the file', () => new Uint8Array(readFileSync(file)));
  if (!read.ok) return;
  const bytes = read.value;
  const ext = extname(file).toLowerCase();
  // .vrm and .vrma are GLB by convention (VRMC_vrm_animation 1.0 schema), like .glb; .gltf is JSON.
  const wantGlb = ['.glb', '.vrm', '.vrma'].includes(ext);
  report.check(wantGlb === isGlb(bytes), () => `a ${ext} file ${isGlb(bytes) ? 'in' : 'not in'} GLB format`);
  const split = report.attempt('reading the glTF container', () => splitContainer(bytes));
  if (!split.ok) return;
  const container = split.value;
  checkSelfContained(container.json);

  let validation = null;
  try {
    validation = await validate(file, bytes);
  } catch (error) {
    report.fail(`validator rejected the file: ${error && error.message ? error.message : error}`);
  }
  if (validation) checkValidation(file, validation, source ? source.validation : null);

  let loaded;
  try {
    loaded = await loadWithThree(file, container);
    report.pass();
  } catch (error) {
    report.fail(`GLTFLoader.parse failed: ${error && error.message ? error.message : error}`);
    return;
  }
  checkConsole(loaded.consoleMessages, source);
  const { gltf } = loaded;
  console.log(`${file}: three r${THREE.REVISION}: ${gltf.animations.length} clip(s)`);
  if (source) {
    compareJson(container.json, source);
    compareImages(file, container, source);
    compareScenes(gltf, source);
    if (args['new-clips']) checkClipsBind(gltf);
    else compareWithSource(gltf, source);
  }
  else if (csv) compareWithCsv(gltf, container.json, csv);
}

let source = null;
let csv = null;
try {
  if (args.input !== undefined) source = await loadGltfSource(args.input);
  if (csvSource) csv = loadCsvSource(csvSource);
} catch (error) {
  console.error(`interop: cannot read the input: ${error && error.stack ? error.stack : error}`);
  console.log('0 passed, 1 failed');
  process.exit(2);
}
for (const file of args.positional) await checkOutput(file, source, csv);
report.setContext('');
report.finish();
