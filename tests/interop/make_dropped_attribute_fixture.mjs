#!/usr/bin/env node
// Leaves attributes out of a glTF's meshes, for the must-fail cases of check_compress.mjs
// --dropped-attributes (compress.cmake): an output of `convert --drop-unused-attributes` with an
// attribute three.js DOES read taken away as well (TEXCOORD_0 under a baseColorTexture, NORMAL)
// must fail the check, so that the check is seen to tell read attributes from unread ones.
//
//   node make_dropped_attribute_fixture.mjs IN.glb|.gltf OUT SEMANTIC [SEMANTIC ...]
//
// Every primitive loses the named attributes (TEXCOORD_0, NORMAL ...) and so does each of its morph
// targets. Nothing else changes: the accessors stay (unused, which the validator only notes), so
// the file is as valid as IN. A .gltf must embed its buffers (data: URIs) or keep them beside OUT.
// Exit 1 when no primitive has any of the attributes (a fixture that removes nothing tests
// nothing), 2 on usage errors.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { packGlb, splitContainer } from './lib/glb.mjs';

if (process.argv.length < 5) {
  console.error('usage: make_dropped_attribute_fixture.mjs IN OUT SEMANTIC [SEMANTIC ...]');
  process.exit(2);
}
const [input, output, ...semantics] = process.argv.slice(2);
const container = splitContainer(new Uint8Array(readFileSync(input)));
const json = container.json;
let removed = 0;
let fromTargets = 0;
for (const mesh of json.meshes ?? []) {
  for (const primitive of mesh.primitives ?? []) {
    for (const semantic of semantics) {
      if (primitive.attributes && semantic in primitive.attributes) {
        delete primitive.attributes[semantic];
        ++removed;
      }
      for (const target of primitive.targets ?? []) {
        if (semantic in target) {
          delete target[semantic];
          ++fromTargets;
        }
      }
    }
  }
}
if (removed + fromTargets === 0) {
  console.error(`make_dropped_attribute_fixture: ${input}: no primitive has ${semantics.join(', ')}`);
  process.exit(1);
}
mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, container.glb ? new Uint8Array(packGlb(json, container.bin)) : JSON.stringify(json));
console.log(`${output}: ${semantics.join(', ')} left out of ${removed} primitives and ${fromTargets} morph targets`);
