#!/usr/bin/env node
// How far apart two glTF files' meshes are drawn, as three.js r187 draws them: for the peers'
// outputs in bench/compress-peers (gltfpack and glTF Transform restructure the scene, so the
// vertex-by-vertex pairing of check_compress.mjs cannot follow them), docs/performance.md.
//
// usage: node mesh_distance.mjs REFERENCE.glb OTHER.glb [--max-rest F]
//
// With --max-rest it also exits 1 when the distance at rest exceeds F (plus 1e-6 of it, float32
// arithmetic): interop.compress.*-quantized.mesh-distance holds --compress-meshes to its bound so.
//
// Every vertex of every mesh is placed in world space at rest (GLTFLoader + MeshoptDecoder,
// getVertexPosition: skinning and morphs as three.js applies them), once with every morph weight
// at 0 and once per morph target with that target alone at weight 1. Each vertex of one file is
// paired with the vertex of the other (among meshes with as many morph targets) that is nearest
// over all these poses together, and the distance of the pair is its largest over the poses. The
// largest such distance, both ways (so geometry dropped or added shows too), divided by the size
// of the reference mesh the vertex belongs to (or is paired with), is printed as JSON:
// {"fraction": F, "rest": R, "vertices": [NA, NB]}; `rest` is the same over the first pose alone.
// That pose, the base mesh, is what --mesh-tolerance bounds; a morph target's pose may double it
// (its delta's error adding to the base's), and so may a file's own weights (SimpleMorph's 0.5 and
// 0.5: its vertices drawn as loaded may move by up to 1 + 0.5 + 0.5 times the bound).
//
// A mesh's size is what --mesh-tolerance is a fraction of (docs/formats/gltf.md) and what
// check_compress.mjs measures against (lib/mesh_quantized.mjs): the largest side of the bounding
// box of the glTF mesh's POSITION values (all the primitives one node draws, local units), times
// the most its pose stretches a local length (poseStretch), so in world units. Not the world
// bounding box at rest: that one changes with the mesh's rotation (a long mesh turned 45 degrees
// has sides 0.71 times as long), and a skinned mesh posed away from its bind pose (RobotExpressive's
// hands: 1.48 where the bind pose's is 1.65) would make the same displacement read 1.1-1.4 times
// larger than the bound it was made within.

import { readFileSync } from 'node:fs';
import { parseGltfCapturingConsole, requireModules, stubProgressEvent } from './lib/common.mjs';

requireModules(['three']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { MeshoptDecoder } = await import('three/addons/libs/meshopt_decoder.module.js');
const { splitContainer } = await import('./lib/glb.mjs');
const { loadableCopy, sceneOfRootNodes } = await import('./lib/gltf_load.mjs');
const { poseStretch } = await import('./lib/mesh_quantized.mjs');

async function load(file) {
  stubProgressEvent();
  const loader = new GLTFLoader();
  loader.setMeshoptDecoder(MeshoptDecoder);
  const container = splitContainer(new Uint8Array(readFileSync(file)));
  const { gltf } = await parseGltfCapturingConsole(loader, loadableCopy(file, container), async (loaded) => {
    loaded.root = loaded.scene ?? await sceneOfRootNodes(loaded.parser);
  });
  gltf.root.updateMatrixWorld(true);
  return gltf;
}

// Per three.js mesh (a glTF primitive): its vertices' world positions, pose after pose ([x, y, z]
// * poses per vertex), and its glTF mesh's size in world units (above: all the primitives that one
// node draws of one glTF mesh).
function poseAll(gltf) {
  const meshes = [];
  const p = new THREE.Vector3();
  const boxes = new Map();  // glTF mesh drawn by one node -> [low, high]
  gltf.root.traverse((object) => {
    if (!object.isMesh || !object.geometry.attributes.position) return;
    if (object.isSkinnedMesh) object.skeleton.update();
    const count = object.geometry.attributes.position.count;
    const influences = object.morphTargetInfluences ?? [];
    const own = [...influences];
    const poses = 1 + influences.length;
    const values = new Float64Array(count * poses * 3);
    for (let pose = 0; pose < poses; ++pose) {
      for (let t = 0; t < influences.length; ++t) influences[t] = t === pose - 1 ? 1 : 0;
      for (let i = 0; i < count; ++i) {
        object.getVertexPosition(i, p).applyMatrix4(object.matrixWorld);
        values.set([p.x, p.y, p.z], (i * poses + pose) * 3);
      }
    }
    own.forEach((w, t) => { influences[t] = w; });
    // (Not geometry.computeBoundingBox(): three.js widens that by the morph targets' reach.)
    const local = new THREE.Box3().setFromBufferAttribute(object.geometry.attributes.position);
    const low = local.min.toArray();
    const high = local.max.toArray();
    const stretch = poseStretch(object);
    // GLTFLoader puts a multi-primitive mesh's primitives under one Group.
    const association = gltf.parser.associations.get(object);
    const key = association?.meshes !== undefined && object.parent?.isGroup
      ? `${object.parent.uuid}:${association.meshes}` : object.uuid;
    const box = boxes.get(key) ?? [[Infinity, Infinity, Infinity], [-Infinity, -Infinity, -Infinity], 0];
    for (let c = 0; c < 3; ++c) {
      box[0][c] = Math.min(box[0][c], low[c]);
      box[1][c] = Math.max(box[1][c], high[c]);
    }
    box[2] = Math.max(box[2], stretch);
    boxes.set(key, box);
    meshes.push({ count, poses, values, key });
  });
  for (const mesh of meshes) {
    const [low, high, stretch] = boxes.get(mesh.key);
    mesh.extent = Math.max(...high.map((h, c) => h - low[c])) * stretch;
  }
  return meshes;
}

// The largest over `from`'s vertices of (distance to the nearest of `to`'s vertices with as many
// poses) / extent, the extent the reference mesh's (`extentOf(fromMesh, toMesh)`).
function farthest(from, to, extentOf, restOnly) {
  let worst = 0;
  for (const a of from) {
    const candidates = to.filter((b) => b.poses === a.poses);
    if (candidates.length === 0) return Infinity;
    // A grid over the rest positions of the candidates, cells of 1/256 of the extent: the nearest
    // vertex is looked for in the 27 cells around, then everywhere when none is there.
    const cell = Math.max(a.extent, 1e-12) / 256;
    const grid = new Map();
    const key = (x, y, z) => `${Math.floor(x / cell)},${Math.floor(y / cell)},${Math.floor(z / cell)}`;
    for (const b of candidates) {
      for (let j = 0; j < b.count; ++j) {
        const o = j * b.poses * 3;
        const k = key(b.values[o], b.values[o + 1], b.values[o + 2]);
        if (!grid.has(k)) grid.set(k, []);
        grid.get(k).push([b, j]);
      }
    }
    const distance = (i, b, j) => {
      let d = 0;
      for (let pose = 0; pose < (restOnly ? 1 : a.poses); ++pose) {
        const oa = (i * a.poses + pose) * 3;
        const ob = (j * b.poses + pose) * 3;
        d = Math.max(d, Math.hypot(a.values[oa] - b.values[ob], a.values[oa + 1] - b.values[ob + 1],
                                   a.values[oa + 2] - b.values[ob + 2]));
      }
      return d;
    };
    for (let i = 0; i < a.count; ++i) {
      const o = i * a.poses * 3;
      const [x, y, z] = [a.values[o], a.values[o + 1], a.values[o + 2]];
      let best = Infinity;
      let bestMesh = null;
      for (let dx = -1; dx <= 1; ++dx) {
        for (let dy = -1; dy <= 1; ++dy) {
          for (let dz = -1; dz <= 1; ++dz) {
            for (const [b, j] of grid.get(key(x + dx * cell, y + dy * cell, z + dz * cell)) ?? []) {
              const d = distance(i, b, j);
              if (d < best) [best, bestMesh] = [d, b];
            }
          }
        }
      }
      if (best > cell) {
        for (const b of candidates) {
          for (let j = 0; j < b.count; ++j) {
            const d = distance(i, b, j);
            if (d < best) [best, bestMesh] = [d, b];
          }
        }
      }
      worst = Math.max(worst, best / Math.max(extentOf(a, bestMesh), 1e-12));
    }
  }
  return worst;
}

const [referenceFile, otherFile, flag, limit] = process.argv.slice(2);
const maxRest = flag === '--max-rest' ? Number(limit) : undefined;
if (!referenceFile || !otherFile || (flag !== undefined && !(maxRest > 0))) {
  console.error('usage: node mesh_distance.mjs REFERENCE.glb OTHER.glb [--max-rest F]');
  process.exit(2);
}
const reference = poseAll(await load(referenceFile));
const other = poseAll(await load(otherFile));
const measure = (restOnly) => Math.max(farthest(reference, other, (a) => a.extent, restOnly),
                                       farthest(other, reference, (b, a) => a.extent, restOnly));
const rest = measure(true);
console.log(JSON.stringify({ fraction: measure(false), rest,
                             vertices: [reference, other].map((m) => m.reduce((n, x) => n + x.count, 0)) }));
if (maxRest !== undefined && !(rest <= maxRest * (1 + 1e-6))) {
  console.log(`FAIL: vertices drawn ${rest} of their mesh's size away at rest, bound ${maxRest}`);
  process.exit(1);
}
