#!/usr/bin/env node
// Makes a VRM 0.x model with eye bones, since no sample has one: three-vrm_sphere.vrm (VRM 0.x,
// lookAtTypeName "Bone", no eyes) with leftEye and rightEye nodes under its head, mapped in
// humanBones, one of them with a rest rotation of its own (a real rig's eye joints are often
// turned), and firstPerson range maps that differ per direction (inner 90 -> 8 deg, outer
// 90 -> 12, down 60 -> 10, up 45 -> 15), so that an applier mixing them up shows.
//
//   node make_vrm0_eye_fixture.mjs DATA_DIR OUT.vrm

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packGlb, splitContainer } from './lib/glb.mjs';

const [dataDir, outFile] = process.argv.slice(2);
if (!dataDir || !outFile) {
  console.error('usage: node make_vrm0_eye_fixture.mjs DATA_DIR OUT.vrm');
  process.exit(2);
}
const bytes = readFileSync(join(dataDir, 'vrm', 'three-vrm_sphere.vrm'));
const { json, bin } = splitContainer(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
const vrm = json.extensions.VRM;
const head = vrm.humanoid.humanBones.find((b) => b.bone === 'head').node;
const eyes = [
  { bone: 'leftEye', name: 'Eye_L', translation: [0.03, 0.06, 0.09] },
  // 20 degrees about Z, as an eye joint whose axes follow the eye socket.
  { bone: 'rightEye', name: 'Eye_R', translation: [-0.03, 0.06, 0.09],
    rotation: [0, 0, Math.sin(Math.PI / 18), Math.cos(Math.PI / 18)] },
];
const headNode = json.nodes[head];
headNode.children = headNode.children ?? [];
for (const eye of eyes) {
  const node = { name: eye.name, translation: eye.translation };
  if (eye.rotation) node.rotation = eye.rotation;
  json.nodes.push(node);
  headNode.children.push(json.nodes.length - 1);
  vrm.humanoid.humanBones.push({ bone: eye.bone, node: json.nodes.length - 1, useDefaultValues: true });
}
const map = (xRange, yRange) => ({ curve: [0, 0, 0, 1, 1, 1, 1, 0], xRange, yRange });
Object.assign(vrm.firstPerson, {
  lookAtTypeName: 'Bone',
  lookAtHorizontalInner: map(90, 8),
  lookAtHorizontalOuter: map(90, 12),
  lookAtVerticalDown: map(60, 10),
  lookAtVerticalUp: map(45, 15),
});
writeFileSync(outFile, new Uint8Array(packGlb(json, bin)));
