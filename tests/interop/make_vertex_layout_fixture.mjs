#!/usr/bin/env node
// Rewrites how a glTF's triangle lists store their vertices without changing what is drawn, for
// the checks of `--compress`'s mesh indexing (formats/gltf/gltf_mesh_weld.h, check_compress.mjs):
//
//   node make_vertex_layout_fixture.mjs IN.gltf OUT.gltf unindexed|duplicated|blend
//
// unindexed:  every indexed triangle primitive loses its indices: each attribute and morph target
//             holds the vertex of every index in turn (what three.js's toNonIndexed makes).
// duplicated: every attribute and morph target holds its vertices twice over, and every other
//             triangle draws the second copy (an indexed list with identical vertices).
// blend:      every triangle primitive is drawn with a material of alphaMode BLEND (its own material
//             so changed, or a new one): --compress-meshes must keep such triangles in their order.
// The vertices drawn keep their bytes, and each accessor its set of values (so min/max stay true).
// IN must embed its buffers (data: URIs); the new data goes to a buffer of its own.
// Exit 1 when the input is not that shape, 2 on usage errors.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

if (process.argv.length !== 5 || !['unindexed', 'duplicated', 'blend'].includes(process.argv[4])) {
  console.error('usage: make_vertex_layout_fixture.mjs IN.gltf OUT.gltf unindexed|duplicated|blend');
  process.exit(2);
}
const [input, output, mode] = process.argv.slice(2);
const gltf = JSON.parse(readFileSync(input, 'utf8'));
const fail = (message) => {
  console.error(`make_vertex_layout_fixture: ${input}: ${message}`);
  process.exit(1);
};
const buffers = gltf.buffers.map((buffer) => {
  const match = /^data:[^;]*;base64,(.*)$/.exec(buffer.uri ?? '');
  if (!match) fail('buffers must be embedded (data: URIs)');
  return Buffer.from(match[1], 'base64');
});
const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 };
const BYTES = { 5121: 1, 5123: 2, 5125: 4, 5126: 4, 5120: 1, 5122: 2 };
// The bytes of each element of accessor `index`.
function elements(index) {
  const accessor = gltf.accessors[index];
  if (accessor.sparse || accessor.bufferView === undefined) fail(`accessor ${index}: not plain`);
  const view = gltf.bufferViews[accessor.bufferView];
  const size = COMPONENTS[accessor.type] * BYTES[accessor.componentType];
  const stride = view.byteStride ?? size;
  const base = (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
  const bytes = buffers[view.buffer];
  return Array.from({ length: accessor.count }, (_, i) => bytes.subarray(base + i * stride, base + i * stride + size));
}
function indexValues(index) {
  const accessor = gltf.accessors[index];
  return elements(index).map((bytes) => (accessor.componentType === 5121 ? bytes.readUInt8(0)
    : accessor.componentType === 5123 ? bytes.readUInt16LE(0) : bytes.readUInt32LE(0)));
}

const parts = [];
let length = 0;
const newBuffer = gltf.buffers.length;
// A new accessor like `index` holding `list` (element bytes), in a view of its own.
function addAccessor(index, list, target = 34962) {
  const data = Buffer.concat(list);
  const padding = (4 - (length % 4)) % 4;
  if (padding) parts.push(Buffer.alloc(padding));
  length += padding;
  gltf.bufferViews.push({ buffer: newBuffer, byteOffset: length, byteLength: data.length, target });
  parts.push(data);
  length += data.length;
  const { byteOffset, sparse, ...rest } = gltf.accessors[index];
  gltf.accessors.push({ ...rest, bufferView: gltf.bufferViews.length - 1, count: list.length });
  return gltf.accessors.length - 1;
}

let changed = 0;
for (const mesh of gltf.meshes ?? []) {
  for (const primitive of mesh.primitives) {
    if ((primitive.mode ?? 4) !== 4 || primitive.indices === undefined) continue;
    if (mode === 'blend') {
      gltf.materials ??= [];
      if (primitive.material === undefined) {
        gltf.materials.push({ alphaMode: 'BLEND' });
        primitive.material = gltf.materials.length - 1;
      } else {
        gltf.materials[primitive.material].alphaMode = 'BLEND';
      }
      ++changed;
      continue;
    }
    const indices = indexValues(primitive.indices);
    const remake = (accessor) => {
      const list = elements(accessor);
      return addAccessor(accessor, mode === 'unindexed' ? indices.map((i) => list[i]) : [...list, ...list]);
    };
    const vertices = gltf.accessors[primitive.attributes.POSITION].count;
    for (const name of Object.keys(primitive.attributes)) primitive.attributes[name] = remake(primitive.attributes[name]);
    for (const target of primitive.targets ?? []) {
      for (const name of Object.keys(target)) target[name] = remake(target[name]);
    }
    if (mode === 'unindexed') {
      delete primitive.indices;
    } else {
      const twice = indices.map((i, k) => (Math.floor(k / 3) % 2 === 1 ? i + vertices : i));
      const type = twice.some((i) => i >= 65535) ? 5125 : 5123;
      const list = twice.map((i) => {
        const bytes = Buffer.alloc(type === 5125 ? 4 : 2);
        if (type === 5125) bytes.writeUInt32LE(i); else bytes.writeUInt16LE(i);
        return bytes;
      });
      primitive.indices = addAccessor(primitive.indices, list, 34963);
      gltf.accessors[primitive.indices].componentType = type;
    }
    ++changed;
  }
}
if (changed === 0) fail('no indexed triangle primitive');
const data = Buffer.concat(parts);
gltf.buffers.push({ byteLength: data.length, uri: `data:application/octet-stream;base64,${data.toString('base64')}` });
mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, JSON.stringify(gltf));
console.log(`${output}: ${changed} primitive(s) ${mode}`);
