// check_compress.mjs --quantized-meshes: a `convert --compress-meshes` output (KHR_mesh_quantization,
// docs/formats/gltf.md) against the plain output, as three.js r187 draws both. The geometry is
// lossy there, so instead of comparing it element for element each attribute is compared, vertex
// by vertex, within the bounds the writer promises. The vertices are paired as drawn, except in
// triangle lists, whose triangles `--compress-meshes` may reorder and whose corners it may rotate
// (pairVertices, lib/triangle_pairing.mjs):
//   POSITION and morph POSITION deltas: displacement <= F x the largest side of the bounding box
//     of the glTF mesh's POSITION values (all its primitives, local units of the plain file);
//   NORMAL, TANGENT: <= D degrees between the directions; TEXCOORD_n, COLOR_n: <= T, C absolute.
// Import it after requireModules(['three']).

const THREE = await import('three');
const { pairTrianglesChecked } = await import('./triangle_pairing.mjs');

// Relative float32 slack, for directions and values compared in their own units: the files store
// float32 values (2^-24 ~ 6e-8 relative per rounding).
export const RELATIVE_SLACK = 1e-6;
// Slack of positions compared in world space, relative to their magnitude: three.js places both
// files' vertices in doubles (Matrix4, Vector3) from the numbers each holds, so only double
// rounding (~1e-16 a step) may differ. A float32 rounding of what the writer folds into a node or
// an inverse bind matrix is part of the error it must measure, not slack: the review of the bounds
// (session 31) found a 1e-6 slack here hiding a node translation rounded to float32 at 100 m
// (2.7e-4 of a 1 cm mesh) and inverse bind matrices rounded at 3 km (1.6e-4).
export const WORLD_SLACK = 1e-12;
// Playback compares at most this many of a mesh's vertices per time step, spread evenly over the
// drawn vertices (every vertex is compared at rest), so that a large mesh with long clips (every
// key time and midpoint is played) stays a matter of seconds. The models of compress.cmake have
// fewer vertices per three.js mesh (at most 1,876), so there every vertex is compared every time.
const PLAYBACK_SAMPLES = 2000;
// The attributes (three.js names, morph ones as `name[target]`) compared within a bound; every
// other one (skinIndex, skinWeight, custom ones) must still be equal element for element.
const LOSSY = /^(position|normal|tangent|uv[0-9]*|color|skinWeight)(?:\[([0-9]+)\])?$/;
const DEG = 180 / Math.PI;

// How much an object's pose stretches a local length (its matrixWorld up to date): σmax of
// matrixWorld, for a skinned mesh times the largest of its bone transforms (a convex blend of them
// stretches no more). mesh_distance.mjs measures with it too.
export function poseStretch(object) {
  const product = new THREE.Matrix4();
  if (!object.isSkinnedMesh) return singularValues(object.matrixWorld).max;
  let bones = 0;
  object.skeleton.bones.forEach((bone, k) => {
    bones = Math.max(bones, singularValues(product.multiplyMatrices(bone.matrixWorld, object.skeleton.boneInverses[k])).max);
  });
  return singularValues(product.multiplyMatrices(object.matrixWorld, object.bindMatrixInverse)).max * bones *
         singularValues(object.bindMatrix).max;
}

// Singular values (largest, smallest) of the linear part of a Matrix4: the square roots of the
// eigenvalues of AᵀA, a symmetric 3x3, by the closed trigonometric form (Smith 1961).
export function singularValues(matrix) {
  const a = new THREE.Matrix3().setFromMatrix4(matrix);
  const b = new THREE.Matrix3().copy(a).transpose().multiply(a).elements;  // symmetric
  const [b00, b11, b22, b01, b02, b12] = [b[0], b[4], b[8], b[3], b[6], b[7]];
  const off = b01 * b01 + b02 * b02 + b12 * b12;
  let high;
  let low;
  if (off === 0) {
    high = Math.max(b00, b11, b22);
    low = Math.min(b00, b11, b22);
  } else {
    const q = (b00 + b11 + b22) / 3;
    const p = Math.sqrt(((b00 - q) ** 2 + (b11 - q) ** 2 + (b22 - q) ** 2 + 2 * off) / 6);
    const [c00, c11, c22] = [(b00 - q) / p, (b11 - q) / p, (b22 - q) / p];
    const [c01, c02, c12] = [b01 / p, b02 / p, b12 / p];
    const det = c00 * (c11 * c22 - c12 * c12) - c01 * (c01 * c22 - c12 * c02) + c02 * (c01 * c12 - c11 * c02);
    const phi = Math.acos(Math.min(1, Math.max(-1, det / 2))) / 3;
    high = q + 2 * p * Math.cos(phi);
    low = q + 2 * p * Math.cos(phi + 2 * Math.PI / 3);
  }
  return { max: Math.sqrt(Math.max(0, high)), min: Math.sqrt(Math.max(0, low)) };
}

// Angle between directions u (values[ou..]) and v, in degrees; atan2 stays accurate for tiny
// angles (acos does not).
function angleDeg(u, ou, v, ov) {
  const x = u[ou + 1] * v[ov + 2] - u[ou + 2] * v[ov + 1];
  const y = u[ou + 2] * v[ov] - u[ou] * v[ov + 2];
  const z = u[ou] * v[ov + 1] - u[ou + 1] * v[ov];
  return Math.atan2(Math.hypot(x, y, z), u[ou] * v[ov] + u[ou + 1] * v[ov + 1] + u[ou + 2] * v[ov + 2]) * DEG;
}
// error / bound; 0 when equal, Infinity beyond a zero bound or for NaN.
function ratioOf(error, bound) {
  if (error === 0) return 0;
  return Number.isNaN(error) ? Infinity : error / bound;
}
const maxAbs3 = (values, offset) => Math.max(Math.abs(values[offset]), Math.abs(values[offset + 1]),
                                             Math.abs(values[offset + 2]));
const show = (values, offset, count) =>
  `(${Array.from(values.slice(offset, offset + count), (x) => x.toPrecision(7)).join(', ')})`;
function unit3(values, offset) {
  const length = Math.hypot(values[offset], values[offset + 1], values[offset + 2]);
  return [0, 1, 2].map((c) => values[offset + c] / length);
}

// Every value of an attribute as doubles, 4 a vertex (missing components 0).
function readAll(attribute) {
  const out = new Float64Array(attribute.count * 4);
  const n = Math.min(4, attribute.itemSize);
  for (let i = 0; i < attribute.count; ++i) {
    for (let c = 0; c < n; ++c) out[4 * i + c] = attribute.getComponent(i, c);
  }
  return out;
}
// Local positions (`delta`: morph position deltas) of readAll() in world space, 3 a vertex: a
// skinned mesh is drawn through its skin (bindMatrix, the bones at rest, the inverse bind
// matrices, which may hold the dequantization): applyBoneTransform places a local vector as
// three.js's skinning does, without the morphs; a delta by its linear part.
function placeAll(mesh, raw, delta, linear) {
  const out = new Float64Array(raw.length / 4 * 3);
  const v = new THREE.Vector3();
  const origin = new THREE.Vector3();
  for (let i = 0; 4 * i < raw.length; ++i) {
    v.set(raw[4 * i], raw[4 * i + 1], raw[4 * i + 2]);
    if (mesh.isSkinnedMesh) {
      mesh.applyBoneTransform(i, v);
      if (delta) v.sub(mesh.applyBoneTransform(i, origin.set(0, 0, 0)));
    }
    if (delta) v.applyMatrix3(linear);
    else v.applyMatrix4(mesh.matrixWorld);
    out.set([v.x, v.y, v.z], 3 * i);
  }
  return out;
}
// Directions of readAll() by a Matrix3, 3 a vertex.
function transformAll(raw, matrix) {
  const out = new Float64Array(raw.length / 4 * 3);
  const v = new THREE.Vector3();
  for (let i = 0; 4 * i < raw.length; ++i) {
    v.set(raw[4 * i], raw[4 * i + 1], raw[4 * i + 2]).applyMatrix3(matrix);
    out.set([v.x, v.y, v.z], 3 * i);
  }
  return out;
}
const maxAbs = (vector) => Math.max(Math.abs(vector.x), Math.abs(vector.y), Math.abs(vector.z));

// Where KHR_mesh_quantization is needed: mesh attribute types beyond glTF 2.0 core (§3.7.2.1;
// morph targets §3.7.2.2: float only). componentType, 'n' when normalized.
const CORE_TYPES = {
  POSITION: ['5126'], NORMAL: ['5126'], TANGENT: ['5126'],
  TEXCOORD: ['5126', '5121n', '5123n'], COLOR: ['5126', '5121n', '5123n'],
  JOINTS: ['5121', '5123'], WEIGHTS: ['5126', '5121n', '5123n'],
};
function attributeTypes(json) {
  const out = [];  // { semantic, type, target }
  for (const mesh of json.meshes ?? []) {
    for (const primitive of mesh.primitives ?? []) {
      const add = (attributes, target) => {
        for (const [name, index] of Object.entries(attributes ?? {})) {
          const accessor = json.accessors?.[index];
          if (accessor) {
            out.push({ semantic: name.replace(/_[0-9]+$/, ''), target,
                       type: `${accessor.componentType}${accessor.normalized ? 'n' : ''}` });
          }
        }
      };
      add(primitive.attributes, false);
      for (const target of primitive.targets ?? []) add(target, true);
    }
  }
  return out;
}
const beyondCore = ({ semantic, type, target }) =>
  semantic in CORE_TYPES && !(target ? type === '5126' : CORE_TYPES[semantic].includes(type));
const quantizable = ({ semantic }) => ['POSITION', 'NORMAL', 'TANGENT', 'TEXCOORD', 'COLOR', 'WEIGHTS', 'JOINTS'].includes(semantic);

// A file using a type beyond core must require KHR_mesh_quantization (a reader without it would
// misread the geometry). With `expectQuantized` the quantized (non-float) mesh attributes are
// listed; none is only a note: the writer may keep a mesh as it is (a skinned one's positions, and
// then the rest of it), which the bounds allow. (That it quantizes at all is what the
// detects-tight-bound case of compress.cmake shows.)
export function checkQuantizationExtension(report, json, plainJson, expectQuantized) {
  const types = attributeTypes(json);
  const beyond = types.filter(beyondCore);
  if (beyond.length > 0) {
    for (const key of ['extensionsUsed', 'extensionsRequired']) {
      report.check((json[key] ?? []).includes('KHR_mesh_quantization'),
                   `${beyond.length} mesh accessors need KHR_mesh_quantization ` +
                   `(${beyond[0].target ? 'morph ' : ''}${beyond[0].semantic} ${beyond[0].type}), not in ${key}`);
    }
  }
  if (!expectQuantized) return;
  const count = (list) => {
    const counts = new Map();
    for (const t of list) {
      if (!quantizable(t) || t.type === '5126') continue;
      const key = `${t.target ? 'morph ' : ''}${t.semantic} ${t.type}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  };
  const mine = count(types);
  const plain = count(attributeTypes(plainJson));
  const total = (counts) => [...counts.values()].reduce((sum, n) => sum + n, 0);
  console.log(`quantized mesh accessors: ${[...mine].map(([key, n]) => `${key} x${n}`).join(', ') || 'none'}` +
              ` (plain file: ${total(plain)})`);
  if (total(mine) <= total(plain)) console.log('note: no mesh attribute quantized (as many non-float ones as the plain file)');
}

export class QuantizedMeshCheck {
  // bounds: { mesh: F, normalDeg: D, texcoord: T, color: C, skinWeight: W }
  constructor(report, bounds, gltfPlain, gltfCompressed, compressedJson) {
    this.report = report;
    this.bounds = bounds;
    this.worst = { position: 0, morphPosition: 0, normalDeg: 0, morphNormal: 0, texcoord: 0, color: 0, skinWeight: 0,
                   playbackPosition: 0 };
    this.meshPairs = [];
    this.gltfPlain = gltfPlain;
    this.gltfCompressed = gltfCompressed;
    this.drawn = new WeakMap();  // geometry -> drawnOf()
    this.triangles = { lists: 0, blending: 0, paired: 0, moved: 0, rotated: 0 };
    // Largest bounding-box side per glTF mesh over all its primitives (GLTFLoader makes one
    // three.js Mesh, LineSegments, Points ... per primitive; parser.associations names the glTF
    // mesh of each).
    const boxes = new Map();
    this.meshOf = (object) => gltfPlain.parser.associations.get(object)?.meshes ?? object;
    // (Not geometry.computeBoundingBox(): three.js widens that by the morph targets' reach.)
    gltfPlain.root.traverse((object) => {
      if (!object.geometry?.attributes.position) return;
      const box = new THREE.Box3().setFromBufferAttribute(object.geometry.attributes.position);
      const key = this.meshOf(object);
      boxes.set(key, (boxes.get(key) ?? new THREE.Box3()).union(box));
    });
    this.extents = new Map([...boxes].map(([key, box]) => {
      const size = box.getSize(new THREE.Vector3());
      return [key, Math.max(size.x, size.y, size.z)];
    }));
    // The objects of nodes whose mesh got quantized positions: their local TRS holds the
    // dequantization (translation = offset, scale x step), so it legitimately differs.
    const quantizedNodes = new Set();
    (compressedJson.nodes ?? []).forEach((node, index) => {
      const mesh = compressedJson.meshes?.[node.mesh];
      if (mesh && mesh.primitives.some((p) => compressedJson.accessors[p.attributes.POSITION]?.componentType !== 5126)) {
        quantizedNodes.add(index);
      }
    });
    this.dequantized = new Set();
    gltfCompressed.root.traverse((object) => {
      if (quantizedNodes.has(gltfCompressed.parser.associations.get(object)?.nodes)) this.dequantized.add(object);
    });
  }

  handles(key) {
    return LOSSY.test(key);
  }

  // The vertices a geometry draws, in draw order: index[k], or k without an index.
  drawnOf(geometry) {
    let drawn = this.drawn.get(geometry);
    if (!drawn) {
      const index = geometry.index;
      drawn = new Uint32Array(index ? index.count : geometry.attributes.position.count);
      for (let k = 0; k < drawn.length; ++k) drawn[k] = index ? index.getX(k) : k;
      this.drawn.set(geometry, drawn);
    }
    return drawn;
  }

  // The measure of one lossy attribute of a mesh pair at rest (both roots' matrixWorld up to
  // date), every vertex's value placed once: ratio(i, j) is the error of compressed vertex j
  // against plain vertex i over its bound (> 1: beyond it), stat(i, j) what the summary's maximum
  // of its kind (statName) takes, describe(i, j) the error, bound and values for a failure line.
  // null (a failed check) when the item sizes differ.
  measure(a, b, key, attributeA, attributeB) {
    const [, kind, target] = key.match(LOSSY);
    const where = `'${a.name}' ${key}`;
    if (!this.report.check(attributeA.itemSize === attributeB.itemSize,
                           `${where}: itemSize ${attributeB.itemSize}, plain ${attributeA.itemSize}`)) return null;
    const extent = this.extents.get(this.meshOf(a)) ?? 0;
    const linearA = new THREE.Matrix3().setFromMatrix4(a.matrixWorld);
    const linearB = new THREE.Matrix3().setFromMatrix4(b.matrixWorld);
    const sigma = singularValues(a.matrixWorld);
    // A linear map turns a small angle into at most its condition number times that angle (the
    // perpendicular part of u - v grows by at most σmax, |Au| shrinks by at most σmin); the normal
    // matrix A^-T has the same condition number. 1 for rotation + uniform scale.
    const angleFactor = sigma.min > 0 ? sigma.max / sigma.min : Infinity;
    const rawA = readAll(attributeA);
    const rawB = readAll(attributeB);
    const base = { key, where, angleFactor };

    if (kind === 'position') {
      // World positions (morph deltas: the linear part only), against F x extent in world units:
      // σmax of the plain matrixWorld is the most it stretches a local length.
      const unit = extent * sigma.max;
      const delta = target !== undefined;
      const worldA = placeAll(a, rawA, delta, linearA);
      const worldB = placeAll(b, rawB, delta, linearB);
      let magnitude = 0;
      for (const i of this.drawnOf(a.geometry)) {
        magnitude = Math.max(magnitude, maxAbs3(worldA, 3 * i), sigma.max * maxAbs3(rawA, 4 * i));
      }
      const bound = this.bounds.mesh * unit + WORLD_SLACK * magnitude;
      const error = (i, j) => Math.hypot(worldA[3 * i] - worldB[3 * j], worldA[3 * i + 1] - worldB[3 * j + 1],
                                         worldA[3 * i + 2] - worldB[3 * j + 2]);
      return {
        ...base, statName: delta ? 'morphPosition' : 'position', worldA, worldB, bound,
        ratio: (i, j) => ratioOf(error(i, j), bound),
        stat: (i, j) => (unit > 0 ? error(i, j) / unit : -Infinity),
        describe: (i, j) => ({ error: error(i, j), bound,
                               text: `${show(worldB, 3 * j, 3)}, plain ${show(worldA, 3 * i, 3)} (world)` }),
      };
    }
    if ((kind === 'normal' || kind === 'tangent') && target === undefined) {
      // Drawn directions: three.js transforms normals by the normal matrix and tangents by the
      // linear part of the model(-view) matrix, then normalizes. The compressed matrices carry the
      // dequantization's uniform scale on top, which the normalization removes.
      const bound = this.bounds.normalDeg * angleFactor + RELATIVE_SLACK * DEG;
      const chord = 2 * Math.sin(this.bounds.normalDeg / DEG / 2) + RELATIVE_SLACK;
      const direct = (mesh, raw, linear) => transformAll(
        raw, kind === 'normal' ? new THREE.Matrix3().getNormalMatrix(mesh.matrixWorld) : linear);
      const dirA = direct(a, rawA, linearA);
      const dirB = direct(b, rawB, linearB);
      // No direction (a degenerate vertex): the stored vectors must agree within the chord of the
      // angle bound instead.
      const degenerate = (i, j) => Math.hypot(dirA[3 * i], dirA[3 * i + 1], dirA[3 * i + 2]) < 1e-6 ||
                                   Math.hypot(dirB[3 * j], dirB[3 * j + 1], dirB[3 * j + 2]) < 1e-6;
      const stored = (i, j) => Math.hypot(rawA[4 * i] - rawB[4 * j], rawA[4 * i + 1] - rawB[4 * j + 1],
                                          rawA[4 * i + 2] - rawB[4 * j + 2]);
      const angle = (i, j) => angleDeg(dirA, 3 * i, dirB, 3 * j);
      // Tangent handedness: ±1, exact in every normalized type.
      const handedness = (i, j) => (kind === 'tangent' ? Math.abs(rawA[4 * i + 3] - rawB[4 * j + 3]) : 0);
      return {
        ...base, statName: 'normalDeg',
        ratio: (i, j) => (degenerate(i, j) ? ratioOf(stored(i, j), chord)
          : Math.max(ratioOf(angle(i, j), bound), ratioOf(handedness(i, j), RELATIVE_SLACK))),
        stat: (i, j) => (degenerate(i, j) ? -Infinity : angle(i, j)),
        describe: (i, j) => {
          if (degenerate(i, j)) {
            return { error: stored(i, j), bound: chord,
                     text: `${show(rawB, 4 * j, 3)}, plain ${show(rawA, 4 * i, 3)} (zero-length)` };
          }
          if (ratioOf(handedness(i, j), RELATIVE_SLACK) > ratioOf(angle(i, j), bound)) {
            return { error: handedness(i, j), bound: RELATIVE_SLACK, text: `w ${rawB[4 * j + 3]}, plain ${rawA[4 * i + 3]}` };
          }
          return { error: angle(i, j), bound,
                   text: `${show(unit3(dirB, 3 * j), 0, 3)}, plain ${show(unit3(dirA, 3 * i), 0, 3)} ` +
                         `(world, ${angle(i, j).toExponential(3)} deg)` };
        },
      };
    }
    const n = attributeA.itemSize;
    const values = (i, j) => `${show(rawB, 4 * j, n)}, plain ${show(rawA, 4 * i, n)}`;
    if (kind === 'normal' || kind === 'tangent') {
      // Morph normal deltas. three.js draws normalize(N (n + Σ w Δn)) with N the normal matrix,
      // the same in both files up to the dequantization's uniform scale, which the normalization
      // removes: so the deltas are compared as stored (object space), with no transform. The
      // writer states no bound of its own for them (SHORT normalized: 1.5e-5 a component); the
      // one used keeps a morph's share of the drawn normal's error within the base normal's:
      // |Δn' - Δn| <= 2 sin(D/2), how far a unit normal moves when turned by the bound D.
      const bound = 2 * Math.sin(this.bounds.normalDeg / DEG / 2) + RELATIVE_SLACK;
      const error = (i, j) => Math.hypot(rawA[4 * i] - rawB[4 * j], rawA[4 * i + 1] - rawB[4 * j + 1],
                                         rawA[4 * i + 2] - rawB[4 * j + 2], rawA[4 * i + 3] - rawB[4 * j + 3]);
      return {
        ...base, statName: 'morphNormal',
        ratio: (i, j) => ratioOf(error(i, j), bound),
        stat: error,
        describe: (i, j) => ({ error: error(i, j), bound, text: values(i, j) }),
      };
    }
    // Texture coordinates, colours (and colour deltas) and skin weights: per component, absolute,
    // untransformed (a weight's error shows in the skinned positions too, which playback checks).
    const name = kind === 'color' ? 'color' : kind === 'skinWeight' ? 'skinWeight' : 'texcoord';
    const limit = this.bounds[name];
    const worstComponent = (i, j) => {
      let worst = { ratio: -Infinity };
      for (let c = 0; c < n; ++c) {
        const error = Math.abs(rawA[4 * i + c] - rawB[4 * j + c]);
        const bound = limit + 0.1 * RELATIVE_SLACK * Math.max(1, Math.abs(rawA[4 * i + c]));
        const ratio = ratioOf(error, bound);
        if (ratio > worst.ratio) worst = { ratio, error, bound };
      }
      return worst;
    };
    return {
      ...base, statName: name,
      ratio: (i, j) => worstComponent(i, j).ratio,
      stat: (i, j) => {
        let worst = 0;
        for (let c = 0; c < n; ++c) worst = Math.max(worst, Math.abs(rawA[4 * i + c] - rawB[4 * j + c]));
        return worst;
      },
      describe: (i, j) => ({ ...worstComponent(i, j), text: values(i, j) }),
    };
  }

  // One attribute of a mesh pair at rest: `measure` from measure(), `pairs` the drawn vertices
  // [plain index, compressed index], each distinct pair once (pairVertices). One check per
  // attribute; a failure names the worst vertex.
  compareAtRest(measure, pairs) {
    if (!measure) return;
    let over = 0;
    let worst = null;
    let worstRatio = -Infinity;
    for (const pair of pairs) {
      const ratio = measure.ratio(pair[0], pair[1]);
      if (ratio > 1) ++over;
      if (ratio > worstRatio) {
        worstRatio = ratio;
        worst = pair;
      }
      this.worst[measure.statName] = Math.max(this.worst[measure.statName], measure.stat(pair[0], pair[1]));
    }
    const factor = measure.angleFactor;
    this.report.check(over === 0, () => {
      const { error, bound, text } = measure.describe(worst[0], worst[1]);
      return `${measure.where}: ${over} of ${pairs.length} drawn vertices beyond the bound; ` +
             `worst vertex ${worst[0]} (compressed ${worst[1]}): ${text}, ` +
             `off by ${error.toExponential(3)}, bound ${bound.toExponential(3)}` +
             `${factor !== 1 && Number.isFinite(factor) ? ` (world matrix condition ${factor.toFixed(4)})` : ''}`;
    });
  }

  // The glTF primitive a three.js mesh draws, from the loader's associations; null if unknown.
  static primitiveOf(gltf, object) {
    const mapping = gltf.parser.associations.get(object);
    if (mapping?.meshes === undefined || mapping.primitives === undefined) return null;
    return gltf.parser.json.meshes?.[mapping.meshes]?.primitives?.[mapping.primitives] ?? null;
  }

  // The vertices a mesh pair draws, as [plain index, compressed index] pairs, each distinct pair
  // once, for compareAtRest and playback. `measures`: every lossy attribute's measure();
  // exactSame(i, j): the other attributes equal. A triangle list in both files (glTF mode 4) is
  // paired triangle by triangle (lib/triangle_pairing.mjs): `--compress-meshes` may draw its
  // triangles in another order (opaque materials: vertex cache order) and rotate their corners,
  // which draws the same; each compressed triangle must pair with a plain one whose corners are
  // within every bound, each plain one used once. A primitive whose material blends (alphaMode
  // BLEND, in either file) must keep its triangles' order: triangle t pairs with plain triangle t
  // (draw order shows through blending), only the rotation may change. Anything else is paired as
  // drawn, vertex k with vertex k (nothing when the counts differ, which the caller reports).
  pairVertices(a, b, measures, exactSame) {
    const drawnA = this.drawnOf(a.geometry);
    const drawnB = this.drawnOf(b.geometry);
    const pairs = [];
    const seen = new Set();
    const verticesB = b.geometry.attributes.position.count;
    const add = (i, j) => {
      const id = i * verticesB + j;
      if (!seen.has(id)) {
        seen.add(id);
        pairs.push([i, j]);
      }
    };
    const primitives = [[this.gltfPlain, a], [this.gltfCompressed, b]].map(
      ([gltf, object]) => [gltf, QuantizedMeshCheck.primitiveOf(gltf, object)]);
    const position = measures.find((m) => m?.key === 'position');
    if (!position || !a.isMesh || !b.isMesh || primitives.some(([, p]) => !p || (p.mode ?? 4) !== 4) ||
        drawnA.length % 3 !== 0 || drawnB.length % 3 !== 0) {
      if (drawnA.length === drawnB.length) drawnA.forEach((i, k) => add(i, drawnB[k]));
      return pairs;
    }
    const blend = primitives.some(([gltf, p]) => gltf.parser.json.materials?.[p.material]?.alphaMode === 'BLEND');
    const { partner, rotation } = pairTrianglesChecked({
      name: a.name, plain: drawnA, compressed: drawnB, position, measures: measures.filter(Boolean), exactSame, blend,
      report: this.report,
    });
    for (let t = 0; t < partner.length; ++t) {
      if (partner[t] < 0) continue;
      for (let c = 0; c < 3; ++c) add(drawnA[3 * partner[t] + c], drawnB[3 * t + ((c + rotation[t]) % 3)]);
      this.triangles.paired += 1;
      if (partner[t] !== t) ++this.triangles.moved;
      if (rotation[t] !== 0) ++this.triangles.rotated;
    }
    this.triangles.lists += 1;
    if (blend) this.triangles.blending += 1;
    return pairs;
  }

  triangleSummary() {
    const t = this.triangles;
    return `triangle lists paired by position: ${t.lists} (${t.blending} blending, in order), ${t.paired} triangles, ` +
           `${t.moved} not at their plain index, ${t.rotated} with rotated corners`;
  }

  // Remembers a mesh pair and its drawn vertex pairs for playback.
  addMeshPair(a, b, pairs) {
    if (a.isMesh && b.isMesh) this.meshPairs.push({ a, b, pairs });
  }

  // Playback: the compressed scene is put in the plain scene's pose (local TRS of every object but
  // the dequantized ones, morph weights), then every mesh's drawn vertices are compared in world
  // space as three.js poses them (getVertexPosition: morphs and skinning). The animation's own
  // error (quantized keys) is checked object by object by the caller; taking the plain pose here
  // leaves only the geometry's error, whose bound is then exact: the base position and each delta
  // are off by at most F x extent, so the morphed vertex by F x extent x (1 + Σ|w|). The compressed
  // pose is put back afterwards.
  comparePlayback(where, pairs, rootPlain, rootCompressed) {
    this.inPlainPose(pairs, rootPlain, rootCompressed, () => this.compareVertices(where));
  }

  // Runs `measure` with the compressed scene in the plain scene's pose (local TRS of every paired
  // object but the dequantized ones, morph weights; matrixWorld up to date), then puts the
  // compressed pose back. The pose's own error (a node number written as float32 within the
  // --compress bounds) is what the object compare checks; the geometry's is what is left.
  inPlainPose(pairs, rootPlain, rootCompressed, measure) {
    const saved = [];
    for (const [a, b] of pairs) {
      saved.push([b, b.position.clone(), b.quaternion.clone(), b.scale.clone(),
                  b.morphTargetInfluences ? [...b.morphTargetInfluences] : null]);
      if (!this.dequantized.has(b)) {
        b.position.copy(a.position);
        b.quaternion.copy(a.quaternion);
        b.scale.copy(a.scale);
      }
      if (a.morphTargetInfluences && b.morphTargetInfluences) {
        a.morphTargetInfluences.forEach((w, k) => { b.morphTargetInfluences[k] = w; });
      }
    }
    rootPlain.updateMatrixWorld(true);
    rootCompressed.updateMatrixWorld(true);
    measure();
    for (const [b, position, quaternion, scale, weights] of saved) {
      b.position.copy(position);
      b.quaternion.copy(quaternion);
      b.scale.copy(scale);
      if (weights) weights.forEach((w, k) => { b.morphTargetInfluences[k] = w; });
    }
    rootPlain.updateMatrixWorld(true);
    rootCompressed.updateMatrixWorld(true);
  }

  // Every mesh pair's drawn vertices in world space (the poses set), within the position bound.
  compareVertices(where) {
    const pa = new THREE.Vector3();
    const pb = new THREE.Vector3();
    for (const { a, b, pairs: vertices } of this.meshPairs) {
      const stretch = poseStretch(a);
      const weights = (a.morphTargetInfluences ?? []).reduce((sum, w) => sum + Math.abs(w), 0);
      const unit = (this.extents.get(this.meshOf(a)) ?? 0) * stretch;
      const step = Math.max(1, Math.ceil(vertices.length / PLAYBACK_SAMPLES));
      let worst = { error: -1 };
      let magnitude = 0;
      for (let n = 0; n < vertices.length; n += step) {
        const [i, j] = vertices[n];
        a.getVertexPosition(i, pa).applyMatrix4(a.matrixWorld);
        b.getVertexPosition(j, pb).applyMatrix4(b.matrixWorld);
        magnitude = Math.max(magnitude, maxAbs(pa));
        const error = pa.distanceTo(pb);
        if (error > worst.error) worst = { error, i, j, p: pa.toArray(), q: pb.toArray() };
      }
      if (worst.error < 0) continue;
      const bound = this.bounds.mesh * unit * (1 + weights) + WORLD_SLACK * magnitude;
      if (unit > 0) this.worst.playbackPosition = Math.max(this.worst.playbackPosition, worst.error / unit);
      this.report.check(worst.error <= bound, () => `${where} '${a.name}' vertex ${worst.i} (compressed ${worst.j}) ` +
                        `at (${worst.q.map((x) => x.toPrecision(7))}), plain (${worst.p.map((x) => x.toPrecision(7))}) ` +
                        `(world, the plain pose): off by ${worst.error.toExponential(3)}, bound ${bound.toExponential(3)} ` +
                        `(Σ|w| ${weights.toFixed(3)})`);
    }
  }

  summary() {
    const w = this.worst;
    return `meshes: position ${w.position.toExponential(3)} of the extent (morph deltas ${w.morphPosition.toExponential(3)}, ` +
           `playback ${w.playbackPosition.toExponential(3)}; bound ${this.bounds.mesh}), ` +
           `normal/tangent ${w.normalDeg.toExponential(3)} deg, morph normal delta ${w.morphNormal.toExponential(3)}, ` +
           `texcoord ${w.texcoord.toExponential(3)}, colour ${w.color.toExponential(3)}, skin weight ${w.skinWeight.toExponential(3)}`;
  }
}
