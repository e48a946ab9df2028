#!/usr/bin/env node
// A glTF whose meshes sit on nodes that cannot take --compress-meshes' dequantization themselves,
// so that the writer hands each mesh to a new child node (formats/gltf/gltf_mesh_dequantize.h),
// for check_compress.mjs --quantized-meshes:
//
//   node make_child_node_fixture.mjs OUT.gltf
//
// - node 0 "spinner": a two-primitive mesh, a camera, a child, and an animated rotation;
// - node 1 "arm": a joint of a skin (the skinned mesh on node 3) drawing a one-primitive mesh,
//   with an animated translation;
// - node 2 "tilted": a one-primitive mesh on a node whose rotation is no unit quaternion (readers
//   compose it as written), child of node 1;
// - node 3 "skinned": a mesh skinned to node 1, translated (its transform is ignored).
// Every mesh is a wavy 10 x 10 grid (100 vertices, enough for the grid to pay for a new node).
// The buffer is embedded (a data: URI).

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

if (process.argv.length !== 3) {
  console.error('usage: make_child_node_fixture.mjs OUT.gltf');
  process.exit(2);
}
const output = process.argv[2];
const chunks = [];
let length = 0;
const views = [];
const accessors = [];
function addView(array, target) {
  const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  const padding = (4 - (length % 4)) % 4;
  if (padding) chunks.push(Buffer.alloc(padding));
  length += padding;
  views.push({ buffer: 0, byteOffset: length, byteLength: bytes.length, ...(target ? { target } : {}) });
  chunks.push(bytes);
  length += bytes.length;
  return views.length - 1;
}
function addAccessor(array, type, componentType, count, target, bounds) {
  const accessor = { bufferView: addView(array, target), componentType, count, type };
  if (bounds) {
    const n = array.length / count;
    accessor.min = [];
    accessor.max = [];
    for (let c = 0; c < n; ++c) {
      let low = Infinity;
      let high = -Infinity;
      for (let i = c; i < array.length; i += n) {
        low = Math.min(low, array[i]);
        high = Math.max(high, array[i]);
      }
      accessor.min.push(low);
      accessor.max.push(high);
    }
  }
  accessors.push(accessor);
  return accessors.length - 1;
}
const SIDE = 10;
// A grid of SIDE x SIDE vertices, `size` wide, waved by `phase`: positions, normals, indices.
function grid(size, phase, offset) {
  const positions = new Float32Array(SIDE * SIDE * 3);
  const normals = new Float32Array(SIDE * SIDE * 3);
  for (let j = 0; j < SIDE; ++j) {
    for (let i = 0; i < SIDE; ++i) {
      const k = (j * SIDE + i) * 3;
      const x = (i / (SIDE - 1) - 0.5) * size;
      const z = (j / (SIDE - 1) - 0.5) * size;
      positions.set([x + offset, 0.1 * size * Math.sin(3 * x / size + phase) * Math.cos(2 * z / size), z], k);
      const n = [-0.3 * Math.cos(3 * x / size + phase), 1, 0.2 * Math.sin(2 * z / size)];
      const l = Math.hypot(...n);
      normals.set(n.map((v) => v / l), k);
    }
  }
  const indices = [];
  for (let j = 0; j + 1 < SIDE; ++j) {
    for (let i = 0; i + 1 < SIDE; ++i) {
      const a = j * SIDE + i;
      indices.push(a, a + SIDE, a + 1, a + 1, a + SIDE, a + SIDE + 1);
    }
  }
  return { positions, normals, indices: new Uint16Array(indices) };
}
function primitive(size, phase, offset, extra = {}) {
  const g = grid(size, phase, offset);
  return {
    attributes: {
      POSITION: addAccessor(g.positions, 'VEC3', 5126, SIDE * SIDE, 34962, true),
      NORMAL: addAccessor(g.normals, 'VEC3', 5126, SIDE * SIDE, 34962, false),
      ...extra,
    },
    indices: addAccessor(g.indices, 'SCALAR', 5123, g.indices.length, 34963, false),
  };
}
const meshes = [
  { name: 'two-part', primitives: [primitive(2, 0, -1.2), primitive(1.5, 1, 1.1)] },
  { name: 'arm-mesh', primitives: [primitive(0.8, 2, 0)] },
  { name: 'tilted-mesh', primitives: [primitive(0.5, 3, 0)] },
];
// The skinned mesh: every vertex on joint 0 (node 1) with weight 1.
const joints = new Uint8Array(SIDE * SIDE * 4);
const weights = new Float32Array(SIDE * SIDE * 4);
for (let v = 0; v < SIDE * SIDE; ++v) weights[v * 4] = 1;
meshes.push({
  name: 'skinned-mesh',
  primitives: [primitive(1.2, 4, 0, {
    JOINTS_0: addAccessor(joints, 'VEC4', 5121, SIDE * SIDE, 34962, false),
    WEIGHTS_0: addAccessor(weights, 'VEC4', 5126, SIDE * SIDE, 34962, false),
  })],
});
const inverseBind = addAccessor(new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.5, 0, 1]), 'MAT4', 5126, 1);
const times = addAccessor(new Float32Array([0, 0.5, 1, 1.5, 2]), 'SCALAR', 5126, 5, undefined, true);
const turn = (angle) => [0, Math.sin(angle / 2), 0, Math.cos(angle / 2)];
const rotations = addAccessor(new Float32Array([0, 0.8, 1.6, 2.4, 3.2].flatMap(turn)), 'VEC4', 5126, 5);
const translations = addAccessor(new Float32Array([0, 0.5, 0, 0.3, 0.6, 0, 0.6, 0.4, 0.2, 0.3, 0.5, 0.4, 0, 0.5, 0]), 'VEC3', 5126, 5);
const gltf = {
  asset: { version: '2.0', generator: 'animconv tests/interop/make_child_node_fixture.mjs' },
  scene: 0,
  scenes: [{ nodes: [0, 3] }],
  nodes: [
    { name: 'spinner', mesh: 0, camera: 0, children: [1] },
    { name: 'arm', mesh: 1, translation: [0, 0.5, 0], children: [2] },
    { name: 'tilted', mesh: 2, translation: [0.3, 0.2, 0], rotation: [0, 0, 0.5, 0.9] },
    { name: 'skinned', mesh: 3, skin: 0, translation: [2, 0, 0] },
  ],
  skins: [{ joints: [1], inverseBindMatrices: inverseBind }],
  cameras: [{ type: 'perspective', perspective: { yfov: 0.8, znear: 0.1 } }],
  meshes,
  animations: [{
    name: 'move',
    samplers: [{ input: times, output: rotations }, { input: times, output: translations }],
    channels: [{ sampler: 0, target: { node: 0, path: 'rotation' } },
               { sampler: 1, target: { node: 1, path: 'translation' } }],
  }],
  accessors,
  bufferViews: views,
  buffers: [{ byteLength: length, uri: `data:application/octet-stream;base64,${Buffer.concat(chunks).toString('base64')}` }],
};
mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, JSON.stringify(gltf));
