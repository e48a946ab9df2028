// Byte parity of the WebAssembly build with the native CLI (docs/web.md, docs/testing.md): every
// sample input of data/ and ../shared/data × every writable format, converted by the native
// `animconv convert` and by the npm package's convert() in Node with the same options, must give
// the same bytes, the same diagnostics, or the same error (kind/exit code and message). Also
// `info --json` of every input, `diff --json` of a few pairs, a set of option combinations and
// the whole bad-input corpus (tests/bad/cases.txt). The only differences allowed are what the web
// build cannot read (Assimp formats, meshopt-compressed glTF), each checked to fail as documented.
//
// Usage: node parity.mjs --animconv BIN --package DIR --source ROOT [--shared DIR]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compareJson, compareOutputs, compareText, DOUBLE_TOLERANCE, FLOAT_TOLERANCE } from './numeric_compare.mjs';
import { optionReader } from './args.mjs';
import { apiInput, filesUnder, optionsFromArgs, printed, runNative, sameBytes } from './support.mjs';

const option = optionReader('parity');
const animconv = path.resolve(option('--animconv'));
const packageDir = path.resolve(option('--package'));
const sourceRoot = path.resolve(option('--source'));
const sharedData = path.resolve(option('--shared', path.join(sourceRoot, '..', 'shared', 'data')));
const api = await import(pathToFileURL(path.join(packageDir, 'index.js')).href);

const EXTENSIONS = ['csv', 'gltf', 'glb', 'vrm', 'vrma', 'json', 'bvh', 'fbx', 'dae'];
const FORMATS = {
  csv: 'csv', 'unity-csv': 'unity.csv', gltf: 'gltf', vrma: 'vrma', glb: 'glb',
  three: 'json', 'three-hierarchy': 'hierarchy.json', bvh: 'bvh',
};
// What the web build refuses by design (docs/web.md, "What the web build cannot do").
const ASSIMP_ONLY = /\.(fbx|dae)$/i;
const ASSIMP_REFUSAL = 'cannot be read by this build (the web build has no Assimp)';
const MESHOPT_REFUSAL = 'EXT_meshopt_compression: this build cannot decode meshopt-compressed data';

const failures = [];
const counts = { outputs: 0, errors: 0, expected: 0, info: 0, diff: 0, options: 0, bad: 0, edges: 0 };
// Outputs and reports equal but for the last bits of computed numbers (numeric_compare.mjs).
const equivalent = [];
const stats = { maxRelative: 0 };
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'animconv-parity-'));

function inputsUnder(root) {
  if (!fs.existsSync(root)) return [];
  const found = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const ext = entry.name.split('.').pop().toLowerCase();
    if (EXTENSIONS.includes(ext)) found.push(path.join(entry.parentPath ?? entry.path, entry.name));
  }
  return found.sort();
}

// Each input folder copied once: the native CLI runs there (writing into out/), with the same
// relative names the API gets, so every message quotes the same paths.
const stagedFolders = new Map();
function staged(dir) {
  if (!stagedFolders.has(dir)) {
    const copy = path.join(tmpRoot, `in${stagedFolders.size}`);
    fs.cpSync(dir, copy, { recursive: true });
    stagedFolders.set(dir, copy);
  }
  return stagedFolders.get(dir);
}

function nameOf(file) {
  return path.relative(sourceRoot, file).split(path.sep).join('/');
}

async function wasmCall(fn) {
  try {
    return { ok: true, result: await fn() };
  } catch (error) {
    if (!(error instanceof api.AnimconvError)) throw error;
    return { ok: false, error };
  }
}

// The native run's diagnostics as printed, without convert's closing summary line.
const nativeDiagnostics = (native, dropSummary) =>
  native.lines.filter((l) => !l.startsWith('animconv: error: ')).slice(0, dropSummary && native.status === 0 ? -1 : undefined);

// Compares one native run with one API call; returns a problem or null.
function sameDiagnostics(a, b) {
  return a.length === b.length && compareText(a.join('\n'), b.join('\n'), stats) === null;
}

function compare(label, native, wasm, nativeOutput, format) {
  if (native.status === 0 && !wasm.ok) return `${label}: native exit 0, wasm ${wasm.error.kind}: ${wasm.error.message}`;
  if (native.status !== 0 && wasm.ok) return `${label}: native exit ${native.status} (${native.error}), wasm succeeded`;
  if (native.status !== 0) {
    if (native.status !== wasm.error.exitCode) return `${label}: exit ${native.status} vs ${wasm.error.exitCode}`;
    if (native.error !== wasm.error.message) return `${label}: error differs\n    native: ${native.error}\n    wasm:   ${wasm.error.message}`;
    const before = printed(wasm.error.diagnostics);
    if (!sameDiagnostics(before, nativeDiagnostics(native, false))) return `${label}: diagnostics before the error differ`;
    ++counts.errors;
    return null;
  }
  const diagnostics = printed(wasm.result.diagnostics);
  const expected = nativeDiagnostics(native, nativeOutput !== undefined);
  if (!sameDiagnostics(diagnostics, expected)) {
    return `${label}: diagnostics differ\n    native: ${JSON.stringify(expected)}\n    wasm:   ${JSON.stringify(diagnostics)}`;
  }
  if (nativeOutput !== undefined) {
    if (wasm.result.files.length !== 1) return `${label}: wasm wrote ${wasm.result.files.length} files`;
    const nativeBytes = new Uint8Array(fs.readFileSync(nativeOutput));
    const wasmBytes = wasm.result.files[0].bytes;
    if (sameBytes(nativeBytes, wasmBytes)) {
      ++counts.outputs;
    } else {
      const problem = compareOutputs(format, nativeBytes, wasmBytes, stats);
      if (problem) return `${label}: output bytes differ beyond the last bits of numbers: ${problem}`;
      equivalent.push(label);
    }
  }
  return null;
}

function expectedRefusal(label, native, wasm, refusal) {
  if (wasm.ok) return `${label}: the web build read it (expected: ${refusal})`;
  if (wasm.error.kind !== 'bad-input' || !wasm.error.message.includes(refusal)) {
    return `${label}: expected the refusal '${refusal}', got ${wasm.error.kind}: ${wasm.error.message}`;
  }
  ++counts.expected;
  return null;
}

async function convertBoth(file, format, extraArgs, tag = '') {
  const dir = staged(path.dirname(file));
  const name = path.basename(file);
  const stem = name.replace(/\.[^.]+$/, '');
  const output = `${stem}${tag}.${FORMATS[format]}`;
  fs.rmSync(path.join(dir, 'out'), { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'out'));
  const native = runNative(animconv, ['convert', name, '-o', `out/${output}`, '--to', format, ...extraArgs], dir);
  const wasm = await wasmCall(() =>
    api.convert(apiInput(path.dirname(file), name), { to: format, output, ...optionsFromArgs(extraArgs) }));
  return { native, wasm, nativeOutput: path.join(dir, 'out', output) };
}

async function checkConversion(file, format, extraArgs = [], counter = null) {
  const label = `${nameOf(file)} -> ${format}${extraArgs.length ? ' ' + extraArgs.join(' ') : ''}`;
  if (process.env.PARITY_TRACE) console.error(label);
  const { native, wasm, nativeOutput } = await convertBoth(file, format, extraArgs);
  let problem;
  if (ASSIMP_ONLY.test(file)) problem = expectedRefusal(label, native, wasm, ASSIMP_REFUSAL);
  else if (!wasm.ok && wasm.error.message.includes(MESHOPT_REFUSAL)) problem = expectedRefusal(label, native, wasm, MESHOPT_REFUSAL);
  else problem = compare(label, native, wasm, native.status === 0 ? nativeOutput : undefined, format);
  if (problem) failures.push(problem);
  else if (counter) ++counts[counter];
  // A multi-clip input into a single-clip format fails alike in both; its first clip converts.
  if (!problem && native.status !== 0 && /--clip/.test(native.error ?? '') && !extraArgs.includes('--clip')) {
    await checkConversion(file, format, ['--clip', '0']);
  }
}

async function checkInfo(file) {
  const dir = staged(path.dirname(file));
  const name = path.basename(file);
  const native = runNative(animconv, ['info', '--json', name], dir);
  const wasm = await wasmCall(() => api.info(apiInput(path.dirname(file), name)));
  const label = `info ${nameOf(file)}`;
  if (ASSIMP_ONLY.test(file)) {
    const problem = expectedRefusal(label, native, wasm, ASSIMP_REFUSAL);
    if (problem) failures.push(problem);
    return;
  }
  if (!wasm.ok && wasm.error.message.includes(MESHOPT_REFUSAL)) {
    const problem = expectedRefusal(label, native, wasm, MESHOPT_REFUSAL);
    if (problem) failures.push(problem);
    return;
  }
  const problem = compare(label, native, wasm);
  if (problem) return failures.push(problem);
  if (native.status === 0) {
    const report = JSON.parse(native.stdout);
    if (JSON.stringify(report) !== JSON.stringify(wasm.result.report)) {
      const problem = compareJson(report, wasm.result.report, stats);
      if (problem) return failures.push(`${label}: the JSON reports differ: ${problem}`);
      equivalent.push(label);
    } else {
      ++counts.info;
    }
  }
}

// diff A B where B is the native conversion of A (both then in A's staged folder).
async function checkDiff(file, format, diffArgs = []) {
  const { native } = await convertBoth(file, format, [], '.diff');
  const label = `diff ${nameOf(file)} ${format} ${diffArgs.join(' ')}`;
  if (native.status !== 0) return failures.push(`${label}: the native conversion failed: ${native.error}`);
  const dir = staged(path.dirname(file));
  const name = path.basename(file);
  const other = `out/${name.replace(/\.[^.]+$/, '')}.diff.${FORMATS[format]}`;
  const nativeDiff = runNative(animconv, ['diff', '--json', name, other, ...diffArgs], dir);
  const a = apiInput(dir, name);
  const b = apiInput(dir, other);
  const wasm = await wasmCall(() => api.diff(a, b, optionsFromArgs(diffArgs)));
  const problem = compare(label, nativeDiff, wasm);
  if (problem) return failures.push(problem);
  if (nativeDiff.status !== 0) return failures.push(`${label}: native diff failed: ${nativeDiff.error}`);
  const report = JSON.parse(nativeDiff.stdout);
  if (JSON.stringify(report) !== JSON.stringify(wasm.result.report)) {
    const problem = compareJson(report, wasm.result.report, stats);
    if (problem) return failures.push(`${label}: the JSON reports differ: ${problem}`);
    equivalent.push(label);
  } else {
    ++counts.diff;
  }
}

// The bad-input corpus: same exit code and message from both builds.
async function checkBadCorpus() {
  const badDir = path.join(sourceRoot, 'tests', 'bad');
  const dir = staged(badDir);
  const corpus = filesUnder(badDir);
  for (const raw of fs.readFileSync(path.join(badDir, 'cases.txt'), 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [file, optionText] = line.split('|').map((s) => s.trim());
    const cliArgs = optionText ? optionText.split(/\s+/).map((a) => a.replaceAll('{bad}/', '')) : [];
    const native = runNative(animconv, ['convert', file, '-o', 'out.json', ...cliArgs], dir);
    const options = optionsFromArgs(cliArgs);
    // The whole corpus as side files: the files options name, and those a glTF refers to.
    const input = { ...corpus.find((f) => f.name === file), files: corpus.filter((f) => f.name !== file) };
    const wasm = await wasmCall(() => api.convert(input, { output: 'out.json', ...options }));
    const label = `bad ${file} ${optionText}`;
    const problem = ASSIMP_ONLY.test(file) || file.startsWith('assimp/')
      ? expectedRefusal(label, native, wasm, ASSIMP_REFUSAL)
      : compare(label, native, wasm);
    if (problem) failures.push(problem);
    else if (!ASSIMP_ONLY.test(file) && !file.startsWith('assimp/')) ++counts.bad;
  }
}

// formats(): the native registry's rows (`animconv formats`) but `assimp`, compiled out.
async function checkFormats() {
  const native = runNative(animconv, ['formats'], sourceRoot).stdout.trim().split('\n').slice(1)
    .map((line) => line.split(/\s+/)).filter(([id]) => id !== 'assimp')
    .map(([id, read, write]) => `${id} ${read === 'yes'} ${write === 'yes'}`);
  const wasm = (await api.formats()).map((f) => `${f.id} ${f.read} ${f.write}`);
  if (native.join() !== wasm.join()) failures.push(`formats(): ${wasm.join(', ')} vs native ${native.join(', ')}`);
  if (!(await api.formats()).every((f) => f.description && f.extensions.length)) failures.push('formats(): a row without description or extensions');
}

// The number-parsing seam (formats/common/number_parse.cpp) at the edges of double's range: both
// builds must read or refuse each alike (fast_float in the web build, std::from_chars natively).
async function checkNumberEdges() {
  const dir = path.join(tmpRoot, 'number-edges');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'two.txt'), 'Hips\nSpine\n');
  const edges = ['2e-324', '2.4703282292062327e-324', '2.4703282292062328e-324', '4.9e-324', '1e-320',
    '1e-400', '-1e-400', '0e999', '0.0000e-99999', '1.7976931348623157e308', '1.8e308', '1e999',
    '123456789012345678901234567890', '0.1234567890123456789', '1,5e-3'];
  for (const [i, edge] of edges.entries()) {
    const name = `edge${i}.csv`;
    const row = `${edge};0;0;1;0;0;0;1\n`;
    fs.writeFileSync(path.join(dir, name), row + row);
    const cliArgs = ['--from', 'unity-csv', '--bones', 'two.txt'];
    const native = runNative(animconv, ['convert', name, '-o', `${name}.csv`, '--to', 'csv', ...cliArgs], dir);
    const wasm = await wasmCall(() => api.convert(apiInput(dir, name), { to: 'csv', output: `${name}.csv`, ...optionsFromArgs(cliArgs) }));
    const problem = compare(`number edge ${edge}`, native, wasm, native.status === 0 ? path.join(dir, `${name}.csv`) : undefined, 'csv');
    if (problem) failures.push(problem);
    else ++counts.edges;
    fs.rmSync(path.join(dir, `${name}.csv`), { force: true });
  }
}

const started = Date.now();
await checkNumberEdges();
await checkFormats();
const inputs = [...inputsUnder(path.join(sourceRoot, 'data')), ...inputsUnder(sharedData)];
for (const file of inputs) {
  for (const format of Object.keys(FORMATS)) await checkConversion(file, format);
  await checkInfo(file);
}
// Options through the shared mapping (animconv/option_values.h): each must give the CLI's bytes.
const data = (p) => path.join(sourceRoot, 'data', p);
const shared = (p) => path.join(sharedData, p);
const optionCases = [
  [data('unity/walk.csv'), 'vrma', ['--reduce']],
  [data('unity/walk.csv'), 'three', ['--mirror', 'x', '--trim', '0.5:1.5', '--speed', '2']],
  [data('unity/walk.csv'), 'glb', ['--resample', '30', '--loop', '--loop-blend', '0.2']],
  [data('unity/walk.csv'), 'unity-csv', ['--precision', '3', '--fps', '10']],
  [data('unity/walk.csv'), 'three-hierarchy', ['--time-unit', 'ms', '--interpolation', 'step']],
  [data('unity/walk.csv'), 'bvh', ['--bvh-order', 'XYZ', '--offset', '0.5']],
  [data('unity/walk.csv'), 'three', ['--bone-names', 'mixamo', '--three-array']],
  [data('unity/anim.csv'), 'three', ['--bones', 'bone.txt']],
  [data('gltf/walk.glb'), 'three', ['--reduce-rotation', '0.5', '--reduce-hierarchical', '0.1']],
  [data('gltf/morph_cube.gltf'), 'three', ['--morph-tracks', 'per-target', '--reduce-keep-rest']],
  [data('bvh/cmu_walk.bvh'), 'glb', ['--scale', '2.54', '--max-nodes', '500']],
  [data('unity/walk.csv'), 'three', ['--speed', '-1']],
  [data('unity/walk.csv'), 'three', ['--loop-blend', '0.2']],
  [data('unity/walk.csv'), 'three', ['--max-keys', '0']],
  [data('unity/walk.csv'), 'three', ['--interval', '0.1', '--fps', '10']],
  [data('unity/walk.csv'), 'three', ['--speed', 'abc']],
  [data('unity/walk.csv'), 'three', ['--nope', 'x']],
  [data('gltf/walk.glb'), 'glb', ['--root-motion', 'in-place']],
  [data('bvh/cmu_walk.bvh'), 'three', ['--root-motion', 'extract']],
  [data('unity/walk.csv'), 'three', ['--root-motion', 'sideways']],
  [data('bvh/cmu_walk.bvh'), 'glb', ['--root-motion', 'in-place', '--ground']],
  [data('gltf/morph_cube.gltf'), 'glb', ['--ground']],
];
const vrmModel = shared('vrm/vrmaddon_minimal_vrm0.vrm');
if (fs.existsSync(vrmModel)) {
  // --skeleton names a model outside the input's folder: handed in as {name, bytes}.
  const dir = staged(path.dirname(data('unity/walk.csv')));
  fs.copyFileSync(vrmModel, path.join(dir, 'avatar.vrm'));
  const native = runNative(animconv, ['convert', 'walk.csv', '-o', 'out/walk_avatar.json', '--skeleton', 'avatar.vrm'], dir);
  const wasm = await wasmCall(() => api.convert(apiInput(data('unity'), 'walk.csv'), {
    output: 'walk_avatar.json', skeleton: { name: 'avatar.vrm', bytes: new Uint8Array(fs.readFileSync(vrmModel)) } }));
  const problem = compare('walk.csv --skeleton avatar.vrm', native, wasm, native.status === 0 ? path.join(dir, 'out', 'walk_avatar.json') : undefined, 'three');
  if (problem) failures.push(problem);
  else ++counts.options;
}
for (const [file, format, extra] of optionCases) await checkConversion(file, format, extra, 'options');
for (const [file, format, diffArgs] of [
  [data('unity/walk.csv'), 'vrma', []],
  [data('unity/walk.csv'), 'three', ['--hierarchical', '0.1']],
  [data('gltf/walk.glb'), 'bvh', ['--space', 'world']],
  [data('bvh/cmu_walk.bvh'), 'glb', ['--samples-between', '3']],
  [data('gltf/morph_cube.gltf'), 'three', []],
  [shared('skeletal/khronos_Fox.glb'), 'gltf', ['--clip', 'Run']],
]) {
  if (fs.existsSync(file)) await checkDiff(file, format, diffArgs);
}
await checkBadCorpus();
fs.rmSync(tmpRoot, { recursive: true, force: true });

const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`parity: ${inputs.length} inputs; identical: ${counts.outputs} outputs, ${counts.errors} errors ` +
  `(of which ${counts.bad} bad-input corpus cases), ${counts.edges} number-range edges, ${counts.options} option cases, ${counts.info} info ` +
  `reports, ${counts.diff} diff reports; ${counts.expected} expected refusals (Assimp, meshopt); ` +
  `equal but for the last bits of numbers: ${equivalent.length} (largest relative difference ` +
  `${stats.maxRelative.toExponential(2)}; tolerances ${DOUBLE_TOLERANCE} doubles, ${FLOAT_TOLERANCE} float32); ${seconds} s`);
if (process.env.PARITY_LIST_EQUIVALENT) console.log(`  ${equivalent.join('\n  ')}`);
if (failures.length) {
  console.log(`parity: ${failures.length} differences:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
