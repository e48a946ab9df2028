#!/usr/bin/env node
// Checks a grounded glTF/GLB or BVH (`animconv convert IN --ground -o OUT.glb`) as three.js r187
// plays it, for inputs without a reference to compare joint by joint (a Unity CSV: rotations only,
// the rig a generated T-pose): GLTFLoader (or BVHLoader, its lengths times --unit) + AnimationMixer
// at every key time of the clip and 8 times between each pair (docs/root_motion.md, "Grounding").
//   - the lowest world height of the --feet joints over the clip is at y = 0 within 1 mm;
//   - the --hips joint stays at least --min-hips metres up at every sample (a rig grounded on
//     joints that all stood at the origin got hips at y = 0: a character sunk to its hips).
//
//   node check_ground_floor.mjs --feet A,B,.. --hips H --min-hips 0.5 [--unit 0.01] OUT.glb|OUT.bvh
//
// Prints one line per failure and "N passed, N failed"; exit 1 on failure, 2 on usage errors.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Report, parseArgs, requireModules, usage, withConsoleAsFailures } from './lib/common.mjs';
import { keysAndBetween, nodeFinder, playOnce } from './lib/playback.mjs';
import { loadGltfFile } from './lib/vrm.mjs';

requireModules(['three']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { BVHLoader } = await import('three/addons/loaders/BVHLoader.js');

const FLOOR = 1e-3;
const args = parseArgs(process.argv.slice(2),
                       { options: ['feet', 'hips', 'min-hips', 'unit', 'max-failure-lines'] });
if (args.positional.length !== 1) usage('give one OUT.glb');
if (args.feet === undefined || args.hips === undefined) usage('--feet A,B,.. and --hips H are required');
const minHips = Number(args['min-hips']);
if (!(minHips > 0)) usage('--min-hips must be a positive number of metres');
const feet = args.feet.split(',');
const unit = args.unit === undefined ? 1 : Number(args.unit);
if (!(unit > 0)) usage('--unit must be a positive number');
const report = new Report(args['max-failure-lines'] === undefined ? 20 : Number(args['max-failure-lines']));
report.setContext(basename(args.positional[0]));

// The scene and its clips: a BVH's skeleton under a group, which the mixer binds by bone name.
async function load(path) {
  if (!path.toLowerCase().endsWith('.bvh')) {
    const { gltf, messages } = await loadGltfFile(THREE, GLTFLoader, path, []);
    report.check(messages.length === 0, () => `loading printed: ${messages.join(' | ')}`);
    return gltf;
  }
  const bvh = new BVHLoader().parse(readFileSync(path, 'utf8'));
  const scene = new THREE.Group();
  scene.add(bvh.skeleton.bones[0]);
  return { scene, animations: [bvh.clip] };
}
const gltf = await load(args.positional[0]);
if (report.check(gltf.animations.length === 1, () => `${gltf.animations.length} clips, expected 1`)) {
  const clip = gltf.animations[0];
  let mixer;
  withConsoleAsFailures(report, 'binding the clip', () => { mixer = playOnce(THREE, gltf.scene, clip); });
  const nodeOf = nodeFinder(THREE, gltf.scene);
  const footNodes = feet.map(nodeOf);
  const hips = nodeOf(args.hips);
  if (report.check(footNodes.every((node) => node !== undefined) && hips !== undefined,
                   () => `no node for one of ${feet} or '${args.hips}'`)) {
    const times = [...new Set(clip.tracks.flatMap((track) => Array.from(track.times)))].sort((a, b) => a - b);
    const position = new THREE.Vector3();
    let lowest = Infinity;
    let lowestAt = 0;
    let lowestHips = Infinity;
    let lowestHipsAt = 0;
    for (const t of keysAndBetween(times, 8)) {
      mixer.setTime(t);
      gltf.scene.updateMatrixWorld(true);
      for (const node of footNodes) {
        const y = position.setFromMatrixPosition(node.matrixWorld).y * unit;
        if (y < lowest) { lowest = y; lowestAt = t; }
      }
      const hipsY = position.setFromMatrixPosition(hips.matrixWorld).y * unit;
      if (hipsY < lowestHips) { lowestHips = hipsY; lowestHipsAt = t; }
    }
    report.check(times.length > 10, () => `${times.length} key times: not a test`);
    report.check(Math.abs(lowest) <= FLOOR, () => `the lowest foot point is at y = ${lowest} (t=${lowestAt}), ` +
                                                  `not within ${FLOOR} m of the floor`);
    report.check(lowestHips >= minHips, () => `the hips come down to y = ${lowestHips} (t=${lowestHipsAt}), ` +
                                              `below ${minHips} m`);
    console.log(`${basename(args.positional[0])}: ${times.length} key times; lowest foot point ` +
                `${lowest.toExponential(2)} m at t=${lowestAt.toFixed(3)}; hips down to ${lowestHips.toFixed(3)} m`);
  }
}
report.finish();
