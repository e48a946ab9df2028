#!/usr/bin/env node
// The .vrma pairs of check_diff_vrma.mjs, made from one .vrma animconv wrote (its humanoid clip):
//   OUTDIR/expr.vrma       IN with three expressions, each on a node of its own named after
//                          another (E_happy for `happy`, E_aa for `aa`, E_my for the custom
//                          `myFace`): a linear track over 1.5, a STEP track, a linear ramp.
//   OUTDIR/expr_swap.vrma  expr.vrma with `happy` and `aa` listed on each other's node: the same
//                          node names and tracks, another face in three-vrm-animation.
//   OUTDIR/moved.vrma      IN with its hips hung under a new root node at (0.5, 0, 2):
//                          three-vrm-animation applies that node's world matrix to the hips track,
//                          so the hips play 2.06 m (times the model's scale) from IN's.
//
//   node make_vrma_diff_fixtures.mjs IN.vrma OUTDIR
//
// Exit 1 when IN is not a .vrma with a hips bone, 2 on usage errors.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packGlb, splitContainer } from './lib/glb.mjs';

if (process.argv.length !== 4) {
  console.error('usage: make_vrma_diff_fixtures.mjs IN.vrma OUTDIR');
  process.exit(2);
}
const [input, outDir] = process.argv.slice(2);
const fail = (message) => {
  console.error(`make_vrma_diff_fixtures: ${input}: ${message}`);
  process.exit(1);
};

function load() {
  const { json, bin } = splitContainer(new Uint8Array(readFileSync(input)));
  const extension = json.extensions?.VRMC_vrm_animation;
  if (!extension?.humanoid?.humanBones?.hips || !json.animations?.length) fail('no VRMA with hips');
  return { json, bin: bin ? Uint8Array.from(bin) : new Uint8Array(0) };
}

// Appends float32 `data` as an accessor of `type`; returns its index.
function addAccessor(glb, data, type) {
  const floats = Float32Array.from(data);
  const bytes = new Uint8Array(floats.buffer);
  const offset = (glb.bin.length + 3) & ~3;
  const bin = new Uint8Array(offset + bytes.length);
  bin.set(glb.bin);
  bin.set(bytes, offset);
  glb.bin = bin;
  const { json } = glb;
  json.buffers ??= [{ byteLength: 0 }];
  json.buffers[0].byteLength = bin.length;
  json.bufferViews ??= [];
  json.bufferViews.push({ buffer: 0, byteOffset: offset, byteLength: bytes.length });
  json.accessors ??= [];
  const accessor = { bufferView: json.bufferViews.length - 1, componentType: 5126, type,
                     count: floats.length / (type === 'SCALAR' ? 1 : 3) };
  if (type === 'SCALAR') {
    accessor.min = [Math.min(...floats)];
    accessor.max = [Math.max(...floats)];
  }
  json.accessors.push(accessor);
  return json.accessors.length - 1;
}

function addRootNode(json, node) {
  json.nodes.push(node);
  const index = json.nodes.length - 1;
  json.scenes[json.scene ?? 0].nodes.push(index);
  return index;
}

// One expression on a new node `nodeName`, its weights in the translation's x.
function addExpression(glb, group, expression, nodeName, times, weights, interpolation) {
  const { json } = glb;
  const node = addRootNode(json, { name: nodeName });
  const extension = json.extensions.VRMC_vrm_animation;
  extension.expressions ??= {};
  extension.expressions[group] ??= {};
  extension.expressions[group][expression] = { node };
  const animation = json.animations[0];
  const sampler = { input: addAccessor(glb, times, 'SCALAR'),
                    output: addAccessor(glb, weights.flatMap((w) => [w, 0, 0]), 'VEC3'), interpolation };
  animation.samplers.push(sampler);
  animation.channels.push({ sampler: animation.samplers.length - 1, target: { node, path: 'translation' } });
}

function write(name, glb) {
  writeFileSync(join(outDir, name), new Uint8Array(packGlb(glb.json, glb.bin)));
}

mkdirSync(outDir, { recursive: true });
const times = [0, 0.5, 1, 1.5, 2];
const expr = load();
addExpression(expr, 'preset', 'happy', 'E_happy', times, [0, 1.5, -0.5, 0.3, 1], 'LINEAR');
addExpression(expr, 'preset', 'aa', 'E_aa', times, [0, 1, 0, 1, 0], 'STEP');
addExpression(expr, 'custom', 'myFace', 'E_my', times, [0.2, 0.4, 0.6, 0.8, 1], 'LINEAR');
write('expr.vrma', expr);
const preset = expr.json.extensions.VRMC_vrm_animation.expressions.preset;
[preset.happy, preset.aa] = [preset.aa, preset.happy];
write('expr_swap.vrma', expr);

const moved = load();
const hips = moved.json.extensions.VRMC_vrm_animation.humanoid.humanBones.hips.node;
const scene = moved.json.scenes[moved.json.scene ?? 0];
if (!scene.nodes.includes(hips)) fail('the hips are not a root node');
scene.nodes = scene.nodes.filter((n) => n !== hips);
addRootNode(moved.json, { name: 'moved_root', translation: [0.5, 0, 2], children: [hips] });
write('moved.vrma', moved);
