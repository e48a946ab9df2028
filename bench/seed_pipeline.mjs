// The seed article's pipeline, file to file, as its users run it today (issue 18, the baseline of
// bench/seed_vs_animconv.mjs): the Unity CSV split into lines and numbers with `split` and
// `Number`, each of the 55 bones' rotations mirrored to three.js's handedness as the article does
// (-x, -y, z, w) into a QuaternionKeyframeTrack at one key per row, one AnimationClip, and
// AnimationClip.toJSON written with JSON.stringify. Current three.js (the interop tests' r187).
//
// Usage: node bench/seed_pipeline.mjs THREE_BUILD_DIR IN.csv BONES.txt INTERVAL_SECONDS OUT.json
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [threeDir, input, bonesFile, interval, output] = process.argv.slice(2);
if (!output) {
  console.error('usage: node bench/seed_pipeline.mjs THREE_BUILD_DIR IN.csv BONES.txt INTERVAL_SECONDS OUT.json');
  process.exit(1);
}
const THREE = await import(pathToFileURL(path.join(threeDir, 'three.module.js')).href);

const bones = fs.readFileSync(bonesFile, 'utf8').trim().split('\n').map((name) => name.trim());
const lines = fs.readFileSync(input, 'utf8').trim().split('\n');
const data = [];
for (let j = 0; j < lines.length; j++) {
  data[j] = [];
  const strs = lines[j].split(',');
  for (let i = 0; i < bones.length * 4; i++) data[j][i] = Number(strs[i]);
}
const step = Number(interval);
const tracks = [];
for (let i = 0; i < bones.length; i++) {
  const times = new Float32Array(data.length);
  const values = new Float32Array(data.length * 4);
  for (let j = 0; j < data.length; j++) {
    times[j] = step * j;
    const q = new THREE.Quaternion(-data[j][i * 4], -data[j][i * 4 + 1], data[j][i * 4 + 2], data[j][i * 4 + 3]);
    q.toArray(values, j * 4);
  }
  tracks.push(new THREE.QuaternionKeyframeTrack(`${bones[i]}.quaternion`, times, values));
}
const clip = new THREE.AnimationClip('anim', -1, tracks);
fs.writeFileSync(output, JSON.stringify(THREE.AnimationClip.toJSON(clip)));
