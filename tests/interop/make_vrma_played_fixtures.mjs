#!/usr/bin/env node
// Makes the inputs of check_vrma_played.mjs from the sample data (the third-party samples are
// never copied into data/), each one a case where an output once played differently in
// three-vrm-animation than its input with exit 0:
//   step_rotations.vrm   vrmaddon_skinned_mesh_parent_vrm1 (VRM 1.0) with a STEP clip: every
//                        humanoid bone but the eyes turned ±40° about its own axis at 9 keys
//                        0.25 s apart, and a STEP hips translation. three-vrm-animation plays a
//                        .vrma's rotation tracks linearly whatever the sampler says.
//   step_blink.glb       vrmaddon_simple_morph's mesh, without its VRM extension, its one target
//                        named eyeBlinkLeft (ARKit) and animated 0, 1, 0, 1 by a STEP sampler at
//                        0, 1, 2, 3 s: the blinkLeft expression track made of it, likewise.
//   hips_under_root.vrma three-vrm_test.vrma with its hips under a new root node 0.1 m below the
//                        origin, so its rest feet stand below it, and a hips translation (a walk
//                        forward with a bob; the sample has none): three-vrm scales the hips
//                        translation by the rest hips' world y, not by the height above the feet.
//   binary_aa_vrm0.vrm   vrmaddon_simple_morph (VRM 0.x) whose 'a' is isBinary with bind weight
//                        50, its target animated 0, 0.1, 0.3, 0.5, 0.2: the inverted bind plays
//                        0.5 or 0 in three-vrm.
//   blink_blocks_mouth.vrm  EXPRESSIONS_VRM1 (make_vrm_expression_fixtures.mjs's VRM 1.0 model)
//                        with only aa (Meter Happy target 0) and blink (Meter Blink target 0,
//                        overrideMouth block); the clip holds aa's target at 0.8 while blink's
//                        is 0.6 from 1 to 1.5 s: three-vrm blocks aa there.
//
//   node make_vrma_played_fixtures.mjs DATA_DIR EXPRESSIONS_VRM1 OUT_DIR

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packGlb, splitContainer } from './lib/glb.mjs';

const [dataDir, expressionsVrm1, outDir] = process.argv.slice(2);
if (!dataDir || !expressionsVrm1 || !outDir) {
  console.error('usage: node make_vrma_played_fixtures.mjs DATA_DIR EXPRESSIONS_VRM1 OUT_DIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

function load(path) {
  const bytes = readFileSync(path);
  const { json, bin } = splitContainer(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { json, chunks: [bin ?? new Uint8Array(0)], length: bin ? bin.length : 0 };
}

function addAccessor(file, floats, type, extra = {}) {
  const padded = (file.length + 3) & ~3;
  if (padded > file.length) file.chunks.push(new Uint8Array(padded - file.length));
  const data = new Uint8Array(new Float32Array(floats).buffer);
  file.chunks.push(data);
  file.json.bufferViews ??= [];
  file.json.bufferViews.push({ buffer: 0, byteOffset: padded, byteLength: data.length });
  file.length = padded + data.length;
  const components = { SCALAR: 1, VEC3: 3, VEC4: 4 }[type];
  file.json.accessors ??= [];
  file.json.accessors.push({
    bufferView: file.json.bufferViews.length - 1, componentType: 5126,
    count: floats.length / components, type, ...extra,
  });
  return file.json.accessors.length - 1;
}

function addChannel(file, animation, node, path, times, values, interpolation = 'LINEAR') {
  const type = path === 'rotation' ? 'VEC4' : path === 'weights' ? 'SCALAR' : 'VEC3';
  const input = addAccessor(file, times, 'SCALAR', { min: [times[0]], max: [times[times.length - 1]] });
  const output = addAccessor(file, values, type);
  animation.samplers.push({ input, output, interpolation });
  animation.channels.push({ sampler: animation.samplers.length - 1, target: { node, path } });
}

function save(file, name) {
  const bin = new Uint8Array(file.length);
  let at = 0;
  for (const chunk of file.chunks) { bin.set(chunk, at); at += chunk.length; }
  file.json.buffers = [{ byteLength: bin.length }];
  writeFileSync(join(outDir, name), new Uint8Array(packGlb(file.json, bin)));
}

// q · (axis, angle), [x, y, z, w].
function turned(rest, axis, radians) {
  const s = Math.sin(radians / 2);
  const [bx, by, bz, bw] = [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(radians / 2)];
  const [ax, ay, az, aw] = rest;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

// step_rotations.vrm
{
  const file = load(join(dataDir, 'vrm', 'vrmaddon_skinned_mesh_parent_vrm1.vrm'));
  const bones = file.json.extensions.VRMC_vrm.humanoid.humanBones;
  const animation = { name: 'step', channels: [], samplers: [] };
  const times = Array.from({ length: 9 }, (_, k) => k * 0.25);
  let seed = 1;
  const random = () => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; };
  for (const [name, { node }] of Object.entries(bones)) {
    if (/Eye/.test(name)) continue;
    const rest = file.json.nodes[node].rotation ?? [0, 0, 0, 1];
    const axis = [random() - 0.5, random() - 0.5, random() - 0.5];
    const length = Math.hypot(...axis);
    const values = times.flatMap((_, k) =>
      turned(rest, axis.map((v) => v / length), (40 * Math.PI / 180) * Math.sin(k * 0.9 + random())));
    addChannel(file, animation, node, 'rotation', times, values, 'STEP');
  }
  const hips = bones.hips.node;
  const t0 = file.json.nodes[hips].translation ?? [0, 0, 0];
  addChannel(file, animation, hips, 'translation', times,
             times.flatMap((_, k) => [t0[0] + 0.1 * Math.sin(k), t0[1] - 0.05 * k / 9, t0[2] + 0.3 * k / 9]),
             'STEP');
  file.json.animations = [animation];
  save(file, 'step_rotations.vrm');
}

// step_blink.glb
{
  const file = load(join(dataDir, 'vrm', 'vrmaddon_simple_morph.vrm'));
  file.json.meshes[0].extras = { targetNames: ['eyeBlinkLeft'] };
  delete file.json.extensions.VRM;
  file.json.extensionsUsed = (file.json.extensionsUsed ?? []).filter((e) => e !== 'VRM');
  const mesh = file.json.nodes.findIndex((n) => n.mesh === 0);
  const animation = { name: 'blink', channels: [], samplers: [] };
  addChannel(file, animation, mesh, 'weights', [0, 1, 2, 3], [0, 1, 0, 1], 'STEP');
  file.json.animations = [animation];
  save(file, 'step_blink.glb');
}

// hips_under_root.vrma
{
  const file = load(join(dataDir, 'vrm', 'three-vrm_test.vrma'));
  const hips = file.json.extensions.VRMC_vrm_animation.humanoid.humanBones.hips.node;
  file.json.nodes.push({ name: 'root', children: [hips], translation: [0, -0.1, 0] });
  const scene = file.json.scenes[file.json.scene ?? 0];
  scene.nodes = scene.nodes.filter((n) => n !== hips).concat([file.json.nodes.length - 1]);
  // Its clip moves no hips: a walk forward with a bob, from the rest position, 0 to 3 s.
  const t0 = file.json.nodes[hips].translation ?? [0, 0, 0];
  const times = [0, 0.5, 1, 1.5, 2, 2.5, 3];
  addChannel(file, file.json.animations[0], hips, 'translation', times,
             times.flatMap((t) => [t0[0] + 0.05 * Math.sin(2 * t), t0[1] - 0.04 * Math.abs(Math.sin(3 * t)), t0[2] + 0.4 * t]));
  save(file, 'hips_under_root.vrma');
}

// binary_aa_vrm0.vrm
{
  const file = load(join(dataDir, 'vrm', 'vrmaddon_simple_morph.vrm'));
  const group = file.json.extensions.VRM.blendShapeMaster.blendShapeGroups.find((g) => g.presetName === 'a');
  group.binds[0].weight = 50;
  group.isBinary = true;
  const mesh = file.json.nodes.findIndex((n) => n.mesh === 0);
  const animation = { name: 'aa', channels: [], samplers: [] };
  addChannel(file, animation, mesh, 'weights', [0, 0.5, 1, 1.5, 2], [0, 0.1, 0.3, 0.5, 0.2]);
  file.json.animations = [animation];
  save(file, 'binary_aa_vrm0.vrm');
}

// blink_blocks_mouth.vrm
{
  const file = load(expressionsVrm1);
  const nodeNamed = (name) => file.json.nodes.findIndex((n) => n.name === name);
  const happy = nodeNamed('Meter Happy');
  const blink = nodeNamed('Meter Blink');
  const expressions = file.json.extensions.VRMC_vrm.expressions;
  expressions.preset = {
    aa: { morphTargetBinds: [{ node: happy, index: 0, weight: 1 }] },
    blink: { overrideMouth: 'block', morphTargetBinds: [{ node: blink, index: 0, weight: 1 }] },
  };
  expressions.custom = {};
  const targets = (node) => file.json.meshes[file.json.nodes[node].mesh].primitives[0].targets.length;
  const times = [0, 0.5, 1, 1.5, 2];
  const animation = { name: 'blocked', channels: [], samplers: [] };
  const keyed = (node, values) => times.flatMap((_, k) => {
    const row = new Array(targets(node)).fill(0);
    row[0] = values[k];
    return row;
  });
  addChannel(file, animation, happy, 'weights', times, keyed(happy, [0.8, 0.8, 0.8, 0.8, 0.8]));
  addChannel(file, animation, blink, 'weights', times, keyed(blink, [0, 0, 0.6, 0.6, 0]));
  file.json.animations = [animation];
  save(file, 'blink_blocks_mouth.vrm');
}
