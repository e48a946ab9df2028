// Shared helpers of the interop checks. Nothing here imports three.js: the scripts load it
// dynamically after requireModules() has checked that `npm ci` was run.
//
// Everything the checks expect is computed here from the ORIGINAL Unity CSV, independently of
// animconv's C++ code: the CSV is split by hand, mirrored, normalised, and interpolated with a
// textbook slerp.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const INTEROP_DIR = dirname(dirname(fileURLToPath(import.meta.url)));

// Tolerance per quaternion component (the track values are float32 in three.js, ~6e-8).
export const EPS = 1e-6;

// ---------------------------------------------------------------------------------------------
// Dependencies

// Fails with a clear message (exit 2) unless tests/interop/node_modules holds the packages at the
// versions package.json pins. Call it before importing three.
export function requireModules(packages) {
  const pinned = JSON.parse(readFileSync(join(INTEROP_DIR, 'package.json'), 'utf8')).dependencies;
  const problems = [];
  for (const name of packages) {
    const manifest = join(INTEROP_DIR, 'node_modules', name, 'package.json');
    if (!existsSync(manifest)) {
      problems.push(`${name} is not installed`);
      continue;
    }
    const want = String(pinned[name]).replace(/^npm:[^@]+@/, '');
    const have = JSON.parse(readFileSync(manifest, 'utf8')).version;
    if (have !== want) problems.push(`${name} is ${have}, package.json pins ${want}`);
  }
  if (problems.length > 0) {
    console.error(`interop: ${problems.join('; ')} in ${join(INTEROP_DIR, 'node_modules')}.`);
    console.error('interop: install the pinned test dependencies with: npm ci --prefix tests/interop');
    console.log('0 passed, 1 failed');
    process.exit(2);
  }
}

// ---------------------------------------------------------------------------------------------
// Command line

// Takes every `--name value` pair out of `argv` (for an option that may repeat, like --model)
// and returns the values, so parseArgs sees the rest.
export function takeRepeatedOption(argv, name) {
  const values = [];
  for (let i = 0; i < argv.length;) {
    if (argv[i] === `--${name}`) {
      if (i + 1 >= argv.length) usage(`--${name} needs a value`);
      values.push(argv[i + 1]);
      argv.splice(i, 2);
    } else {
      ++i;
    }
  }
  return values;
}

// Parses `--key value` pairs, boolean `--flag`s and positional arguments.
export function parseArgs(argv, { flags = [], options = [] }) {
  const result = { positional: [] };
  for (let i = 0; i < argv.length; ++i) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      result.positional.push(arg);
      continue;
    }
    const key = arg.slice(2);
    if (flags.includes(key)) {
      result[key] = true;
    } else if (options.includes(key)) {
      if (i + 1 >= argv.length) usage(`${arg} needs a value`);
      result[key] = argv[++i];
    } else {
      usage(`unknown option ${arg}`);
    }
  }
  return result;
}

export function usage(message) {
  console.error(`interop: ${message}`);
  console.log('0 passed, 1 failed');
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// Reporting

export class Report {
  constructor(maxLines = 200) {
    this.passed = 0;
    this.failed = 0;
    this.maxLines = maxLines;  // 0 = print every failure
    this.context = '';
  }
  setContext(context) {
    this.context = context;
  }
  pass() {
    ++this.passed;
  }
  fail(message) {
    ++this.failed;
    if (this.maxLines === 0 || this.failed <= this.maxLines) {
      console.log(`FAIL ${this.context ? `${this.context}: ` : ''}${message}`);
    }
  }
  // Counts one check; prints `message` (a string or a function making it) when it fails.
  check(ok, message) {
    if (ok) {
      this.pass();
    } else {
      this.fail(typeof message === 'function' ? message() : message);
    }
    return ok;
  }
  // Runs fn; a throw counts as one failed check.
  attempt(what, fn) {
    try {
      const value = fn();
      this.pass();
      return { ok: true, value };
    } catch (error) {
      this.fail(`${what} threw ${error && error.name ? error.name : 'an exception'}: ${
        error && error.message ? error.message : error}`);
      return { ok: false };
    }
  }
  finish() {
    if (this.maxLines !== 0 && this.failed > this.maxLines) {
      console.log(`(${this.failed - this.maxLines} more failures not shown; ` +
                  'run the script with --max-failure-lines 0 to see all)');
    }
    console.log(`${this.passed} passed, ${this.failed} failed`);
    process.exitCode = this.failed > 0 || this.passed === 0 ? 1 : 0;
  }
}

// Routes console.warn/console.error of the library into failures while `fn` runs: three.js
// reports unbound tracks, bad interpolation codes etc. only on the console.
export function withConsoleAsFailures(report, what, fn) {
  const saved = { warn: console.warn, error: console.error };
  const messages = [];
  console.warn = (...args) => messages.push(`warning: ${args.join(' ')}`);
  console.error = (...args) => messages.push(`error: ${args.join(' ')}`);
  try {
    return fn();
  } finally {
    console.warn = saved.warn;
    console.error = saved.error;
    report.check(messages.length === 0,
                 () => `${what} printed ${messages.length} console message(s): ${messages.join(' | ')}`);
  }
}

// Node has no ProgressEvent; three's FileLoader constructs one while streaming a response.
export function stubProgressEvent() {
  if (typeof globalThis.ProgressEvent === 'undefined') {
    globalThis.ProgressEvent = class ProgressEvent extends Event {
      constructor(type, init = {}) {
        super(type);
        this.lengthComputable = Boolean(init.lengthComputable);
        this.loaded = init.loaded ?? 0;
        this.total = init.total ?? 0;
      }
    };
  }
}

// Runs GLTFLoader.parse on `data` and returns { gltf, messages }, the console warnings and errors
// printed while loading (loaders report problems only there). `finish(gltf)` runs before the
// console is given back, for steps that may print too.
export async function parseGltfCapturingConsole(loader, data, finish = async () => {}) {
  const saved = { warn: console.warn, error: console.error };
  const messages = [];
  console.warn = (...parts) => messages.push(`warning: ${parts.join(' ')}`);
  console.error = (...parts) => messages.push(`error: ${parts.join(' ')}`);
  try {
    const gltf = await new Promise((resolve, reject) => {
      try {
        loader.parse(data, '', resolve, reject);
      } catch (error) {
        reject(error);
      }
    });
    await finish(gltf);
    return { gltf, messages };
  } finally {
    console.warn = saved.warn;
    console.error = saved.error;
  }
}

// ---------------------------------------------------------------------------------------------
// Inputs

export function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

// The bone list: one name per line; blank lines and `#` comments skipped (like the article's
// bone.txt, which is split on '\n').
export function readBoneList(path) {
  return readFileSync(path, 'utf8')
    .replace(/^\uFEFF/, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

// The Unity exporter's CSV: one row per sample, boneCount x (x,y,z,w), a trailing comma.
// Returns rows[r][b] = [x,y,z,w] as written.
export function readUnityCsv(path, boneCount) {
  const lines = readFileSync(path, 'utf8').replace(/^\uFEFF/, '').split('\n');
  const rows = [];
  lines.forEach((raw, index) => {
    let line = raw.trim();
    if (line === '') return;
    if (line.endsWith(',')) line = line.slice(0, -1);
    const fields = line.split(',').map((field) => Number(field));
    if (fields.length !== boneCount * 4) {
      throw new Error(`${path}:${index + 1}: ${fields.length} values, expected ${boneCount * 4}`);
    }
    const bad = fields.findIndex((value) => !Number.isFinite(value));
    if (bad >= 0) throw new Error(`${path}:${index + 1}: value ${bad + 1} is not a number`);
    const row = [];
    for (let b = 0; b < boneCount; ++b) row.push(fields.slice(b * 4, b * 4 + 4));
    rows.push(row);
  });
  if (rows.length === 0) throw new Error(`${path}: no data rows`);
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Quaternion math (double precision, written out here on purpose: not three.js's code)

// Unity is left-handed; three.js right-handed. z: reverse Z -> (-x,-y,z,w) (VRM 0.x, UniGLTF);
// x: reverse X -> (x,-y,-z,w) (VRM 1.0 / VRMA); none: the numbers as they are.
export function mirror(q, axis) {
  const [x, y, z, w] = q;
  switch (axis) {
    case 'z':
      return [-x, -y, z, w];
    case 'x':
      return [x, -y, -z, w];
    case 'none':
      return [x, y, z, w];
    default:
      throw new Error(`unknown mirror '${axis}' (z, x or none)`);
  }
}

export function normalize(q) {
  const length = Math.hypot(q[0], q[1], q[2], q[3]);
  return q.map((c) => c / length);
}

export function isZero(q) {
  return q[0] === 0 && q[1] === 0 && q[2] === 0 && q[3] === 0;
}

export function dot(a, b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

// Shortest-path spherical linear interpolation of unit quaternions:
// slerp(a, b, t) = sin((1-t)θ)/sin θ · a + sin(tθ)/sin θ · b, with b negated when a·b < 0.
export function slerp(a, b, t) {
  let d = dot(a, b);
  let bb = b;
  if (d < 0) {
    d = -d;
    bb = b.map((c) => -c);
  }
  if (d > 1 - 1e-12) {
    // Nearly the same rotation: sin θ → 0; the linear blend is exact to ~1e-12 here.
    return normalize(a.map((c, i) => (1 - t) * c + t * bb[i]));
  }
  const theta = Math.acos(Math.min(1, d));
  const s = Math.sin(theta);
  const wa = Math.sin((1 - t) * theta) / s;
  const wb = Math.sin(t * theta) / s;
  return a.map((c, i) => wa * c + wb * bb[i]);
}

// animconv sign-aligns consecutive keys (q and -q are one rotation; three.js's slerp takes the
// short path either way, other consumers may not). Returns the first key k whose quaternion has
// a negative dot product with key k-1 in a flat x,y,z,w array, or -1.
export function firstHemisphereFlip(values) {
  for (let k = 1; 4 * k + 3 < values.length; ++k) {
    if (dot(values.slice(4 * k - 4, 4 * k), values.slice(4 * k, 4 * k + 4)) < 0) return k;
  }
  return -1;
}

// Largest per-component difference between a and b, taking q and -q as the same rotation.
export function signFreeDistance(a, b) {
  let same = 0;
  let flipped = 0;
  for (let i = 0; i < 4; ++i) {
    same = Math.max(same, Math.abs(a[i] - b[i]));
    flipped = Math.max(flipped, Math.abs(a[i] + b[i]));
  }
  return Math.min(same, flipped);
}

export function formatQuat(q) {
  return `(${Array.from(q, (c) => c.toFixed(7)).join(', ')})`;
}

// ---------------------------------------------------------------------------------------------
// Expectations

// Per bone: { name, keys: [{row, time, q}] } with the rows whose value is not 0,0,0,0, mirrored
// and normalised. `timeScale` converts seconds to the file's time unit (1000 for ms). Key times
// are float32-rounded as three.js stores them (Float32Array).
export function expectedBones(rows, boneNames, { interval, mirrorAxis, timeScale = 1 }) {
  return boneNames.map((name, b) => {
    const keys = [];
    rows.forEach((row, r) => {
      if (isZero(row[b])) return;
      keys.push({
        row: r,
        time: Math.fround(r * interval * timeScale),
        q: normalize(mirror(row[b], mirrorAxis)),
      });
    });
    return { name, keys };
  });
}

// The pose a linear quaternion track through `keys` has at time t: the first/last key outside
// the keyed range, the key itself on a key, else the short-path slerp of the two neighbours.
export function poseAt(keys, t) {
  if (t <= keys[0].time) return keys[0].q;
  const last = keys[keys.length - 1];
  if (t >= last.time) return last.q;
  let k = 0;
  while (keys[k + 1].time <= t) ++k;
  if (keys[k].time === t) return keys[k].q;
  const a = keys[k];
  const b = keys[k + 1];
  return slerp(a.q, b.q, (t - a.time) / (b.time - a.time));
}

// The times to sample: every row time and the midpoint between consecutive rows, in the file's
// time unit. `kind` says which for messages.
export function sampleTimes(rowCount, interval, timeScale = 1) {
  const samples = [];
  for (let r = 0; r < rowCount; ++r) {
    samples.push({ t: r * interval * timeScale, kind: `row ${r}` });
    if (r + 1 < rowCount) {
      samples.push({ t: (r + 0.5) * interval * timeScale, kind: `midpoint of rows ${r}-${r + 1}` });
    }
  }
  return samples;
}
