#!/usr/bin/env node
// Makes the inputs of the expression-binds checks (check_vrm_expression_binds.mjs) from the
// sample data, since no sample model binds morph targets with isBinary and overrides:
//   expressions_vrm1.vrm  vrmspec isBinary_Overridden (VRM 1.0) with 3 morph targets (zero
//                         deltas: only the weights are checked) on 'Meter Happy' and 'Meter
//                         Blink', and morphTargetBinds on six expressions: isBinary, overrideBlink
//                         and overrideMouth blend and block, a custom one, two binds on a target
//                         (and the custom joy_left and joy_right, bound to nothing), and the four
//                         look expressions its expression lookAt weighs (one isBinary);
//   expressions_vrm0.vrm  vrmaddon_simple_morph (VRM 0.x) whose 'blink' (isBinary, weight 50) and
//                         'joy' (weight 30) bind the same target as 'a' (weight 100);
//   expressions.vrma      three-vrm_test.vrma with tracks for aa, blink, blinkLeft, surprised and
//                         the custom 'wink' beside its happy, crossing 0.5 and 0 between keys,
//                         and its lookAt swept through both signs of yaw and pitch and past 90°.
//
//   node make_vrm_expression_fixtures.mjs DATA_DIR OUT_DIR

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packGlb, splitContainer } from './lib/glb.mjs';

const [dataDir, outDir] = process.argv.slice(2);
if (!dataDir || !outDir) {
  console.error('usage: node make_vrm_expression_fixtures.mjs DATA_DIR OUT_DIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

function load(name) {
  const bytes = readFileSync(join(dataDir, 'vrm', name));
  const { json, bin } = splitContainer(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { json, chunks: [bin ?? new Uint8Array(0)] , length: bin ? bin.length : 0 };
}

// Appends `floats` as a new bufferView + accessor; returns the accessor index.
function addAccessor(file, floats, type, extra = {}) {
  const padded = (file.length + 3) & ~3;
  if (padded > file.length) file.chunks.push(new Uint8Array(padded - file.length));
  const data = new Uint8Array(new Float32Array(floats).buffer);
  file.chunks.push(data);
  file.json.bufferViews.push({ buffer: 0, byteOffset: padded, byteLength: data.length });
  file.length = padded + data.length;
  const components = { SCALAR: 1, VEC3: 3, VEC4: 4 }[type];
  file.json.accessors.push({
    bufferView: file.json.bufferViews.length - 1, componentType: 5126,
    count: floats.length / components, type, ...extra,
  });
  return file.json.accessors.length - 1;
}

function save(file, name) {
  const bin = new Uint8Array(file.length);
  let at = 0;
  for (const chunk of file.chunks) { bin.set(chunk, at); at += chunk.length; }
  file.json.buffers = [{ byteLength: bin.length }];
  writeFileSync(join(outDir, name), new Uint8Array(packGlb(file.json, bin)));
}

// Morph targets with zero deltas on a mesh's primitives (GLTFLoader then gives the mesh
// `count` morphTargetInfluences).
function addMorphTargets(file, meshIndex, count) {
  for (const primitive of file.json.meshes[meshIndex].primitives) {
    const vertices = file.json.accessors[primitive.attributes.POSITION].count;
    const zero = addAccessor(file, new Array(vertices * 3).fill(0), 'VEC3', { min: [0, 0, 0], max: [0, 0, 0] });
    primitive.targets = Array.from({ length: count }, () => ({ POSITION: zero }));
  }
  file.json.meshes[meshIndex].weights = new Array(count).fill(0);
}

// VRM 1.0.
{
  const file = load('vrmspec_VRMC_vrm_expressions_isBinary_Overridden.vrm');
  const happyNode = file.json.nodes.findIndex((n) => n.name === 'Meter Happy');
  const blinkNode = file.json.nodes.findIndex((n) => n.name === 'Meter Blink');
  addMorphTargets(file, file.json.nodes[happyNode].mesh, 3);
  addMorphTargets(file, file.json.nodes[blinkNode].mesh, 3);
  const expressions = file.json.extensions.VRMC_vrm.expressions;
  const bind = (node, index, weight) => ({ node, index, weight });
  Object.assign(expressions.preset.happy, {
    overrideMouth: 'blend',
    morphTargetBinds: [bind(happyNode, 0, 1), bind(blinkNode, 2, 0.3)],
  });
  Object.assign(expressions.preset.blink, {
    morphTargetBinds: [bind(blinkNode, 0, 1), bind(happyNode, 1, 0.5)],
  });
  expressions.preset.aa = {
    overrideLookAt: 'blend', morphTargetBinds: [bind(happyNode, 1, 0.8), bind(blinkNode, 1, 0.6)],
  };
  expressions.preset.surprised = { overrideMouth: 'block', morphTargetBinds: [bind(blinkNode, 1, 0.4)] };
  expressions.preset.blinkLeft = { morphTargetBinds: [bind(happyNode, 2, 1)] };
  // The look expressions the model's lookAt (type expression, outputScale 1) weighs.
  expressions.preset.lookUp = { morphTargetBinds: [bind(blinkNode, 2, 0.7)] };
  expressions.preset.lookDown = { morphTargetBinds: [bind(happyNode, 0, 0.4)] };
  expressions.preset.lookLeft = { morphTargetBinds: [bind(blinkNode, 1, 0.5)] };
  expressions.preset.lookRight = { isBinary: true, morphTargetBinds: [bind(happyNode, 2, 0.6)] };
  expressions.custom = {
    wink: { isBinary: true, overrideBlink: 'block', morphTargetBinds: [bind(happyNode, 2, 0.25)] },
    // Bound to nothing: custom names for the --expression-map check to read back.
    joy_left: {},
    joy_right: {},
  };
  save(file, 'expressions_vrm1.vrm');
}

// VRM 0.x.
{
  const file = load('vrmaddon_simple_morph.vrm');
  for (const group of file.json.extensions.VRM.blendShapeMaster.blendShapeGroups) {
    if (group.presetName === 'blink') Object.assign(group, { isBinary: true, binds: [{ mesh: 0, index: 0, weight: 50 }] });
    if (group.presetName === 'joy') group.binds = [{ mesh: 0, index: 0, weight: 30 }];
  }
  save(file, 'expressions_vrm0.vrm');
}

// VRMA.
{
  const file = load('three-vrm_test.vrma');
  const times = [0, 0.375, 0.75, 1.125, 1.5, 1.875, 2.25, 2.625, 3];
  const input = addAccessor(file, times, 'SCALAR', { min: [0], max: [3] });
  const curves = {
    aa: [0, 0.5, 1, 0.7, 0.2, 0.9, 0.4, 0.6, 0],
    blink: [0, 0.2, 0.9, 0.6, 0.1, 0.5, 0.8, 0.3, 0],
    blinkLeft: [0.1, 0.3, 0.3, 0.8, 0.5, 0.2, 0.6, 0.9, 0.4],
    surprised: [0, 0, 0, 0, 0.3, 0, 0, 0, 0],
    wink: [0, 0, 0, 0, 0, 0, 0.7, 0.2, 0],
  };
  const extension = file.json.extensions.VRMC_vrm_animation;
  const animation = file.json.animations[0];
  for (const [name, weights] of Object.entries(curves)) {
    const values = weights.flatMap((w) => [w, 0, 0]);
    const output = addAccessor(file, values, 'VEC3');
    file.json.nodes.push({ name });
    const node = file.json.nodes.length - 1;
    file.json.scenes[0].nodes.push(node);
    animation.samplers.push({ input, output });
    animation.channels.push({ sampler: animation.samplers.length - 1, target: { node, path: 'translation' } });
    const group = name === 'wink' ? 'custom' : 'preset';
    extension.expressions[group] ??= {};
    extension.expressions[group][name] = { node };
  }
  // The lookAt track swept so that yaw and pitch cross 0 between keys and pass the range maps'
  // 90° (the look expressions' weights bend there): Ry(yaw) · Rx(pitch) at its own key times.
  const lookAt = animation.channels.find((c) => c.target.node === extension.lookAt.node && c.target.path === 'rotation');
  const lookTimes = file.json.accessors[animation.samplers[lookAt.sampler].input].count;
  const yaws = [-60, 40, -30, 100, -95, 20, 0];
  const pitches = [20, -35, 10, 50, -80, 5, 0];
  const quaternions = [];
  for (let k = 0; k < lookTimes; ++k) {
    const y = (yaws[k % yaws.length] * Math.PI) / 360;
    const x = (pitches[k % pitches.length] * Math.PI) / 360;
    quaternions.push(Math.cos(y) * Math.sin(x), Math.sin(y) * Math.cos(x), -Math.sin(y) * Math.sin(x),
                     Math.cos(y) * Math.cos(x));
  }
  animation.samplers[lookAt.sampler].output = addAccessor(file, quaternions, 'VEC4');
  save(file, 'expressions.vrma');
}
