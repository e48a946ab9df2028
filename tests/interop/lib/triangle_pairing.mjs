// check_compress.mjs --quantized-meshes: pairs the triangles of two triangle lists that draw the
// same surface within bounds, whatever their order and the rotation of their corners
// (`convert --compress-meshes` draws opaque triangle lists in vertex cache order, and the TRIANGLES
// codec of EXT_meshopt_compression may rotate [a b c] to [b c a]; the winding stays). No three.js.
//
// Each triangle is a triple of vertex indices into its file's vertices; `cost(i, j, limit)` is how
// far compressed vertex j is from plain vertex i over every lossy attribute, as a ratio to its
// bound (> 1: beyond it; once it exceeds `limit` it may return any value above it). A compressed
// triangle t pairs with plain triangle p rotated by r when every corner c of p is within the
// bounds of corner (c + r) % 3 of t. Candidates are found on a hash grid of the world-space
// centroids: corners within the position bound put the centroids within it, so with cells at
// least that large the partner lies in one of the 27 cells around the compressed centroid.
// Among candidates, those whose exact attributes (`exactSame`) agree come first, then the
// smaller cost; every plain triangle is used once (a maximum bipartite matching: first fit,
// then augmenting paths for the triangles left, so near-duplicates cannot block one another).

const NONE = -1;

function cellKey(x, y, z) {
  return Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791);
}

// Centroids, 3 numbers a triangle, of `corners` (3 vertex indices a triangle) at `world` (xyz a vertex).
function centroids(corners, world) {
  const out = new Float64Array(corners.length);
  for (let k = 0; k < corners.length; ++k) {
    const v = 3 * corners[k];
    const t = k - (k % 3);
    out[t] += world[v] / 3;
    out[t + 1] += world[v + 1] / 3;
    out[t + 2] += world[v + 2] / 3;
  }
  return out;
}

// The cost of pairing plain triangle p with compressed triangle t rotated by r: the worst corner.
export function triangleCost(plain, compressed, cost, p, t, r, limit = Infinity) {
  let worst = 0;
  for (let c = 0; c < 3; ++c) {
    const ratio = cost(plain[3 * p + c], compressed[3 * t + ((c + r) % 3)], limit);
    if (!(ratio <= worst)) {
      worst = Number.isNaN(ratio) ? Infinity : ratio;
      if (worst > limit) return worst;
    }
  }
  return worst;
}

// The best rotation of compressed triangle t against plain triangle p: { r, cost }.
export function bestRotation(plain, compressed, cost, p, t, limit = Infinity) {
  let best = { r: 0, cost: Infinity };
  for (let r = 0; r < 3; ++r) {
    const value = triangleCost(plain, compressed, cost, p, t, r, Math.min(limit, best.cost));
    if (value < best.cost) best = { r, cost: value };
  }
  return best;
}

// The plain triangle whose centroid is nearest compressed triangle t's (a linear scan: for the
// failure message of a triangle left without a partner).
export function nearestPlain(plain, compressed, worldA, worldB, t) {
  const a = centroids(plain, worldA);
  const b = centroids(compressed.subarray(3 * t, 3 * t + 3), worldB);
  let best = { p: NONE, distance: Infinity };
  for (let p = 0; 3 * p < plain.length; ++p) {
    const distance = Math.hypot(a[3 * p] - b[0], a[3 * p + 1] - b[1], a[3 * p + 2] - b[2]);
    if (distance < best.distance) best = { p, distance };
  }
  return { ...best, centroid: [...b] };
}

// plain, compressed: Uint32Array (or Array) of vertex indices, 3 a triangle; worldA, worldB:
// Float64Array world positions, 3 a vertex index; cell: grid cell size, at least the position bound
// (> 0). Returns { partner: Int32Array (plain triangle of each compressed one, -1 for none),
// rotation: Uint8Array, cost: Float64Array, unpairedPlain: [plain triangles no one took] }.
export function pairTriangles({ plain, compressed, worldA, worldB, cell, cost, exactSame = () => true }) {
  const countA = Math.floor(plain.length / 3);
  const countB = Math.floor(compressed.length / 3);
  const centroidA = centroids(plain, worldA);
  const centroidB = centroids(compressed, worldB);
  const cellOf = (values, t) => [0, 1, 2].map((axis) => Math.floor(values[3 * t + axis] / cell));
  const grid = new Map();
  for (let p = 0; p < countA; ++p) {
    const key = cellKey(...cellOf(centroidA, p));
    const list = grid.get(key);
    if (list) list.push(p);
    else grid.set(key, [p]);
  }
  const sameCorners = (p, t, r) => {
    for (let c = 0; c < 3; ++c) {
      if (!exactSame(plain[3 * p + c], compressed[3 * t + ((c + r) % 3)])) return false;
    }
    return true;
  };
  // The acceptable partners of each compressed triangle, best first: { p, r, cost, exact }.
  const edges = new Array(countB);
  const keys = [];
  for (let t = 0; t < countB; ++t) {
    const [x, y, z] = cellOf(centroidB, t);
    const list = [];
    keys.length = 0;
    for (let dx = -1; dx <= 1; ++dx) {
      for (let dy = -1; dy <= 1; ++dy) {
        for (let dz = -1; dz <= 1; ++dz) {
          const key = cellKey(x + dx, y + dy, z + dz);
          if (keys.includes(key)) continue;  // two cells hashed alike: their list once
          keys.push(key);
          for (const p of grid.get(key) ?? []) {
            const best = bestRotation(plain, compressed, cost, p, t, 1);
            if (best.cost <= 1) list.push({ p, r: best.r, cost: best.cost, exact: sameCorners(p, t, best.r) });
          }
        }
      }
    }
    list.sort((e, f) => (f.exact - e.exact) || (e.cost - f.cost) || (e.p - f.p));
    edges[t] = list;
  }

  const owner = new Int32Array(countA).fill(NONE);
  const partner = new Int32Array(countB).fill(NONE);
  const rotation = new Uint8Array(countB);
  const pairCost = new Float64Array(countB).fill(Infinity);
  const assign = (t, edge) => {
    owner[edge.p] = t;
    partner[t] = edge.p;
    rotation[t] = edge.r;
    pairCost[t] = edge.cost;
  };
  // First fit: each compressed triangle, in order, takes its best free candidate.
  for (let t = 0; t < countB; ++t) {
    const edge = edges[t].find((e) => owner[e.p] === NONE);
    if (edge) assign(t, edge);
  }
  // Augmenting paths (Kuhn) for the rest: a depth-first search over plain triangles, each visited
  // once an attempt; the path found moves every compressed triangle on it to its next candidate.
  const visited = new Uint32Array(countA);
  let stamp = 0;
  for (let root = 0; root < countB; ++root) {
    if (partner[root] !== NONE || edges[root].length === 0) continue;
    ++stamp;
    const stack = [[root, 0]];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const [t, next] = top;
      if (next >= edges[t].length) {
        stack.pop();
        continue;
      }
      top[1] = next + 1;
      const edge = edges[t][next];
      if (visited[edge.p] === stamp) continue;
      visited[edge.p] = stamp;
      if (owner[edge.p] === NONE) {
        for (const [u, after] of stack) assign(u, edges[u][after - 1]);
        break;
      }
      stack.push([owner[edge.p], 0]);
    }
  }
  const unpairedPlain = [];
  for (let p = 0; p < countA; ++p) if (owner[p] === NONE) unpairedPlain.push(p);
  return { partner, rotation, cost: pairCost, unpairedPlain };
}

// The pairing of one mesh pair with its checks (QuantizedMeshCheck.pairVertices): `position` and
// `measures` are QuantizedMeshCheck.measure()s (position among them; ratio(i, j), describe(i, j),
// key, bound, worldA, worldB), `blend`: the triangles must stay in order. Reports every compressed
// triangle without a plain partner within the bounds and every plain one left over (one check: the
// first named, with the plain triangle nearest to it and its worst attribute), and for `blend` the
// triangles not at their own index (one check). Returns { partner, rotation } (pairTriangles).
export function pairTrianglesChecked({ name, plain, compressed, position, measures, exactSame, blend, report }) {
  const list = [position, ...measures.filter((m) => m !== position)];  // positions tell most apart
  const cost = (i, j, limit) => {
    let worst = 0;
    for (const m of list) {
      const ratio = m.ratio(i, j);
      if (!(ratio <= worst)) {
        worst = Number.isNaN(ratio) ? Infinity : ratio;
        if (worst > limit) return worst;
      }
    }
    return worst;
  };
  const countA = plain.length / 3;
  const countB = compressed.length / 3;
  const outOfOrder = [];
  let result = null;
  if (blend) {
    // In order: triangle t with plain triangle t, any rotation.
    const partner = new Int32Array(countB).fill(NONE);
    const rotation = new Uint8Array(countB);
    for (let t = 0; t < countB; ++t) {
      const best = t < countA ? bestRotation(plain, compressed, cost, t, t, 1) : { cost: Infinity };
      if (best.cost <= 1) {
        partner[t] = t;
        rotation[t] = best.r;
      } else {
        outOfOrder.push(t);
      }
    }
    if (outOfOrder.length === 0 && countA === countB) result = { partner, rotation, unpairedPlain: [] };
  }
  // Otherwise (and for a blending primitive out of order, to tell where its triangles went) by position.
  result ??= pairTriangles({ plain, compressed, worldA: position.worldA, worldB: position.worldB,
                             cell: position.bound > 0 ? 2 * position.bound : 1, cost, exactSame });
  const { partner, rotation, unpairedPlain } = result;
  const corners = (indices, t) => Array.from(indices.slice(3 * t, 3 * t + 3)).join(' ');
  if (blend) {
    report.check(outOfOrder.length === 0, () => {
      const t = outOfOrder[0];
      const own = t < countA ? `plain triangle ${t} is off by ${bestRotation(plain, compressed, cost, t, t).cost.toExponential(3)} ` +
                               'x the bounds' : `the plain file has ${countA} triangles`;
      return `'${name}' (alphaMode BLEND: drawn in order): ${outOfOrder.length} of ${countB} compressed triangles do not ` +
             `pair with the plain triangle of their index; first: triangle ${t} (${own}), which ` +
             `${partner[t] >= 0 ? `pairs with plain triangle ${partner[t]}` : 'pairs with no plain triangle'}`;
    });
  }
  const unpaired = [];
  for (let t = 0; t < countB; ++t) if (partner[t] === NONE) unpaired.push(t);
  report.check(unpaired.length === 0 && unpairedPlain.length === 0, () => {
    const head = `'${name}': ${unpaired.length} of ${countB} compressed triangles pair with no plain triangle within ` +
                 `the bounds, ${unpairedPlain.length} of ${countA} plain triangles with no compressed one; first: `;
    if (unpaired.length === 0) return `${head}plain triangle ${unpairedPlain[0]} (vertices ${corners(plain, unpairedPlain[0])})`;
    const t = unpaired[0];
    const near = nearestPlain(plain, compressed, position.worldA, position.worldB, t);
    const where = `compressed triangle ${t} (vertices ${corners(compressed, t)}, centroid ` +
                  `(${near.centroid.map((x) => x.toPrecision(7)).join(', ')}) world)`;
    if (near.p === NONE) return `${head}${where}: the plain file has no triangle`;
    const { r } = bestRotation(plain, compressed, cost, near.p, t);
    let worst = { ratio: -Infinity };
    for (let c = 0; c < 3; ++c) {
      const i = plain[3 * near.p + c];
      const j = compressed[3 * t + ((c + r) % 3)];
      for (const m of list) {
        const ratio = m.ratio(i, j);
        if (ratio > worst.ratio || worst.m === undefined) worst = { ratio, m, i, j };
      }
    }
    const { error, bound, text } = worst.m.describe(worst.i, worst.j);
    const owner = partner.indexOf(near.p);
    // A triangle turned over (its winding reversed) draws facing the other way.
    const reversed = compressed.slice(3 * t, 3 * t + 3).reverse();
    const flipped = bestRotation(plain.slice(3 * near.p, 3 * near.p + 3), reversed, cost, 0, 0).cost <= 1;
    return `${head}${where}: the plain triangle of the nearest centroid, ${near.p} (vertices ${corners(plain, near.p)}, ` +
           `${near.distance.toExponential(3)} away, corners rotated by ${r}` +
           `${owner >= 0 ? `, paired with compressed triangle ${owner}` : ''}) is ` +
           `${worst.ratio <= 1 ? 'within the bounds but taken' : `off by ${worst.ratio.toExponential(3)} x the bounds`}` +
           `${flipped ? ' (within them with the winding reversed: the triangle is turned over)' : ''}, ` +
           `worst ${worst.m.key} at vertex ${worst.i} (compressed ${worst.j}): ${text}, ` +
           `off by ${error.toExponential(3)}, bound ${bound.toExponential(3)}`;
  });
  return { partner, rotation };
}
