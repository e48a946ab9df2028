#!/usr/bin/env node
// Checks that a grounded model stands on the floor with its meshes, as three.js r187 draws it
// (docs/root_motion.md, "Grounding"): GLTFLoader + AnimationMixer at every key time of the clip
// and 8 times between each pair, every vertex of every skinned mesh placed as the renderer places
// it (Skeleton.update, SkinnedMesh.getVertexPosition, the mesh's world matrix). The lowest vertex
// over the clip must lie within [-below, +above] metres of y = 0. Grounding the joints instead
// left a shoe's sole under the floor by the joint's height above it.
//
//   node check_ground_soles.mjs --below 0.003 --above 0.003 OUT.glb
//
// Prints the lowest vertex, one line per failure and "N passed, N failed"; exit 1 on failure.

import { basename } from 'node:path';
import { Report, parseArgs, requireModules, usage, withConsoleAsFailures } from './lib/common.mjs';
import { keysAndBetween, playOnce } from './lib/playback.mjs';
import { loadGltfFile } from './lib/vrm.mjs';

requireModules(['three']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');

const args = parseArgs(process.argv.slice(2), { options: ['below', 'above', 'max-failure-lines'] });
if (args.positional.length !== 1) usage('give one OUT.glb');
const below = Number(args.below);
const above = Number(args.above);
if (!(below >= 0) || !(above >= 0)) usage('--below and --above must be metres, 0 or more');
const report = new Report(args['max-failure-lines'] === undefined ? 20 : Number(args['max-failure-lines']));
report.setContext(basename(args.positional[0]));

const { gltf, messages } = await loadGltfFile(THREE, GLTFLoader, args.positional[0], []);
report.check(messages.length === 0, () => `loading printed: ${messages.join(' | ')}`);
const meshes = [];
gltf.scene.traverse((object) => { if (object.isSkinnedMesh) meshes.push(object); });
if (report.check(meshes.length > 0, 'no skinned mesh to stand on the floor') &&
    report.check(gltf.animations.length === 1, () => `${gltf.animations.length} clips, expected 1`)) {
  const clip = gltf.animations[0];
  let mixer;
  withConsoleAsFailures(report, 'binding the clip', () => { mixer = playOnce(THREE, gltf.scene, clip); });
  const times = [...new Set(clip.tracks.flatMap((track) => Array.from(track.times)))].sort((a, b) => a - b);
  report.check(times.length > 10, () => `${times.length} key times: not a test`);
  const vertex = new THREE.Vector3();
  let lowest = Infinity;
  let lowestAt = 0;
  for (const t of keysAndBetween(times, 8)) {
    mixer.setTime(t);
    gltf.scene.updateMatrixWorld(true);
    for (const mesh of meshes) {
      mesh.skeleton.update();
      const count = mesh.geometry.attributes.position.count;
      for (let i = 0; i < count; ++i) {
        const y = mesh.getVertexPosition(i, vertex).applyMatrix4(mesh.matrixWorld).y;
        if (y < lowest) { lowest = y; lowestAt = t; }
      }
    }
  }
  console.log(`${basename(args.positional[0])}: ${times.length} key times; lowest vertex ` +
              `${(lowest * 1000).toFixed(3)} mm at t=${lowestAt.toFixed(3)}`);
  report.check(lowest >= -below && lowest <= above,
               () => `the lowest vertex is at y = ${lowest} m (t=${lowestAt}), outside [-${below}, ${above}]`);
}
report.finish();
