// Loading a glTF the way check_gltf.mjs compares it: the Khronos validator's report, a loadable
// copy for GLTFLoader (textures dropped, external files inlined), and the source references it
// plays (a glTF through GLTFLoader, or a Unity CSV parsed independently). Import it after
// requireModules(['three', 'gltf-validator']).
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import {
  expectedBones, parseGltfCapturingConsole, readBoneList, readUnityCsv, sampleTimes, stubProgressEvent,
} from './common.mjs';
import { isGlb, packGlb, readRelative, splitContainer } from './glb.mjs';

const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { MeshoptDecoder } = await import('three/addons/libs/meshopt_decoder.module.js');
const validator = await import('gltf-validator');

export function severityName(severity) {
  return ['error', 'warning', 'info', 'hint'][severity] ?? `severity ${severity}`;
}

export function formatIssue(message) {
  const where = message.pointer ?? (message.offset !== undefined ? `byte ${message.offset}` : '');
  return `${severityName(message.severity)} ${message.code}${where ? ` at ${where}` : ''}: ${message.message}`;
}

export async function validate(file, bytes) {
  const result = await validator.validateBytes(bytes, {
    uri: basename(file),
    maxIssues: 0,  // every issue: the per-code counts are compared
    writeTimestamp: false,
    externalResourceFunction: (uri) => new Promise((resolveData, reject) => {
      try {
        resolveData(readRelative(file, uri));
      } catch (error) {
        reject(String(error && error.message ? error.message : error));
      }
    }),
  });
  const messages = result.issues.messages;
  const counts = new Map();  // errors and warnings per code
  for (const message of messages) {
    if (message.severity <= 1) counts.set(message.code, (counts.get(message.code) ?? 0) + 1);
  }
  return { result, messages, counts };
}

// Materials' texture slots: core ones and extensions' (KHR_materials_*: clearcoatTexture ...).
export function removeTextureReferences(value) {
  if (value === null || typeof value !== 'object') return;
  for (const key of Object.keys(value)) {
    const child = value[key];
    if (child !== null && typeof child === 'object' && !Array.isArray(child) && /Texture$/.test(key) &&
        'index' in child) {
      delete value[key];
    } else {
      removeTextureReferences(child);
    }
  }
}

export const isTextureExtension = (name) => /texture/i.test(name);

// A copy of the document that GLTFLoader can parse in Node: no images, textures or samplers;
// external buffers inlined as data: URIs. Animations, accessors and buffers are not changed.
// With `keepTextures` the materials keep their textures, for a loader that stands in for the
// images (its plugin's loadTexture: Node decodes none): only the image format extensions go
// (KHR_texture_basisu, EXT_texture_webp ..., whose plugins would try to decode first), so the
// materials still say which maps there are and which TEXCOORD each samples (texCoord and
// KHR_texture_transform, which GLTFLoader turns into texture.channel).
export function loadableCopy(file, container, prepare, { keepTextures = false } = {}) {
  const json = structuredClone(container.json);
  if (prepare) prepare(json);
  const keep = (name) => keepTextures && name === 'KHR_texture_transform';
  if (keepTextures) {
    for (const texture of json.textures ?? []) delete texture.extensions;
  } else {
    delete json.images;
    delete json.textures;
    delete json.samplers;
  }
  for (const key of ['extensionsUsed', 'extensionsRequired']) {
    if (!Array.isArray(json[key])) continue;
    json[key] = json[key].filter((name) => keep(name) || !isTextureExtension(name));
    if (json[key].length === 0) delete json[key];
  }
  if (!keepTextures) {
    for (const material of json.materials ?? []) removeTextureReferences(material);
  }
  for (const buffer of json.buffers ?? []) {
    if (typeof buffer.uri === 'string' && !buffer.uri.startsWith('data:')) {
      const data = readRelative(file, buffer.uri);
      buffer.uri = `data:application/octet-stream;base64,${Buffer.from(data).toString('base64')}`;
    }
  }
  return container.glb ? packGlb(json, container.bin) : JSON.stringify(json);
}

export async function loadWithThree(file, container, prepare = null) {
  const data = loadableCopy(file, container, prepare);
  const loader = new GLTFLoader();
  loader.setMeshoptDecoder(MeshoptDecoder);
  const { gltf, messages } = await parseGltfCapturingConsole(loader, data, async (loaded) => {
    loaded.root = loaded.scene ?? await sceneOfRootNodes(loaded.parser);
  });
  return { gltf, consoleMessages: messages };
}

// A file without `scenes` has no gltf.scene: a Group holding the root nodes in node order
// stands in for it (input and output alike).
export async function sceneOfRootNodes(parser) {
  const group = new THREE.Group();
  group.name = '__no_scene__';
  const nodes = await parser.getDependencies('node');
  for (const node of nodes) {
    if (node.parent === null) group.add(node);
  }
  return group;
}

// three.js throws on a track without keys ("no keyframes"), so the reference copy of the
// input loses channels whose sampler has 0 keys, then animations left without channels (glTF
// needs at least one channel, so a writer must drop them too). Nothing that plays is removed.
export function dropEmptyChannels(json, notes) {
  if (!Array.isArray(json.animations)) return;
  const keyCount = (accessor) => json.accessors?.[accessor]?.count ?? 0;
  const kept = [];
  json.animations.forEach((animation, index) => {
    const label = animation.name ?? `animations[${index}]`;
    const channels = (animation.channels ?? []).filter((channel) => {
      const sampler = animation.samplers?.[channel.sampler];
      return sampler && keyCount(sampler.input) > 0 && keyCount(sampler.output) > 0;
    });
    const dropped = (animation.channels ?? []).length - channels.length;
    if (dropped > 0) notes.push(`${label}: ${dropped} channel(s) without keys left out`);
    if (channels.length === 0) {
      notes.push(`${label}: no channel with keys, left out`);
      return;
    }
    kept.push({ ...animation, channels });
  });
  json.animations = kept;
  if (kept.length === 0) delete json.animations;
}

// animconv renormalises every rotation key on output (docs/architecture.md; for CUBICSPLINE
// the value elements, not the tangents). The reference is the input with the same keys
// renormalised in double precision, so an input stored slightly off unit length (3-decimal
// samples, quantised data) is compared with what it means, not with its rounding error.
// Sign flips need no counterpart: three.js slerps along the short path either way.
export function renormaliseRotationKeys(clips) {
  let changed = 0;
  for (const clip of clips) {
    for (const track of clip.tracks) {
      if (!(track instanceof THREE.QuaternionKeyframeTrack)) continue;
      const cubic = track.createInterpolant?.isInterpolantFactoryMethodGLTFCubicSpline === true;
      const stride = cubic ? 12 : 4;
      const offset = cubic ? 4 : 0;
      const values = track.values;
      const exact = Float64Array.from(values);  // widen, so the division is done in double
      for (let at = offset; at + 4 <= values.length; at += stride) {
        const length = Math.hypot(exact[at], exact[at + 1], exact[at + 2], exact[at + 3]);
        if (!(length > 0)) continue;
        if (Math.abs(length - 1) > 1e-6) ++changed;
        for (let i = 0; i < 4; ++i) values[at + i] = exact[at + i] / length;
      }
    }
  }
  return changed;
}

export const COMPONENT_BYTES = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };

export const TYPE_COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

// The bytes of buffer `index` of a document: the GLB BIN chunk, a data: URI or a file.
export function bufferBytes(file, container, index) {
  const buffer = container.json.buffers[index];
  if (buffer.uri === undefined) return container.bin;
  if (buffer.uri.startsWith('data:')) {
    return new Uint8Array(Buffer.from(buffer.uri.slice(buffer.uri.indexOf(',') + 1), 'base64'));
  }
  return readRelative(file, buffer.uri);
}

// glTF forbids byteStride on animation accessors (ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE)
// and three.js r187 reads such an accessor's whole interleaved array as if it were packed. For
// the reference copy of an INPUT that has them, each strided animation accessor is copied
// element by element into a packed buffer of its own, so three.js plays what the file says.
export function unstrideAnimationAccessors(file, container, json, notes) {
  const strided = new Set();
  for (const animation of json.animations ?? []) {
    for (const sampler of animation.samplers ?? []) {
      for (const accessorIndex of [sampler.input, sampler.output]) {
        const accessor = json.accessors?.[accessorIndex];
        const view = accessor && json.bufferViews?.[accessor.bufferView];
        if (view && view.byteStride !== undefined && !accessor.sparse) strided.add(accessorIndex);
      }
    }
  }
  for (const accessorIndex of strided) {
    const accessor = json.accessors[accessorIndex];
    const view = json.bufferViews[accessor.bufferView];
    const elementBytes = COMPONENT_BYTES[accessor.componentType] * TYPE_COMPONENTS[accessor.type];
    const source = bufferBytes(file, container, view.buffer);
    const packed = new Uint8Array(elementBytes * accessor.count);
    const start = (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
    for (let k = 0; k < accessor.count; ++k) {
      packed.set(source.subarray(start + k * view.byteStride, start + k * view.byteStride + elementBytes), k * elementBytes);
    }
    json.buffers.push({
      byteLength: packed.length,
      uri: `data:application/octet-stream;base64,${Buffer.from(packed).toString('base64')}`,
    });
    json.bufferViews.push({ buffer: json.buffers.length - 1, byteLength: packed.length });
    accessor.bufferView = json.bufferViews.length - 1;
    accessor.byteOffset = 0;
    notes.push(`accessor ${accessorIndex} (byteStride ${view.byteStride}) copied packed: three.js ignores ` +
               'byteStride on animation accessors');
  }
}

export async function loadGltfSource(file) {
  console.log(`input ${file}`);
  const bytes = new Uint8Array(readFileSync(file));
  const container = splitContainer(bytes);
  const validation = await validate(file, bytes);
  const notes = [];
  const { gltf, consoleMessages } = await loadWithThree(file, container, (json) => {
    unstrideAnimationAccessors(file, container, json, notes);
    dropEmptyChannels(json, notes);
  });
  for (const note of notes) console.log(`input reference: ${note}`);
  const renormalised = renormaliseRotationKeys(gltf.animations);
  if (renormalised > 0) {
    console.log(`input reference: ${renormalised} rotation key(s) more than 1e-6 off unit length, renormalised`);
  }
  const clipsLine = gltf.animations.map((clip) => `"${clip.name}" ${clip.duration.toFixed(3)}s ${clip.tracks.length}tr`);
  console.log(`input: ${gltf.animations.length} clip(s)${clipsLine.length ? `: ${clipsLine.join(', ')}` : ''}; ` +
              `validator: ${[...validation.counts].map(([code, n]) => `${code} x${n}`).join(', ') || 'no errors or warnings'}`);
  if (consoleMessages.length) console.log(`input: the loader printed: ${consoleMessages.join(' | ')}`);
  return { file, container, validation, gltf, consoleMessages };
}

export function loadCsvSource({ path, bones, interval, mirror }) {
  const boneNames = readBoneList(bones);
  const rows = readUnityCsv(path, boneNames.length);
  const expected = expectedBones(rows, boneNames, { interval, mirrorAxis: mirror });
  console.log(`csv ${path}: ${rows.length} rows x ${boneNames.length} bones every ${interval} s, mirror ${mirror}; ` +
              `${expected.filter((b) => b.keys.length).length} animated`);
  return { rows, expected, samples: sampleTimes(rows.length, interval), interval };
}
