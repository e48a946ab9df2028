// Writes OUTPUT.gltf and OUTPUT.glb: one buffer that is mostly mesh data (MIB, default 1) beside a
// short node animation, the case where the glTF writer held the buffer four times over (bytes,
// base64, the data: URI string, the dumped text) and the reader kept the URI: 1.28 times the
// memory bound of docs/reliability.md before, 0.78 after. Usage: node gen_large_buffer.mjs OUTPUT [MIB]
import { writeFileSync } from 'node:fs';

const [output, mibText] = process.argv.slice(2);
if (!output) {
  console.error('usage: node gen_large_buffer.mjs OUTPUT [MIB]');
  process.exit(2);
}
const mib = Number(mibText ?? 1);
const vertices = Math.floor((mib * 1024 * 1024) / 12 / 3) * 3;  // whole triangles of float32 xyz
const positions = new Float32Array(vertices * 3);
for (let i = 0; i < vertices; ++i) positions.set([i % 7, Math.floor(i / 7) % 5, i % 3], i * 3);
const times = new Float32Array([0, 1]);
const translations = new Float32Array([0, 0, 0, 0, 1, 0]);
const data = Buffer.concat([positions, times, translations].map((a) => Buffer.from(a.buffer)));

function document(buffer) {
  return {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ name: 'mesh', mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    buffers: [buffer],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: positions.byteLength },
      { buffer: 0, byteOffset: positions.byteLength, byteLength: 8 },
      { buffer: 0, byteOffset: positions.byteLength + 8, byteLength: 24 },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: vertices, type: 'VEC3', min: [0, 0, 0], max: [6, 4, 2] },
      { bufferView: 1, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
      { bufferView: 2, componentType: 5126, count: 2, type: 'VEC3' },
    ],
    animations: [{
      name: 'up',
      samplers: [{ input: 1, output: 2 }],
      channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }],
    }],
  };
}

writeFileSync(`${output}.gltf`, JSON.stringify(document({
  byteLength: data.length, uri: `data:application/octet-stream;base64,${data.toString('base64')}`,
})));
// GLB 2.0: header, JSON chunk padded with spaces, BIN chunk padded with zeros.
const pad = (buffer, fill) => Buffer.concat([buffer, Buffer.alloc((4 - (buffer.length % 4)) % 4, fill)]);
const json = pad(Buffer.from(JSON.stringify(document({ byteLength: data.length }))), 0x20);
const bin = pad(data, 0);
const header = Buffer.alloc(12);
header.writeUInt32LE(0x46546c67, 0);
header.writeUInt32LE(2, 4);
header.writeUInt32LE(12 + 8 + json.length + 8 + bin.length, 8);
const chunk = (type, body) => {
  const head = Buffer.alloc(8);
  head.writeUInt32LE(body.length, 0);
  head.writeUInt32LE(type, 4);
  return Buffer.concat([head, body]);
};
writeFileSync(`${output}.glb`, Buffer.concat([header, chunk(0x4e4f534a, json), chunk(0x004e4942, bin)]));
