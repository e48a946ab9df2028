// check_compress.mjs --quantized-meshes: a `convert --compress-meshes` output (KHR_mesh_quantization,
// docs/formats/gltf.md) against the plain output, as three.js r187 draws both. The geometry is
// lossy there, so instead of comparing it element for element each attribute is compared, vertex
// by vertex as drawn, within the bounds the writer promises:
//   POSITION and morph POSITION deltas: displacement <= F x the largest side of the bounding box
//     of the glTF mesh's POSITION values (all its primitives, local units of the plain file);
//   NORMAL, TANGENT: <= D degrees between the directions; TEXCOORD_n, COLOR_n: <= T, C absolute.
// Import it after requireModules(['three']).

const THREE = await import('three');

// Relative float32 slack: the files store float32 values (2^-24 ~ 6e-8 relative per rounding) and
// the dequantization folded into a node is itself rounded when written.
export const RELATIVE_SLACK = 1e-6;
// Playback compares at most this many of a mesh's vertices per time step, spread evenly over the
// drawn vertices (every vertex is compared at rest), so that a large mesh with long clips (every
// key time and midpoint is played) stays a matter of seconds. The models of compress.cmake have
// fewer vertices per three.js mesh (at most 1,876), so there every vertex is compared every time.
const PLAYBACK_SAMPLES = 2000;
// The attributes (three.js names, morph ones as `name[target]`) compared within a bound; every
// other one (skinIndex, skinWeight, custom ones) must still be equal element for element.
const LOSSY = /^(position|normal|tangent|uv[0-9]*|color)(?:\[([0-9]+)\])?$/;
const DEG = 180 / Math.PI;

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

// Angle between two directions, in degrees; atan2 stays accurate for tiny angles (acos does not).
function angleDeg(u, v) {
  return Math.atan2(new THREE.Vector3().crossVectors(u, v).length(), u.dot(v)) * DEG;
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
const quantizable = ({ semantic }) => ['POSITION', 'NORMAL', 'TANGENT', 'TEXCOORD', 'COLOR'].includes(semantic);

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
  // bounds: { mesh: F, normalDeg: D, texcoord: T, color: C }
  constructor(report, bounds, gltfPlain, gltfCompressed, compressedJson) {
    this.report = report;
    this.bounds = bounds;
    this.worst = { position: 0, morphPosition: 0, normalDeg: 0, morphNormal: 0, texcoord: 0, color: 0,
                   playbackPosition: 0 };
    this.meshPairs = [];
    // Largest bounding-box side per glTF mesh over all its primitives (GLTFLoader makes one
    // three.js Mesh per primitive; parser.associations names the glTF mesh of each).
    const boxes = new Map();
    this.meshOf = (object) => gltfPlain.parser.associations.get(object)?.meshes ?? object;
    // (Not geometry.computeBoundingBox(): three.js widens that by the morph targets' reach.)
    gltfPlain.root.traverse((object) => {
      if (!object.isMesh) return;
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

  // One attribute of a mesh pair at rest (both roots' matrixWorld up to date); `pairs` are the
  // drawn vertices [plain index, compressed index], each distinct pair once. One check per attribute;
  // a failure names the worst vertex.
  compareAtRest(a, b, key, attributeA, attributeB, pairs) {
    const [, kind, target] = key.match(LOSSY);
    const where = `'${a.name}' ${key}`;
    if (!this.report.check(attributeA.itemSize === attributeB.itemSize,
                           `${where}: itemSize ${attributeB.itemSize}, plain ${attributeA.itemSize}`)) return;
    const extent = this.extents.get(this.meshOf(a)) ?? 0;
    const linearA = new THREE.Matrix3().setFromMatrix4(a.matrixWorld);
    const linearB = new THREE.Matrix3().setFromMatrix4(b.matrixWorld);
    const normalA = new THREE.Matrix3().getNormalMatrix(a.matrixWorld);
    const normalB = new THREE.Matrix3().getNormalMatrix(b.matrixWorld);
    const sigma = singularValues(a.matrixWorld);
    // A linear map turns a small angle into at most its condition number times that angle (the
    // perpendicular part of u - v grows by at most σmax, |Au| shrinks by at most σmin); the normal
    // matrix A^-T has the same condition number. 1 for rotation + uniform scale.
    const angleFactor = sigma.min > 0 ? sigma.max / sigma.min : Infinity;
    const va = new THREE.Vector4();
    const vb = new THREE.Vector4();
    const pa = new THREE.Vector3();
    const pb = new THREE.Vector3();
    let worst = { error: -1, ratio: -Infinity };  // ratio = error / bound
    let over = 0;
    const measure = (i, j, error, bound, text) => {
      if (error > bound) ++over;
      if (error / bound > worst.ratio) worst = { error, bound, ratio: error / bound, i, j, text };
    };
    const read = (attribute, index, into) => {
      into.set(0, 0, 0, 0);
      for (let c = 0; c < attribute.itemSize; ++c) into.setComponent(c, attribute.getComponent(index, c));
      return into;
    };
    const show = (v, n) => `(${v.toArray().slice(0, n).map((x) => x.toPrecision(7)).join(', ')})`;

    if (kind === 'position') {
      // World positions (morph deltas: the linear part only), against F x extent in world units:
      // σmax of the plain matrixWorld is the most it stretches a local length.
      const unit = extent * sigma.max;
      let magnitude = 0;
      // A skinned mesh is drawn through its skin (bindMatrix, the bones at rest, the inverse
      // bind matrices, which may hold the dequantization): applyBoneTransform places a local
      // vector as three.js's skinning does, without the morphs; a delta by its linear part.
      const origin = new THREE.Vector3();
      const skin = (mesh, index, vector) => {
        if (!mesh.isSkinnedMesh) return vector;
        mesh.applyBoneTransform(index, vector);
        return target === undefined ? vector : vector.sub(mesh.applyBoneTransform(index, origin.set(0, 0, 0)));
      };
      const values = pairs.map(([i, j]) => {
        skin(a, i, pa.copy(read(attributeA, i, va)));
        skin(b, j, pb.copy(read(attributeB, j, vb)));
        if (target === undefined) {
          pa.applyMatrix4(a.matrixWorld);
          pb.applyMatrix4(b.matrixWorld);
        } else {
          pa.applyMatrix3(linearA);
          pb.applyMatrix3(linearB);
        }
        magnitude = Math.max(magnitude, maxAbs(pa), sigma.max * maxAbs(va));
        return [pa.clone(), pb.clone()];
      });
      const bound = this.bounds.mesh * unit + RELATIVE_SLACK * magnitude;
      values.forEach(([p, q], n) => measure(pairs[n][0], pairs[n][1], p.distanceTo(q), bound,
                                            `${show(q, 3)}, plain ${show(p, 3)} (world)`));
      const name = target === undefined ? 'position' : 'morphPosition';
      if (worst.error >= 0 && unit > 0) this.worst[name] = Math.max(this.worst[name], worst.error / unit);
    } else if ((kind === 'normal' || kind === 'tangent') && target === undefined) {
      // Drawn directions: three.js transforms normals by the normal matrix and tangents by the
      // linear part of the model(-view) matrix, then normalizes. The compressed matrices carry the
      // dequantization's uniform scale on top, which the normalization removes.
      const bound = this.bounds.normalDeg * angleFactor + RELATIVE_SLACK * DEG;
      const chord = 2 * Math.sin(this.bounds.normalDeg / DEG / 2);
      for (const [i, j] of pairs) {
        read(attributeA, i, va);
        read(attributeB, j, vb);
        pa.set(va.x, va.y, va.z).applyMatrix3(kind === 'normal' ? normalA : linearA);
        pb.set(vb.x, vb.y, vb.z).applyMatrix3(kind === 'normal' ? normalB : linearB);
        if (pa.length() < 1e-6 || pb.length() < 1e-6) {
          // No direction (a degenerate vertex): the stored vectors must agree within the chord
          // of the angle bound instead.
          const error = Math.hypot(va.x - vb.x, va.y - vb.y, va.z - vb.z);
          measure(i, j, error, chord + RELATIVE_SLACK, `${show(vb, 3)}, plain ${show(va, 3)} (zero-length)`);
          continue;
        }
        const angle = angleDeg(pa, pb);
        this.worst.normalDeg = Math.max(this.worst.normalDeg, angle);
        measure(i, j, angle, bound, `${show(pb.normalize(), 3)}, plain ${show(pa.normalize(), 3)} (world, ${angle.toExponential(3)} deg)`);
        if (kind === 'tangent') {  // handedness: ±1, exact in every normalized type
          measure(i, j, Math.abs(va.w - vb.w), RELATIVE_SLACK, `w ${vb.w}, plain ${va.w}`);
        }
      }
    } else if (kind === 'normal' || kind === 'tangent') {
      // Morph normal deltas. three.js draws normalize(N (n + Σ w Δn)) with N the normal matrix,
      // the same in both files up to the dequantization's uniform scale, which the normalization
      // removes: so the deltas are compared as stored (object space), with no transform. The
      // writer states no bound of its own for them (SHORT normalized: 1.5e-5 a component); the
      // one used keeps a morph's share of the drawn normal's error within the base normal's:
      // |Δn' - Δn| <= 2 sin(D/2), how far a unit normal moves when turned by the bound D.
      const bound = 2 * Math.sin(this.bounds.normalDeg / DEG / 2) + RELATIVE_SLACK;
      for (const [i, j] of pairs) {
        read(attributeA, i, va);
        read(attributeB, j, vb);
        const error = Math.hypot(va.x - vb.x, va.y - vb.y, va.z - vb.z, va.w - vb.w);
        this.worst.morphNormal = Math.max(this.worst.morphNormal, error);
        measure(i, j, error, bound, `${show(vb, attributeB.itemSize)}, plain ${show(va, attributeA.itemSize)}`);
      }
    } else {
      // Texture coordinates and colours (and colour deltas): per component, absolute, untransformed.
      const name = kind === 'color' ? 'color' : 'texcoord';
      const limit = this.bounds[name];
      for (const [i, j] of pairs) {
        read(attributeA, i, va);
        read(attributeB, j, vb);
        for (let c = 0; c < attributeA.itemSize; ++c) {
          const error = Math.abs(va.getComponent(c) - vb.getComponent(c));
          this.worst[name] = Math.max(this.worst[name], error);
          measure(i, j, error, limit + 0.1 * RELATIVE_SLACK * Math.max(1, Math.abs(va.getComponent(c))),
                  `${show(vb, attributeB.itemSize)}, plain ${show(va, attributeA.itemSize)}`);
        }
      }
    }
    this.report.check(over === 0, () => `${where}: ${over} of ${pairs.length} drawn vertices beyond the bound; ` +
                                         `worst vertex ${worst.i} (compressed ${worst.j}): ${worst.text}, ` +
                                         `off by ${worst.error.toExponential(3)}, bound ${worst.bound.toExponential(3)}` +
                                         `${angleFactor !== 1 && Number.isFinite(angleFactor) ? ` (world matrix condition ${angleFactor.toFixed(4)})` : ''}`);
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
    const pa = new THREE.Vector3();
    const pb = new THREE.Vector3();
    const product = new THREE.Matrix4();
    for (const { a, b, pairs: vertices } of this.meshPairs) {
      // How much the pose stretches a local length: σmax of matrixWorld, for a skinned mesh times
      // the largest of its bone transforms (a convex blend of them stretches no more).
      let stretch = singularValues(a.matrixWorld).max;
      if (a.isSkinnedMesh) {
        let bones = 0;
        a.skeleton.bones.forEach((bone, k) => {
          bones = Math.max(bones, singularValues(product.multiplyMatrices(bone.matrixWorld, a.skeleton.boneInverses[k])).max);
        });
        stretch = singularValues(product.multiplyMatrices(a.matrixWorld, a.bindMatrixInverse)).max * bones *
                  singularValues(a.bindMatrix).max;
      }
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
      const bound = this.bounds.mesh * unit * (1 + weights) + RELATIVE_SLACK * magnitude;
      if (unit > 0) this.worst.playbackPosition = Math.max(this.worst.playbackPosition, worst.error / unit);
      this.report.check(worst.error <= bound, () => `${where} '${a.name}' vertex ${worst.i} (compressed ${worst.j}) ` +
                        `at (${worst.q.map((x) => x.toPrecision(7))}), plain (${worst.p.map((x) => x.toPrecision(7))}) ` +
                        `(world, the plain pose): off by ${worst.error.toExponential(3)}, bound ${bound.toExponential(3)} ` +
                        `(Σ|w| ${weights.toFixed(3)})`);
    }
    for (const [b, position, quaternion, scale, weights] of saved) {
      b.position.copy(position);
      b.quaternion.copy(quaternion);
      b.scale.copy(scale);
      if (weights) weights.forEach((w, k) => { b.morphTargetInfluences[k] = w; });
    }
  }

  summary() {
    const w = this.worst;
    return `meshes: position ${w.position.toExponential(3)} of the extent (morph deltas ${w.morphPosition.toExponential(3)}, ` +
           `playback ${w.playbackPosition.toExponential(3)}; bound ${this.bounds.mesh}), ` +
           `normal/tangent ${w.normalDeg.toExponential(3)} deg, morph normal delta ${w.morphNormal.toExponential(3)}, ` +
           `texcoord ${w.texcoord.toExponential(3)}, colour ${w.color.toExponential(3)}`;
  }
}
