#!/usr/bin/env node
// Checks that a three.js clip animconv wrote (`convert IN.json -o OUT.json`) moves the same three.js
// objects the same way as the clip it came from, in three.js r187 itself: the track names must
// bind the objects the input's bound (node names as they are, skeleton bones, the mixer's root) and
// per-target morph tracks must drive the same targets of the mesh.
//
// usage: node check_three_bindings.mjs [--max-failure-lines N] INPUT.json OUTPUT.json
//
// The scene is made from the input's track names (PropertyBinding.parseTrackName): the mixer's
// root is a SkinnedMesh whose skeleton holds a Bone for every '.bones[NAME]' track; every other
// node is an Object3D child of it (a Mesh where morph tracks drive it). A mesh's morph targets are
// more than the clip animates and in another order, so that only a binding by name (or, for a
// decimal bracket, by index) puts a weight on the right target: "t0" … "tN" first for the indices
// the brackets name, then the other names in reverse order, then a target nothing animates. Two
// such scenes play the input and the output with an AnimationMixer each; at 41 times over the
// clip every object's position, quaternion and scale and every morph influence must agree within
// 1e-6, and three.js may print nothing while binding the output that it did not print for the
// input (a track that binds nothing is a warning there).
//
// Prints one line per failure and ends with "N passed, N failed"; exit status 1 on failure.

import { Report, parseArgs, readJson, requireModules, usage } from './lib/common.mjs';

requireModules(['three']);
const THREE = await import('three');

const args = parseArgs(process.argv.slice(2), { flags: [], options: ['max-failure-lines'] });
if (args.positional.length !== 2) usage('give the input clip and the output clip');
const [inputPath, outputPath] = args.positional;
const report = new Report(args['max-failure-lines'] === undefined ? 200 : Number(args['max-failure-lines']));

const firstClip = (json) => (Array.isArray(json) ? json[0] : json);
const input = THREE.AnimationClip.parse(firstClip(readJson(inputPath)));
const output = THREE.AnimationClip.parse(firstClip(readJson(outputPath)));

// What the input's tracks need: nodes, skeleton bones, and per mesh the targets its brackets name.
const nodes = new Set();
const bones = new Set();
const morphs = new Map();  // node name ('' = root) -> {indices: Set, names: Set}
for (const track of input.tracks) {
  const parsed = THREE.PropertyBinding.parseTrackName(track.name);
  const node = parsed.nodeName ?? '';
  if (parsed.objectName === 'bones') {
    bones.add(parsed.objectIndex);
  } else if (node !== '') {
    nodes.add(node);
  }
  if (parsed.propertyName !== 'morphTargetInfluences') continue;
  if (!morphs.has(node)) morphs.set(node, { indices: new Set(), names: new Set() });
  const bracket = parsed.propertyIndex;
  if (bracket === undefined) continue;
  if (/^(0|[1-9][0-9]*)$/.test(bracket)) {
    morphs.get(node).indices.add(Number(bracket));
  } else {
    morphs.get(node).names.add(bracket);
  }
}

// Morph targets for a mesh: the indexed ones first, the named ones reversed, one more at the end.
function morphGeometry(spec, wholeCount) {
  const indexCount = Math.max(wholeCount, spec.indices.size ? Math.max(...spec.indices) + 1 : 0);
  const names = [];
  for (let i = 0; i < indexCount; ++i) names.push(`t${i}`);
  names.push(...[...spec.names].reverse(), 'untouched');
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute([0, 0, 0], 3));
  geometry.morphAttributes.position = names.map(
    (name) => Object.assign(new THREE.Float32BufferAttribute([0, 0, 0], 3), { name }));
  return geometry;
}

// The widest whole-array morph track of a node in either clip sets its mesh's least target count.
function wholeCount(node) {
  let count = 0;
  for (const clip of [input, output]) {
    for (const track of clip.tracks) {
      const parsed = THREE.PropertyBinding.parseTrackName(track.name);
      if ((parsed.nodeName ?? '') === node && parsed.propertyName === 'morphTargetInfluences' &&
          parsed.propertyIndex === undefined) {
        count = Math.max(count, track.getValueSize());
      }
    }
  }
  return count;
}

function makeScene() {
  const material = new THREE.MeshBasicMaterial();
  const rootSpec = morphs.get('');
  const rootGeometry = rootSpec ? morphGeometry(rootSpec, wholeCount('')) : new THREE.BufferGeometry();
  const root = new THREE.SkinnedMesh(rootGeometry, material);
  root.name = 'ROOT';
  if (rootSpec) root.updateMorphTargets();
  const skeletonBones = [...bones].map((name) => Object.assign(new THREE.Bone(), { name }));
  skeletonBones.forEach((bone) => root.add(bone));
  root.bind(new THREE.Skeleton(skeletonBones));
  const objects = [root, ...skeletonBones];
  for (const name of nodes) {
    const spec = morphs.get(name);
    const object = spec ? new THREE.Mesh(morphGeometry(spec, wholeCount(name)), material) : new THREE.Object3D();
    object.name = name;
    if (spec) object.updateMorphTargets();
    root.add(object);
    objects.push(object);
  }
  return { root, objects };
}

// Plays `clip` on a new scene; what three.js printed while binding it.
function play(clip) {
  const scene = makeScene();
  const saved = { warn: console.warn, error: console.error };
  const messages = [];
  console.warn = (...values) => messages.push(values.map(String).join(' ').split('\n')[0]);
  console.error = console.warn;
  try {
    scene.mixer = new THREE.AnimationMixer(scene.root);
    scene.mixer.clipAction(clip).play();
    scene.mixer.setTime(0);
  } finally {
    console.warn = saved.warn;
    console.error = saved.error;
  }
  scene.messages = messages;
  return scene;
}

const source = play(input);
const written = play(output);
const newMessages = written.messages.filter((message) => !source.messages.includes(message));
report.check(newMessages.length === 0,
             () => `three.js printed for the output only: ${newMessages.join(' | ')}`);

const describe = (object) => (object.name === 'ROOT' ? 'the mixer root' : `'${object.name}'`);
const samples = 40;
for (let s = 0; s <= samples; ++s) {
  const seconds = (input.duration * s) / samples;
  source.mixer.setTime(seconds);
  written.mixer.setTime(seconds);
  source.objects.forEach((object, index) => {
    const other = written.objects[index];
    for (const property of ['position', 'quaternion', 'scale']) {
      const a = object[property].toArray();
      const b = other[property].toArray();
      const off = Math.max(...a.map((value, i) => Math.abs(value - b[i])));
      report.check(off <= 1e-6, () => `${describe(object)}.${property} at ${seconds} s: input ${a}, output ${b}`);
    }
    if (object.morphTargetInfluences) {
      const a = object.morphTargetInfluences;
      const b = other.morphTargetInfluences;
      const names = Object.keys(object.morphTargetDictionary);
      a.forEach((value, i) => {
        report.check(Math.abs(value - b[i]) <= 1e-6,
                     () => `${describe(object)} target '${names[i]}' at ${seconds} s: input ${value}, output ${b[i]}`);
      });
    }
  });
}
report.finish();
