#!/usr/bin/env node
// Gives a BVH's leftEye and rightEye joints a gaze that moves (the bundled pirouette holds its eyes
// still): at each frame's time t the left eye turns by yaw 25°·sin(2πt/3) + 1°, pitch
// 12°·sin(2πt/2.2 + 1) and roll 3°·sin(2πt), the right eye by the same yaw − 1° and pitch, no roll
// (2° apart, as converging eyes are; the roll is what a lookAt cannot hold). The angles are those
// of three.js's Euler order YXZ (VRMLookAt.EULER_ORDER), written as the joint's own channels
// (its CHANNELS order, which BVHLoader multiplies in the order listed). Everything else of the file
// stays as it was.
//
//   node make_eye_gaze_fixture.mjs IN.bvh OUT.bvh
//
// Exit 1 when the input has no such eyes, 2 on usage errors.

import { readFileSync, writeFileSync } from 'node:fs';
import { requireModules } from './lib/common.mjs';

requireModules(['three']);
const THREE = await import('three');

if (process.argv.length !== 4) {
  console.error('usage: make_eye_gaze_fixture.mjs IN.bvh OUT.bvh');
  process.exit(2);
}
const [input, output] = process.argv.slice(2);
const fail = (message) => {
  console.error(`make_eye_gaze_fixture: ${input}: ${message}`);
  process.exit(1);
};
const text = readFileSync(input, 'utf8');
const motionAt = text.search(/^MOTION\s*$/m);
if (motionAt < 0) fail('no MOTION section');

// Each joint's first column and channel names, in the order the frames list them.
const joints = new Map();
let column = 0;
let current = null;
for (const line of text.slice(0, motionAt).split(/\r?\n/)) {
  const words = line.trim().split(/\s+/);
  if (words[0] === 'ROOT' || words[0] === 'JOINT') current = words[1];
  if (words[0] === 'End') current = null;
  if (words[0] === 'CHANNELS') {
    const count = Number(words[1]);
    joints.set(current, { column, channels: words.slice(2, 2 + count) });
    column += count;
  }
}

const DEG = Math.PI / 180;
export function gaze(eye, t) {
  const yaw = 25 * Math.sin(2 * Math.PI * t / 3) + (eye === 'leftEye' ? 1 : -1);
  const pitch = 12 * Math.sin(2 * Math.PI * t / 2.2 + 1);
  const roll = eye === 'leftEye' ? 3 * Math.sin(2 * Math.PI * t) : 0;
  return { yaw, pitch, roll };
}

const lines = text.slice(motionAt).split(/\r?\n/);
const frameTime = Number((lines.find((l) => /^Frame Time:/.test(l)) ?? '').split(':')[1]);
const firstFrame = lines.findIndex((l) => /^Frame Time:/.test(l)) + 1;
if (!(frameTime > 0) || firstFrame <= 0) fail('no Frame Time');
for (const eye of ['leftEye', 'rightEye']) {
  const joint = joints.get(eye);
  if (!joint || joint.channels.length !== 3 || !joint.channels.every((c) => /rotation$/.test(c))) {
    fail(`no ${eye} joint with three rotation channels`);
  }
  const order = joint.channels.map((c) => c[0].toUpperCase()).join('');
  for (let f = firstFrame; f < lines.length; ++f) {
    if (lines[f].trim() === '') continue;
    const values = lines[f].trim().split(/\s+/);
    const { yaw, pitch, roll } = gaze(eye, (f - firstFrame) * frameTime);
    const q = new THREE.Quaternion().setFromEuler(new THREE.Euler(pitch * DEG, yaw * DEG, roll * DEG, 'YXZ'));
    const angles = new THREE.Euler().setFromQuaternion(q, order);
    joint.channels.forEach((channel, i) => {
      values[joint.column + i] = (angles[channel[0].toLowerCase()] / DEG).toFixed(6);
    });
    lines[f] = values.join(' ');
  }
}
writeFileSync(output, text.slice(0, motionAt) + lines.join('\n'));
