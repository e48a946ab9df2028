#!/usr/bin/env node
// Checks a `convert --compress` output (docs/formats/gltf.md, "Compact output") against the plain
// output of the same conversion, with the real consumers: the Khronos glTF Validator
// (gltf-validator@2.0.0-dev.3.10) and three.js r187's GLTFLoader with its MeshoptDecoder
// (three/examples/jsm/libs/meshopt_decoder.module.js) + AnimationMixer; for .vrma also
// @pixiv/three-vrm-animation 3.5.5 on a VRM model (@pixiv/three-vrm 3.5.5).
//
// usage: node check_compress.mjs --plain PLAIN.glb|.gltf|.vrma --compressed OUT
//        [--model MODEL.vrm] [--rotation-deg D] [--translation M] [--scale R] [--weight W]
//        [--expect-meshopt | --expect-core] [--max-failure-lines N]
//        [--quantized-meshes [--mesh-tolerance F] [--normal-deg D] [--texcoord T] [--color C]
//                            [--skin-weight W]]
//        [--dropped-attributes]
//
//  1. The validator, on the compressed file and on a copy with its meshopt views decoded (it cannot
//     look inside EXT_meshopt_compression data itself): per error/warning code no more issues than
//     the plain file has (0 for our own outputs; a third-party model's mesh issues pass through).
//  2. Every sampler output is float or one of glTF 2.0 §3.11's normalized types for its path;
//     with --expect-meshopt animation bufferViews are EXT_meshopt_compression-compressed (the
//     writer leaves tiny ones plain, where the extension's JSON costs more) and the extension is
//     required; with --expect-core (--compress-without-meshopt) the extension is absent and
//     GLTFLoader without a decoder loads the file. With --expect-meshopt GLTFLoader WITHOUT a
//     meshopt decoder must refuse the file
//     with its "setMeshoptDecoder" error (a reader that cannot decode fails clearly).
//  3. Geometry: every mesh's triangles as three.js draws them equal the plain file's, vertex for
//     vertex in every attribute and morph attribute (passed-through views are compressed
//     losslessly; a triangle list without indices may come back indexed, each vertex stored once).
//     With --quantized-meshes (`convert --compress-meshes`, KHR_mesh_quantization) positions,
//     normals, tangents, texture coordinates, colours (and their morph deltas) and skin weights
//     are compared
//     within the writer's bounds instead (lib/mesh_quantized.mjs): vertex for vertex, in world
//     space at rest: displacement <= F (1e-4) x the largest bounding-box side of the plain file's
//     glTF mesh, normals/tangents <= D (0.5) degrees, texcoords <= T (1e-5), colours <= C
//     (0.002), skin weights <= W (1e-4) a component; joint indices may come in a narrower type,
//     the same numbers. There a triangle list (mode 4) may come in another triangle order (opaque
//     materials: vertex cache order) with its corners rotated (the TRIANGLES index codec), so its
//     vertices are paired through triangles paired by position within all these bounds, each
//     triangle once (lib/triangle_pairing.mjs); alphaMode BLEND primitives must keep their order.
//     A file with a type beyond core glTF must require KHR_mesh_quantization (checked with or
//     without the flag).
//     With --dropped-attributes (`convert --drop-unused-attributes`) a compressed mesh may lack
//     attributes and morph attributes the plain one has, but only those three.js does not read for
//     that mesh, judged from the materials as three.js loads the PLAIN file (textures included,
//     each a stand-in without its image): a uv attribute (uv, uv1, uv2, uv3 = TEXCOORD_0..3) no
//     texture of its material samples (no Texture-valued property of the material whose .channel
//     is that index), and `tangent` when the material has no normalMap, no clearcoatNormalMap and
//     no anisotropy. three.js binds neither there (WebGLPrograms: a uv channel only for the maps
//     that use it, vertexTangents only with a normal map or anisotropy; GLTFLoader's material for a
//     mesh without tangents differs only in the normal maps' scale), so leaving them out cannot
//     change what it draws. Anything else missing, and any attribute the plain file lacks, fails.
//     The attributes both have are compared as above, and the playback comparison still runs
//     (vertices merged once the dropped attributes no longer tell them apart leave the drawn
//     triangles as they were). Without the flag a missing attribute fails.
//  4. Playback: both files are loaded (the compressed one with MeshoptDecoder) and every clip is
//     played at every key time and midpoint of both files' tracks. Every animated object's local
//     quaternion (angle, q = -q), position (distance), scale (ratio) and morph weights (absolute)
//     must match the plain file's within the given bounds (defaults: what --compress adds, a
//     tenth of the --reduce defaults) plus 1e-6 of float32 arithmetic, and the local matrix
//     three.js composes (it does not renormalise the quaternion) may not scale by more than the
//     scale bound. With --model (.vrma): the VRMAnimation's clip for that VRM
//     (createVRMAnimationClip) is played on it and its normalized humanoid bones compared.
//     With --quantized-meshes the position and scale of the nodes holding a dequantization are not
//     compared; instead every mesh's vertices (up to 2,000 a mesh) are compared in world space
//     with morphs and skinning applied, the compressed scene put in the plain one's pose (the pose
//     itself is what the object compare checks), within F x extent x (1 + Σ|morph weights|).
//
// Prints one line per failure and the measured maxima; ends with "N passed, N failed".
// Exit status 1 on failure, 2 on a usage or setup error.

import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Report, parseArgs, parseGltfCapturingConsole, requireModules, stubProgressEvent, usage } from './lib/common.mjs';

requireModules(['three', 'gltf-validator']);
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { MeshoptDecoder } = await import('three/addons/libs/meshopt_decoder.module.js');
const { splitContainer } = await import('./lib/glb.mjs');
const { validate, formatIssue, loadableCopy, sceneOfRootNodes, bufferBytes } = await import('./lib/gltf_load.mjs');
const { packGlb } = await import('./lib/glb.mjs');
const { keyAndMidTimes } = await import('./lib/playback.mjs');
const { QuantizedMeshCheck, checkQuantizationExtension } = await import('./lib/mesh_quantized.mjs');

const args = parseArgs(process.argv.slice(2), {
  flags: ['expect-meshopt', 'expect-core', 'quantized-meshes', 'dropped-attributes'],
  options: ['plain', 'compressed', 'model', 'rotation-deg', 'translation', 'scale', 'weight', 'max-failure-lines',
            'mesh-tolerance', 'normal-deg', 'texcoord', 'color', 'skin-weight'],
});
for (const required of ['plain', 'compressed']) {
  if (args[required] === undefined) usage(`--${required} is required`);
  if (!existsSync(args[required])) usage(`${args[required]} not found`);
}
if (args.model !== undefined && !existsSync(args.model)) usage(`${args.model} not found`);
if (args.model !== undefined && args['quantized-meshes']) usage('--quantized-meshes compares meshes; a .vrma has none');
if (args.model !== undefined && args['dropped-attributes']) usage('--dropped-attributes compares meshes; a .vrma has none');
const meshBounds = {
  mesh: Number(args['mesh-tolerance'] ?? 1e-4),
  normalDeg: Number(args['normal-deg'] ?? 0.5),
  texcoord: Number(args.texcoord ?? 1e-5),
  color: Number(args.color ?? 0.002),
  skinWeight: Number(args['skin-weight'] ?? 1e-4),
};
for (const [key, value] of Object.entries(meshBounds)) {
  if (!(value >= 0)) usage(`bad mesh bound ${key} ${value}`);
}
const FLOAT_SLACK = 1e-6;
const bound = {
  rotationDeg: Number(args['rotation-deg'] ?? 0.01),
  translation: Number(args.translation ?? 1e-5),
  scale: Number(args.scale ?? 1e-4),
  weight: Number(args.weight ?? 1e-4),
};
const report = new Report(args['max-failure-lines'] === undefined ? 50 : Number(args['max-failure-lines']));
const plainBytes = new Uint8Array(readFileSync(args.plain));
const compressedBytes = new Uint8Array(readFileSync(args.compressed));
const compressed = splitContainer(compressedBytes);
const plain = splitContainer(plainBytes);
console.log(`bytes: ${basename(args.plain)} ${plainBytes.length}, ${basename(args.compressed)} ${compressedBytes.length} ` +
            `(${(100 * compressedBytes.length / plainBytes.length).toFixed(1)} %)`);

// A GLB of `container` with every EXT_meshopt_compression view decoded by three.js's
// MeshoptDecoder into one plain buffer, the extension gone: the validator can then check the
// quantized accessors themselves (unit rotations, ranges), which it cannot inside the extension.
async function decodedCopy(file, container) {
  await MeshoptDecoder.ready;
  const json = structuredClone(container.json);
  const parts = [];
  let length = 0;
  for (const view of json.bufferViews ?? []) {
    const extension = (view.extensions ?? {}).EXT_meshopt_compression;
    let bytes;
    if (extension) {
      const source = bufferBytes(file, container, extension.buffer)
        .subarray(extension.byteOffset ?? 0, (extension.byteOffset ?? 0) + extension.byteLength);
      bytes = new Uint8Array(extension.count * extension.byteStride);
      MeshoptDecoder.decodeGltfBuffer(bytes, extension.count, extension.byteStride, source, extension.mode,
                                      extension.filter ?? 'NONE');
      delete view.extensions.EXT_meshopt_compression;
      if (Object.keys(view.extensions).length === 0) delete view.extensions;
    } else {
      bytes = bufferBytes(file, container, view.buffer)
        .subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
    }
    length = (length + 3) & ~3;
    parts.push([length, bytes]);
    view.buffer = 0;
    view.byteOffset = length;
    length += bytes.length;
  }
  const bin = new Uint8Array(length);
  for (const [offset, bytes] of parts) bin.set(bytes, offset);
  json.buffers = [{ byteLength: length }];
  for (const key of ['extensionsUsed', 'extensionsRequired']) {
    if (!json[key]) continue;
    json[key] = json[key].filter((name) => name !== 'EXT_meshopt_compression');
    if (json[key].length === 0) delete json[key];
  }
  return new Uint8Array(packGlb(json, bin));
}

// 1. Validator, on the file and on its decoded copy.
const plainReport = await validate(args.plain, plainBytes);
for (const [what, bytes] of [['file', compressedBytes], ['decoded copy', await decodedCopy(args.compressed, compressed)]]) {
  report.setContext(`${basename(args.compressed)} validator (${what})`);
  const { messages, counts } = await validate(args.compressed, bytes);
  // Errors and warnings per code: no code the plain output lacks, no more of one than it has
  // (a third-party input's own mesh issues pass through both).
  for (const [code, count] of counts) {
    const allowed = plainReport.counts.get(code) ?? 0;
    report.check(count <= allowed, () => `${count} x ${formatIssue(messages.find((m) => m.code === code))}` +
                                         ` (the plain output has ${allowed})`);
  }
  const infos = new Map();
  for (const message of messages) {
    if (message.severity > 1 && !plainReport.messages.some((m) => m.code === message.code)) {
      infos.set(message.code, formatIssue(message));
    }
  }
  for (const text of infos.values()) console.log(`note (${what}): ${text}`);
  report.pass();
}

// 2. Encodings.
report.setContext(`${basename(args.compressed)} encodings`);
const ALLOWED = {  // glTF 2.0 §3.11, the sampler output table: componentType -> normalized?
  rotation: { 5126: false, 5120: true, 5122: true },
  weights: { 5126: false, 5120: true, 5121: true, 5122: true, 5123: true },
  translation: { 5126: false },
  scale: { 5126: false },
};
const json = compressed.json;
const animationViews = new Set();
for (const animation of json.animations ?? []) {
  for (const channel of animation.channels) {
    const sampler = animation.samplers[channel.sampler];
    for (const [index, role] of [[sampler.input, 'input'], [sampler.output, 'output']]) {
      const accessor = json.accessors[index];
      animationViews.add(accessor.bufferView);
      const allowed = role === 'input' ? { 5126: false } : ALLOWED[channel.target.path];
      report.check(allowed && accessor.componentType in allowed &&
                   Boolean(accessor.normalized) === allowed[accessor.componentType],
                   `${channel.target.path} ${role} accessor ${index}: componentType ${accessor.componentType}` +
                   `${accessor.normalized ? ' normalized' : ''} is not allowed there`);
    }
  }
}
// Any quantized mesh attribute (a third-party input's too) needs KHR_mesh_quantization declared.
checkQuantizationExtension(report, json, plain.json, args['quantized-meshes']);
const meshoptRequired = (json.extensionsRequired ?? []).includes('EXT_meshopt_compression');
if (args['expect-meshopt']) {
  const compressedViews = [...animationViews].filter(
    (view) => (json.bufferViews[view].extensions ?? {}).EXT_meshopt_compression);
  report.check(compressedViews.length > 0, 'no animation bufferView is meshopt-compressed');
  report.check(meshoptRequired, 'EXT_meshopt_compression is not in extensionsRequired');
  stubProgressEvent();
  const loader = new GLTFLoader();
  try {
    await parseGltfCapturingConsole(loader, loadableCopy(args.compressed, compressed));
    report.fail('GLTFLoader without a meshopt decoder loaded the file; it must refuse it');
  } catch (error) {
    report.check(/setMeshoptDecoder/.test(String(error && error.message)),
                 `GLTFLoader without a decoder failed otherwise than asking for setMeshoptDecoder: ${error && error.message}`);
  }
}

if (args['expect-core']) {
  // --compress-without-meshopt: core glTF 2.0, so GLTFLoader needs no decoder at all.
  report.check(!(json.extensionsUsed ?? []).includes('EXT_meshopt_compression'),
               'EXT_meshopt_compression is in extensionsUsed');
  stubProgressEvent();
  try {
    await parseGltfCapturingConsole(new GLTFLoader(), loadableCopy(args.compressed, compressed));
    report.pass();
  } catch (error) {
    report.fail(`GLTFLoader without a meshopt decoder failed: ${error && error.message}`);
  }
}

// 3. Playback.
// `copyOptions`: loadableCopy's ({ keepTextures } with the textureStandIns plugin).
async function load(file, container, plugins = [], copyOptions = {}) {
  stubProgressEvent();
  const loader = new GLTFLoader();
  loader.setMeshoptDecoder(MeshoptDecoder);
  for (const plugin of plugins) loader.register(plugin);
  const data = loadableCopy(file, container, undefined, copyOptions);
  const { gltf, messages } = await parseGltfCapturingConsole(loader, data, async (loaded) => {
    loaded.root = loaded.scene ?? await sceneOfRootNodes(loaded.parser);
  });
  for (const message of messages) console.log(`note: loading ${basename(file)} printed ${message}`);
  return gltf;
}

const worst = { rotationDeg: 0, translation: 0, scale: 0, weight: 0, matrixScale: 0 };
function angleDeg(a, b) {
  const la = Math.hypot(...a);
  const lb = Math.hypot(...b);
  const dot = Math.abs(a.reduce((sum, value, i) => sum + value * b[i], 0)) / (la * lb);
  return 2 * Math.acos(Math.min(1, dot)) * 180 / Math.PI;
}
function scaleRatio(a, b) {
  return Math.max(...a.map((value, i) => (Math.abs(value) >= 1e-3 ? Math.abs(b[i] / value - 1) : Math.abs(b[i] - value) / 1e-3)));
}
// The same as a pure ratio of magnitudes, for a node holding a dequantization: its scale is the
// grid's step (1e-4 and far below), where an absolute difference over 1e-3 would hide any ratio;
// and the columns' lengths are magnitudes, where the scale may be negative (a mirror).
function magnitudeRatio(a, b) {
  return Math.max(...a.map((value, i) => Math.abs(b[i] / Math.abs(value) - 1)));
}
// The scale three.js's composed local matrix really has (its column lengths: a quaternion that is
// not unit, which three.js composes as written, scales too).
function matrixColumns(object) {
  object.updateMatrix();
  const e = object.matrix.elements;
  return [0, 4, 8].map((c) => Math.hypot(e[c], e[c + 1], e[c + 2]));
}
// Against the plain object's (an input's own non-unit quaternion scales both alike), or for a node
// holding a dequantization against its own scale.
function matrixScaleError(plainObject, compressedObject, dequantized) {
  return dequantized ? magnitudeRatio(compressedObject.scale.toArray(), matrixColumns(compressedObject))
    : scaleRatio(matrixColumns(plainObject), matrixColumns(compressedObject));
}
// `dequantized`: the node holds its mesh's dequantization (--quantized-meshes), so its position
// and scale legitimately differ from the plain file's (the vertices are compared instead).
function compare(where, plainObject, compressedObject, dequantized = false) {
  const measured = {
    rotationDeg: angleDeg(plainObject.quaternion.toArray(), compressedObject.quaternion.toArray()),
    translation: plainObject.position.distanceTo(compressedObject.position),
    scale: scaleRatio(plainObject.scale.toArray(), compressedObject.scale.toArray()),
    weight: 0,
    matrixScale: matrixScaleError(plainObject, compressedObject, dequantized),
  };
  const a = plainObject.morphTargetInfluences ?? [];
  const b = compressedObject.morphTargetInfluences ?? [];
  report.check(a.length === b.length, `${where}: ${b.length} morph weights, plain ${a.length}`);
  for (let i = 0; i < a.length; ++i) measured.weight = Math.max(measured.weight, Math.abs(a[i] - b[i]));
  const limits = { ...bound, matrixScale: bound.scale };
  if (dequantized) {
    delete measured.translation;
    delete measured.scale;
  }
  for (const key of Object.keys(measured)) {
    worst[key] = Math.max(worst[key], measured[key]);
    report.check(measured[key] <= limits[key] + FLOAT_SLACK,
                 () => `${where}: ${key} off by ${measured[key].toExponential(3)}, bound ${limits[key]}`);
  }
}
function playAt(mixer, clip, t) {
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.reset().play();
  mixer.setTime(t);
}
// The objects of the two scenes paired: `nodes` for their local transform and morph weights,
// `meshes` for their geometry. --compress-meshes may hand a node's mesh to a new child node that
// holds the dequantization (nodes past the plain file's count, gltf_mesh_dequantize.h): so glTF
// nodes pair by index (a new child with none), drawn primitives by (the node that draws them, a
// new child standing for its parent; mesh; primitive), and a primitive that is no node's object
// (a multi-primitive mesh's) is a `nodes` pair too; the objects above every node (the scene root)
// pair in traversal order.
function pairObjects(gltfA, gltfB) {
  const countA = (gltfA.parser.json.nodes ?? []).length;
  const parentB = new Map();
  (gltfB.parser.json.nodes ?? []).forEach((node, index) => {
    for (const child of node.children ?? []) parentB.set(child, index);
  });
  const collect = (gltf, compressed) => {
    const association = (object) => gltf.parser.associations.get(object) ?? {};
    const out = { nodes: new Map(), meshes: new Map(), rest: [], extra: 0 };
    // (An object under a node's object that is none itself, a camera or a multi-primitive mesh's
    // group, moves with that node; when the node hands its mesh to a new child it may become the
    // node's object itself: only what lies above every node is paired in order.)
    const underNode = (object) => {
      for (let o = object.parent; o; o = o.parent) if (association(o).nodes !== undefined) return true;
      return false;
    };
    gltf.root.traverse((object) => {
      const node = association(object).nodes;
      const added = compressed && node !== undefined && node >= countA;
      if (node !== undefined && !added) out.nodes.set(node, object);
      if (added) ++out.extra;
      if (object.geometry) {
        let drawing;
        for (let o = object; o && drawing === undefined; o = o.parent) drawing = association(o).nodes;
        while (compressed && drawing !== undefined && drawing >= countA) drawing = parentB.get(drawing);
        const { meshes: mesh, primitives: primitive } = association(object);
        out.meshes.set(`node ${drawing} mesh ${mesh} primitive ${primitive ?? 0}`, [object, node !== undefined]);
      } else if (node === undefined && !underNode(object)) {
        out.rest.push(object);
      }
    });
    return out;
  };
  const a = collect(gltfA, false);
  const b = collect(gltfB, true);
  const nodes = [];
  const meshes = [];
  for (const [index, object] of a.nodes) {
    const other = b.nodes.get(index);
    if (report.check(other !== undefined, `node ${index} ('${object.name}') is not in the compressed scene`)) {
      nodes.push([object, other]);
    }
  }
  report.check(a.nodes.size === b.nodes.size, `${b.nodes.size} glTF nodes in the scene, plain ${a.nodes.size}`);
  for (const [key, [object, isNode]] of a.meshes) {
    const other = b.meshes.get(key);
    if (!report.check(other !== undefined, `${key} ('${object.name}') is not in the compressed scene`)) continue;
    meshes.push([object, other[0]]);
    if (!isNode && !other[1]) nodes.push([object, other[0]]);
  }
  report.check(a.meshes.size === b.meshes.size, `${b.meshes.size} drawn primitives, plain ${a.meshes.size}`);
  report.check(a.rest.length === b.rest.length, `${b.rest.length} other objects, plain ${a.rest.length}`);
  for (let i = 0; i < Math.min(a.rest.length, b.rest.length); ++i) nodes.push([a.rest[i], b.rest[i]]);
  if (b.extra > 0) console.log(`${b.extra} new node(s) holding a mesh's dequantization`);
  return { nodes, meshes };
}

// --dropped-attributes: a GLTFLoader plugin giving every texture a THREE.Texture without an image
// (Node decodes none), so that the plain file's materials hold the maps three.js samples and the
// uv channel of each (assignTexture sets .channel from texCoord and KHR_texture_transform).
const textureStandIns = (parser) => ({
  name: 'animconv_texture_stand_ins',
  loadTexture(index) {
    const texture = new THREE.Texture();
    texture.flipY = false;  // as GLTFLoader's own textures
    texture.name = parser.json.textures[index].name ?? '';
    parser.associations.set(texture, { textures: index });
    return Promise.resolve(texture);
  },
});
// The uv channel three.js reads an attribute as, or null: GLTFLoader names TEXCOORD_0..3 uv,
// uv1..uv3 and a higher one texcoord_n, which no three.js shader reads at all (held to the same
// rule, which is what the writer does with it).
function uvChannel(name) {
  const match = /^(?:uv([1-3])?|texcoord_([0-9]+))$/.exec(name);
  return match ? Number(match[1] ?? match[2] ?? 0) : null;
}
// The textures three.js samples for a mesh: every Texture-valued own property of its material(s)
// (map, normalMap, aoMap, clearcoat*, sheen*, iridescence*, specular*, anisotropyMap ...), found
// by type rather than listed, so that a map a later three.js or extension adds is not missed.
function texturesOf(object) {
  const out = [];
  for (const material of [object.material ?? []].flat()) {
    for (const [key, value] of Object.entries(material)) {
      if (value instanceof THREE.Texture) out.push([key, value]);
    }
  }
  return out;
}
// Why three.js reads attribute `key` (three.js names, morph ones `name[target]`) of a mesh of the
// plain file, or null when it does not: a uv channel is bound only for the maps that sample it,
// tangents only with a normal map or anisotropy (WebGLPrograms r187: vertexUv1s..3s from the
// maps' channels, vertexTangents = tangent && (normalMap || anisotropy > 0); a clearcoat normal
// map counted too, as the writer counts it).
function readBecause(object, key) {
  const name = key.replace(/\[[0-9]+\]$/, '');
  const channel = uvChannel(name);
  if (channel !== null) {
    const maps = texturesOf(object).filter(([, texture]) => texture.channel === channel).map(([property]) => property);
    return maps.length > 0 ? `${maps.join(', ')} sample${maps.length === 1 ? 's' : ''} uv channel ${channel}` : null;
  }
  if (name === 'tangent') {
    const why = [];
    for (const material of [object.material ?? []].flat()) {
      if (material.normalMap) why.push('normalMap');
      if (material.clearcoatNormalMap) why.push('clearcoatNormalMap');
      if (material.anisotropy > 0) why.push(`anisotropy ${material.anisotropy}`);
    }
    return why.length > 0 ? `the material has ${why.join(', ')}` : null;
  }
  return `it reads every ${name}; only uv attributes no texture samples and tangents without a normal map may go`;
}
// The textureInfos of a glTF material (core and KHR_materials_* slots: an object named ...Texture
// with an index).
function textureInfoCount(value) {
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  for (const [key, child] of Object.entries(value)) {
    if (/Texture$/.test(key) && child !== null && typeof child === 'object' && 'index' in child) ++count;
    else count += textureInfoCount(child);
  }
  return count;
}
// Attributes and morph target attributes of the glTF primitives, for the summary line.
function gltfAttributeCount(gltfJson) {
  const count = { attributes: 0, targets: 0 };
  for (const mesh of gltfJson.meshes ?? []) {
    for (const primitive of mesh.primitives ?? []) {
      count.attributes += Object.keys(primitive.attributes ?? {}).length;
      for (const target of primitive.targets ?? []) count.targets += Object.keys(target).length;
    }
  }
  return count;
}

report.setContext(`${basename(args.compressed)} playback`);
let measuredMeshes = null;
if (args.model === undefined) {
  // With --dropped-attributes the plain file's materials keep their textures (stand-ins): they
  // decide which attributes three.js reads.
  const gltfPlain = args['dropped-attributes']
    ? await load(args.plain, plain, [textureStandIns], { keepTextures: true })
    : await load(args.plain, plain);
  const gltfCompressed = await load(args.compressed, compressed);
  report.check(gltfPlain.animations.length === gltfCompressed.animations.length,
               `${gltfCompressed.animations.length} clips, plain ${gltfPlain.animations.length}`);
  const pairs = pairObjects(gltfPlain, gltfCompressed);
  report.setContext(`${basename(args.compressed)} geometry`);
  gltfPlain.root.updateMatrixWorld(true);
  gltfCompressed.root.updateMatrixWorld(true);
  const quantized = args['quantized-meshes']
    ? new QuantizedMeshCheck(report, meshBounds, gltfPlain, gltfCompressed, json) : null;
  // --dropped-attributes: the stand-in textures must have reached the materials, or every uv
  // attribute would look unread.
  const droppedAttributes = [];
  if (args['dropped-attributes']) {
    const infos = (plain.json.materials ?? []).reduce((sum, material) => sum + textureInfoCount(material), 0);
    const maps = new Set();
    gltfPlain.root.traverse((object) => {
      if (object.geometry) for (const [, texture] of texturesOf(object)) maps.add(texture);
    });
    report.check(infos === 0 || maps.size > 0,
                 `the plain file's materials have ${infos} textures, three.js's none: cannot tell which uv it reads`);
  }
  // Passed-through geometry is compressed losslessly: three.js must draw the same triangles, in
  // the same order, each vertex with the same value in every attribute and morph attribute, element
  // for element. A triangle list without indices may come back indexed (each vertex stored once,
  // gltf_mesh_weld.h), so vertices are compared as drawn: vertex k of the draw is index[k] when
  // there is an index, else k. With --quantized-meshes the lossy attributes are compared within
  // their bounds instead (QuantizedMeshCheck); the others (skin indices, weights) still exactly;
  // and a triangle list's triangles may come in another order, their corners rotated
  // (--compress-meshes draws opaque ones in vertex cache order), so its vertices are paired
  // through triangles paired by position instead (QuantizedMeshCheck.pairVertices).
  let weldedGeometries = 0;
  // (--quantized-meshes: at rest in the plain file's pose, as in playback: see inPlainPose.)
  const compareGeometry = () => { for (const [a, b] of pairs.meshes) {
    if (!a.geometry || !b.geometry) {
      report.check(!a.geometry === !b.geometry, `'${a.name}': geometry in one file only`);
      continue;
    }
    const arrays = (geometry) => {
      const out = new Map();
      for (const [key, attribute] of Object.entries(geometry.attributes)) out.set(key, attribute);
      for (const [key, list] of Object.entries(geometry.morphAttributes)) {
        list.forEach((attribute, i) => out.set(`${key}[${i}]`, attribute));
      }
      return out;
    };
    const drawn = (geometry) => {
      const count = geometry.index ? geometry.index.count : geometry.attributes.position.count;
      return { count, vertex: geometry.index ? (k) => geometry.index.getX(k) : (k) => k };
    };
    const want = arrays(a.geometry);
    const got = arrays(b.geometry);
    const drawA = drawn(a.geometry);
    const drawB = drawn(b.geometry);
    if (!a.geometry.index && b.geometry.index) ++weldedGeometries;
    report.check(drawA.count === drawB.count,
                 `'${a.name}': ${drawB.count} vertices drawn, plain ${drawA.count}`);
    // (three.js adds attributes as their views finish decoding: compare the names, not the order)
    if (args['dropped-attributes']) {
      // Only what three.js does not read for this mesh may be missing; nothing may be added.
      for (const key of got.keys()) {
        report.check(want.has(key), `'${a.name}': ${key} is not in the plain file (attributes ` +
                                    `${[...got.keys()]}, plain ${[...want.keys()]})`);
      }
      for (const key of want.keys()) {
        if (got.has(key)) continue;
        const because = readBecause(a, key);
        if (report.check(because === null, `'${a.name}': ${key} left out, but three.js reads it (${because})`)) {
          droppedAttributes.push(`'${a.name}' ${key}`);
        }
      }
    } else {
      report.check([...want.keys()].sort().join() === [...got.keys()].sort().join(),
                   `'${a.name}': attributes ${[...got.keys()]}, plain ${[...want.keys()]}`);
    }
    // --quantized-meshes: the drawn vertices as [plain, compressed] index pairs, each once
    // (QuantizedMeshCheck.pairVertices: triangle lists by position, in any triangle order and
    // corner rotation; else vertex k of the draw with vertex k), every lossy attribute measured.
    let drawnPairs = null;
    const measures = new Map();
    if (quantized) {
      const exact = [];
      for (const [key, attribute] of want) {
        const other = got.get(key);
        if (!other) continue;
        if (quantized.handles(key)) measures.set(key, quantized.measure(a, b, key, attribute, other));
        else exact.push([attribute, other]);
      }
      const exactSame = (i, j) => exact.every(([x, y]) => {
        for (let c = 0; c < Math.min(x.itemSize, y.itemSize); ++c) {
          if (!Object.is(x.getComponent(i, c), y.getComponent(j, c))) return false;
        }
        return true;
      });
      drawnPairs = quantized.pairVertices(a, b, [...measures.values()], exactSame);
      quantized.addMeshPair(a, b, drawnPairs);
    }
    for (const [key, attribute] of want) {
      const other = got.get(key);
      if (!other) continue;
      if (quantized?.handles(key)) {
        quantized.compareAtRest(measures.get(key), drawnPairs);
        continue;
      }
      // (--quantized-meshes may store joint indices in a narrower type: the same numbers)
      const narrowed = quantized !== null && key === 'skinIndex' && !attribute.normalized;
      let same = drawA.count === drawB.count && attribute.itemSize === other.itemSize &&
                 attribute.normalized === other.normalized &&
                 (narrowed || attribute.array.constructor === other.array.constructor);
      // (--quantized-meshes: along the vertex pairs, which for a triangle list in another order
      // are not vertex k with vertex k)
      const count = drawnPairs ? drawnPairs.length : drawA.count;
      for (let k = 0; same && k < count; ++k) {
        const [i, j] = drawnPairs ? drawnPairs[k] : [drawA.vertex(k), drawB.vertex(k)];
        for (let c = 0; same && c < attribute.itemSize; ++c) {
          same = Object.is(attribute.getComponent(i, c), other.getComponent(j, c));
        }
      }
      report.check(same, `'${a.name}' ${key}: geometry as drawn differs from the plain file's`);
    }
  } };
  if (quantized) quantized.inPlainPose(pairs.nodes, gltfPlain.root, gltfCompressed.root, compareGeometry);
  else compareGeometry();
  if (weldedGeometries > 0) console.log(`${weldedGeometries} geometries indexed by --compress`);
  if (args['dropped-attributes']) {
    const before = gltfAttributeCount(plain.json);
    const after = gltfAttributeCount(json);
    const shown = droppedAttributes.slice(0, 20).join(', ') + (droppedAttributes.length > 20 ? ', ...' : '');
    console.log(`dropped attributes three.js does not read: ${droppedAttributes.length}` +
                `${droppedAttributes.length > 0 ? ` (${shown})` : ''}; glTF primitives: ` +
                `${before.attributes - after.attributes} attributes and ${before.targets - after.targets} morph ` +
                `target attributes fewer (${after.attributes}, ${after.targets} left)`);
  }
  if (quantized) console.log(`${quantized.dequantized.size} nodes hold a dequantization; ${quantized.triangleSummary()}`);
  report.setContext(`${basename(args.compressed)} playback`);
  for (const clipPlain of gltfPlain.animations) {
    const clipCompressed = gltfCompressed.animations.find((clip) => clip.name === clipPlain.name);
    if (!report.check(clipCompressed !== undefined, `no clip '${clipPlain.name}'`)) continue;
    report.check(Math.abs(clipPlain.duration - clipCompressed.duration) <= 1e-6,
                 `clip '${clipPlain.name}' lasts ${clipCompressed.duration} s, plain ${clipPlain.duration} s`);
    const mixerPlain = new THREE.AnimationMixer(gltfPlain.root);
    const mixerCompressed = new THREE.AnimationMixer(gltfCompressed.root);
    for (const t of keyAndMidTimes([clipPlain, clipCompressed])) {
      playAt(mixerPlain, clipPlain, t);
      playAt(mixerCompressed, clipCompressed, t);
      for (const [a, b] of pairs.nodes) {
        compare(`clip '${clipPlain.name}' t=${t.toFixed(4)} '${a.name}'`, a, b, quantized?.dequantized.has(b));
      }
      quantized?.comparePlayback(`clip '${clipPlain.name}' t=${t.toFixed(4)}`, pairs.nodes, gltfPlain.root, gltfCompressed.root);
    }
  }
  measuredMeshes = quantized?.summary();
} else {
  requireModules(['@pixiv/three-vrm', '@pixiv/three-vrm-animation']);
  const { VRMLoaderPlugin } = await import('@pixiv/three-vrm');
  const { VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy, createVRMAnimationClip } =
    await import('@pixiv/three-vrm-animation');
  const { addLookAtProxy } = await import('./lib/vrm.mjs');
  const vrmaPlugin = [(parser) => new VRMAnimationLoaderPlugin(parser)];
  const animationOf = async (file, container) => (await load(file, container, vrmaPlugin)).userData.vrmAnimations?.[0];
  const plainAnimation = await animationOf(args.plain, plain);
  const compressedAnimation = await animationOf(args.compressed, compressed);
  if (report.check(plainAnimation && compressedAnimation, 'VRMAnimationLoaderPlugin found no VRMAnimation')) {
    const modelBytes = new Uint8Array(readFileSync(args.model));
    const modelOf = async () => {
      const { vrm } = (await load(args.model, splitContainer(modelBytes), [(parser) => new VRMLoaderPlugin(parser)])).userData;
      addLookAtProxy(vrm, VRMLookAtQuaternionProxy);
      return vrm;
    };
    const vrmPlain = await modelOf();
    const vrmCompressed = await modelOf();
    const clipPlain = createVRMAnimationClip(plainAnimation, vrmPlain);
    const clipCompressed = createVRMAnimationClip(compressedAnimation, vrmCompressed);
    report.check(clipPlain.tracks.length === clipCompressed.tracks.length,
                 `${clipCompressed.tracks.length} tracks, plain ${clipPlain.tracks.length}`);
    const mixerPlain = new THREE.AnimationMixer(vrmPlain.scene);
    const mixerCompressed = new THREE.AnimationMixer(vrmCompressed.scene);
    const bones = Object.keys(vrmPlain.humanoid.normalizedHumanBones);
    for (const t of keyAndMidTimes([clipPlain])) {
      playAt(mixerPlain, clipPlain, t);
      playAt(mixerCompressed, clipCompressed, t);
      for (const bone of bones) {
        const a = vrmPlain.humanoid.getNormalizedBoneNode(bone);
        const b = vrmCompressed.humanoid.getNormalizedBoneNode(bone);
        if (a && b) compare(`t=${t.toFixed(4)} ${bone}`, a, b);
      }
    }
  }
}
console.log(`measured max: rotation ${worst.rotationDeg.toExponential(3)} deg, translation ${worst.translation.toExponential(3)} m, ` +
            `scale ${worst.scale.toExponential(3)}, weight ${worst.weight.toExponential(3)}, ` +
            `matrix scale from the quaternion ${worst.matrixScale.toExponential(3)}` +
            `${measuredMeshes ? `; ${measuredMeshes}` : ''}`);
report.finish();
