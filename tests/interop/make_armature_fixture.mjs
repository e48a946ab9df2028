#!/usr/bin/env node
// Puts a glTF rig (as animconv writes it from a BVH: the hips a scene root, embedded buffers)
// under an armature node the way Blender and FBX exports hold one: turned -90° about X (Z up)
// and scaled 0.01 (centimetres), the hips' rest and keys rewritten into the armature's space so
// that every joint's world motion stays the same (docs/root_motion.md, "Tests").
//
//   node make_armature_fixture.mjs IN.gltf OUT.gltf
//
// The hips' translation keys become R⁻¹·p/s and their rotation keys R⁻¹·q (a uniform scale turns
// nothing); the scale reaches every joint below too, so their offsets (rest and keyed) become
// p/s, centimetres as in an FBX. The new values go to a buffer of their own, so no accessor of
// the input changes.
// Exit 1 when the input is not that shape, 2 on usage errors.

import { readFileSync, writeFileSync } from 'node:fs';
import { requireModules } from './lib/common.mjs';

requireModules(['three']);
const THREE = await import('three');

if (process.argv.length !== 4) {
  console.error('usage: make_armature_fixture.mjs IN.gltf OUT.gltf');
  process.exit(2);
}
const [input, output] = process.argv.slice(2);
const gltf = JSON.parse(readFileSync(input, 'utf8'));
const fail = (message) => {
  console.error(`make_armature_fixture: ${input}: ${message}`);
  process.exit(1);
};

const SCALE = 0.01;
const turn = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(1, 0, 0), -Math.PI / 2);
const unturn = turn.clone().invert();

const buffers = gltf.buffers.map((buffer) => {
  const match = /^data:[^;]*;base64,(.*)$/.exec(buffer.uri ?? '');
  if (!match) fail('buffers must be embedded (data: URIs)');
  return Buffer.from(match[1], 'base64');
});
const readFloats = (accessorIndex) => {
  const accessor = gltf.accessors[accessorIndex];
  const view = gltf.bufferViews[accessor.bufferView];
  if (accessor.componentType !== 5126 || (view.byteStride ?? 0) !== 0) fail('float outputs, tightly packed');
  const width = { SCALAR: 1, VEC3: 3, VEC4: 4 }[accessor.type];
  const bytes = buffers[view.buffer];
  const offset = bytes.byteOffset + (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
  return new Float32Array(bytes.buffer.slice(offset, offset + accessor.count * width * 4));
};

const roots = gltf.scenes[gltf.scene ?? 0].nodes;
if (roots.length !== 1) fail('one scene root (the hips) expected');
const hipsIndex = roots[0];
const hips = gltf.nodes[hipsIndex];

// The hips' rest in the armature's space.
const position = new THREE.Vector3().fromArray(hips.translation ?? [0, 0, 0]);
const rotation = new THREE.Quaternion().fromArray(hips.rotation ?? [0, 0, 0, 1]);
hips.translation = position.clone().multiplyScalar(1 / SCALE).applyQuaternion(unturn).toArray();
hips.rotation = unturn.clone().multiply(rotation).toArray();
const below = [...(hips.children ?? [])];
while (below.length > 0) {
  const node = gltf.nodes[below.pop()];
  if (node.translation) node.translation = node.translation.map((x) => x / SCALE);
  below.push(...(node.children ?? []));
}

// The hips' keys, into a new buffer.
const added = [];
let addedBytes = 0;
for (const animation of gltf.animations ?? []) {
  for (const channel of animation.channels) {
    const onHips = channel.target.node === hipsIndex;
    if (!onHips && channel.target.path !== 'translation') continue;
    const sampler = animation.samplers[channel.sampler];
    if ((sampler.interpolation ?? 'LINEAR') === 'CUBICSPLINE') fail('cubic hips channels are not handled');
    const values = Float32Array.from(readFloats(sampler.output));
    if (!onHips) {
      for (let i = 0; i < values.length; ++i) values[i] /= SCALE;
    } else if (channel.target.path === 'translation') {
      const v = new THREE.Vector3();
      for (let i = 0; i < values.length; i += 3) {
        v.fromArray(values, i).multiplyScalar(1 / SCALE).applyQuaternion(unturn).toArray(values, i);
      }
    } else if (channel.target.path === 'rotation') {
      const q = new THREE.Quaternion();
      for (let i = 0; i < values.length; i += 4) {
        unturn.clone().multiply(q.fromArray(values, i)).toArray(values, i);
      }
    } else {
      fail(`a ${channel.target.path} channel on the hips is not handled`);
    }
    const accessor = { ...gltf.accessors[sampler.output] };
    delete accessor.byteOffset;
    delete accessor.min;
    delete accessor.max;
    gltf.bufferViews.push({ buffer: gltf.buffers.length, byteOffset: addedBytes, byteLength: values.byteLength });
    accessor.bufferView = gltf.bufferViews.length - 1;
    gltf.accessors.push(accessor);
    sampler.output = gltf.accessors.length - 1;
    added.push(Buffer.from(values.buffer));
    addedBytes += values.byteLength;
  }
}
if (added.length === 0) fail('the hips have no translation or rotation channel');
const bytes = Buffer.concat(added);
gltf.buffers.push({ byteLength: bytes.length, uri: `data:application/octet-stream;base64,${bytes.toString('base64')}` });

// The armature: a new scene root above the hips.
gltf.nodes.push({ name: 'Armature', rotation: turn.toArray(), scale: [SCALE, SCALE, SCALE], children: [hipsIndex] });
gltf.scenes[gltf.scene ?? 0].nodes = [gltf.nodes.length - 1];
writeFileSync(output, JSON.stringify(gltf));
console.log(`${output}: '${hips.name}' under 'Armature' (-90° about X, scale ${SCALE}), ${added.length} channel(s) rewritten`);
