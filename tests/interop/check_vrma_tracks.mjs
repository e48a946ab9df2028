#!/usr/bin/env node
// Every .vrma the suite wrote must hold an animation the REAL consumer finds: for each file under
// DIR, @pixiv/three-vrm-animation 3.5.5 (VRMAnimationLoaderPlugin, three r187) must give at least
// one VRMAnimation with at least one track (humanoid rotation/translation, expression or lookAt)
// holding keys. An animconv exit 0 with a .vrma no player animates anything with is the
// "partial output" docs/cli.md forbids without --allow-partial.
//
//   node check_vrma_tracks.mjs --dir OUT_DIR --min-files N [--max-failure-lines N]
//
// --min-files: how many .vrma the conversions wrote at least, so a check of an empty folder fails.
// Exit status 1 when a check failed, 2 on a usage/setup error.

import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Report, parseArgs, requireModules, usage } from './lib/common.mjs';
import { loadGltfFile } from './lib/vrm.mjs';

requireModules(['three', '@pixiv/three-vrm-animation']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { VRMAnimationLoaderPlugin } = await import('@pixiv/three-vrm-animation');

const args = parseArgs(process.argv.slice(2), { flags: [], options: ['dir', 'min-files', 'max-failure-lines'] });
if (args.dir === undefined || args['min-files'] === undefined) usage('--dir and --min-files are required');
if (!existsSync(args.dir)) usage(`${args.dir} not found`);
const minFiles = Number(args['min-files']);

function vrmaFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...vrmaFiles(path));
    else if (entry.name.toLowerCase().endsWith('.vrma')) files.push(path);
  }
  return files.sort();
}

const report = new Report(args['max-failure-lines'] === undefined ? 200 : Number(args['max-failure-lines']));
const files = vrmaFiles(args.dir);
report.check(files.length >= minFiles, `${files.length} .vrma file(s) under ${args.dir}, expected at least ${minFiles}`);

// The keyframe tracks of one VRMAnimation that hold at least one key.
function tracksWithKeys(animation) {
  const tracks = [
    ...animation.humanoidTracks.rotation.values(),
    ...animation.humanoidTracks.translation.values(),
    ...animation.expressionTracks.preset.values(),
    ...animation.expressionTracks.custom.values(),
    ...(animation.lookAtTrack ? [animation.lookAtTrack] : []),
  ];
  return tracks.filter((track) => track.times.length > 0).length;
}

for (const file of files) {
  report.setContext(relative(args.dir, file));
  try {
    const { gltf } = await loadGltfFile(THREE, GLTFLoader, file,
                                        [(parser) => new VRMAnimationLoaderPlugin(parser)]);
    const animations = gltf.userData.vrmAnimations ?? [];
    const counts = animations.map(tracksWithKeys);
    report.check(counts.some((count) => count > 0),
                 `${animations.length} VRMAnimation(s) with [${counts.join(', ')}] track(s) holding keys; ` +
                 'a player animates nothing with it');
  } catch (error) {
    report.fail(`GLTFLoader + VRMAnimationLoaderPlugin failed: ${error && error.message ? error.message : error}`);
  }
}
report.finish();
