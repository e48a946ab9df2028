// `animconv convert --reduce --compress` beside `gltfpack -c` and glTF Transform (resample +
// quantize + meshopt), on the same files in one run (issue 18 item 3). bench/compress_vs_peers.sh
// installs the peers and picks the inputs; docs/performance.md has a run and how to read it.
//
//   node bench.mjs --animconv BIN --out DIR [--runs N] [--json FILE] FILE...
//
// For every file and tool: output bytes, keys kept (animconv info, which decodes
// EXT_meshopt_compression), the largest error of every clip of the output against the input as
// `animconv diff` measures it, and the wall time of the whole process (median of N runs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const gltfpack = join(here, 'node_modules', 'gltfpack', 'cli.js');

const options = { runs: 3, files: [] };
for (let i = 2; i < process.argv.length; ++i) {
  const arg = process.argv[i];
  if (arg === '--animconv') options.animconv = process.argv[++i];
  else if (arg === '--out') options.out = process.argv[++i];
  else if (arg === '--runs') options.runs = Number(process.argv[++i]);
  else if (arg === '--json') options.json = process.argv[++i];
  else options.files.push(arg);
}
if (!options.animconv || !options.out || options.files.length === 0 || !(options.runs >= 1)) {
  console.error('usage: node bench.mjs --animconv BIN --out DIR [--runs N] [--json FILE] FILE...');
  process.exit(2);
}

// Each tool as its users run it: its own defaults, the compact output switched on.
const tools = [
  { name: 'animconv (plain)', command: (input, output) => [options.animconv, ['-q', 'convert', input, '-o', output]] },
  {
    name: 'animconv --reduce --compress',
    command: (input, output) => [options.animconv, ['-q', 'convert', input, '-o', output, '--reduce', '--compress']],
  },
  { name: 'gltfpack -c', command: (input, output) => [process.execPath, [gltfpack, '-c', '-i', input, '-o', output]] },
  {
    name: 'glTF Transform resample+quantize+meshopt',
    command: (input, output) => [process.execPath, [join(here, 'gltf_transform_compress.mjs'), input, output]],
  },
  // Last, so the other tools' output names keep their numbers: meshes quantized too (opt-in, lossy
  // within --mesh-tolerance of each mesh's size, which the note reports; `diff` measures motion).
  {
    name: 'animconv --reduce --compress-meshes',
    command: (input, output) => [options.animconv, ['-q', 'convert', input, '-o', output, '--reduce', '--compress-meshes']],
  },
  // The same without the vertex attributes no material reads (opt-in): what both peers leave out
  // by default (gltfpack without -kv, glTF Transform's prune).
  {
    name: 'animconv --reduce --compress-meshes --drop-unused-attributes',
    command: (input, output) => [options.animconv, ['-q', 'convert', input, '-o', output, '--reduce', '--compress-meshes', '--drop-unused-attributes']],
  },
];

function run(command, args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 << 20 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.error) throw result.error;
  return { ms, status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function info(file) {
  const result = run(options.animconv, ['info', file, '--json']);
  if (result.status !== 0) return { error: result.stderr.trim().split('\n').pop() };
  const parsed = JSON.parse(result.stdout);
  return { keys: parsed.clips.reduce((sum, clip) => sum + clip.keys, 0), clips: parsed.clips };
}

// The largest error per unit over every clip of the output against the same clip of the input
// (clips matched by name, else by index), and the clips the output lost.
function worstErrors(input, output, clips, outputClips) {
  const worst = { deg: 0, m: 0, ratio: 0, weight: 0 };
  const dropped = [];
  let channelsLost = 0;
  for (const [index, clip] of clips.entries()) {
    if (clip.keys === 0) continue;
    const byName = outputClips.findIndex((out) => out.name === clip.name);
    const outIndex = byName >= 0 ? byName : outputClips.length === clips.length ? index : -1;
    if (outIndex < 0) {
      dropped.push(clip.name);
      continue;
    }
    const result = run(options.animconv, ['diff', input, output, '--clip', String(index), '--clip-b', String(outIndex), '--json']);
    if (result.status !== 0) throw new Error(`diff ${input} ${output} clip ${clip.name}: ${result.stderr}`);
    const diff = JSON.parse(result.stdout);
    for (const unit of Object.keys(worst)) worst[unit] = Math.max(worst[unit], diff.overall[unit].max);
    channelsLost += diff.only_in_a.length;
  }
  return { worst, dropped, channelsLost };
}

// Our defaults (convert --reduce, --mesh-tolerance): the goal is to be smaller than each peer at
// an error within these or the peer's own, whichever is larger (issue 18 item 3).
const DEFAULTS = { deg: 0.1, m: 1e-4, ratio: 1e-3, weight: 1e-3, mesh: 1e-4 };
const BASE_ARGS = ['--reduce', '--compress-meshes', '--drop-unused-attributes'];

// Runs `command` options.runs times into `output` and measures it against `input`: bytes, keys,
// animation errors (animconv diff), mesh errors (tests/interop/mesh_distance.mjs against the
// plain output `plainOutput`, as a fraction of each mesh's size, at rest and over its morph
// targets), median wall time.
function measure(row, input, output, command, before, plainOutput) {
  const times = [];
  let last;
  for (let r = 0; r < options.runs; ++r) {
    last = run(...command);
    if (last.status !== 0) break;
    times.push(last.ms);
  }
  if (last.status !== 0) return { ...row, error: last.stderr.trim().split('\n').pop() };
  const after = info(output);
  if (after.error) return { ...row, error: `animconv cannot read the output: ${after.error}` };
  row.keys_after = after.keys;
  row.output_bytes = statSync(output).size;
  Object.assign(row, worstErrors(input, output, before.clips, after.clips));
  row.wall_ms = median(times);
  if (plainOutput && output !== plainOutput && /\.glb$/.test(output) && existsSync(plainOutput)) {
    const measured = run(process.execPath, [join(here, '..', '..', 'tests', 'interop', 'mesh_distance.mjs'), plainOutput, output]);
    if (measured.status !== 0) throw new Error(`mesh_distance ${output}: ${measured.stderr}`);
    const distance = JSON.parse(measured.stdout.trim().split('\n').pop());
    if (distance.vertices[0] > 0) [row.mesh_fraction, row.mesh_rest] = [distance.fraction, distance.rest];
  }
  return row;
}

mkdirSync(options.out, { recursive: true });
const results = [];
const matched = [];
const skipped = [];
for (const input of options.files) {
  const name = basename(input);
  const before = info(input);
  if (before.error || before.keys === 0) {
    skipped.push({ file: name, reason: before.error ? `animconv cannot read it: ${before.error}` : 'no animation' });
    continue;
  }
  const stem = name.replace(/\.[^.]+$/, '');
  const plainOutput = join(options.out, `${stem}.0.glb`);
  const rows = [];
  for (const [index, tool] of tools.entries()) {
    // A .vrma stays a .vrma for animconv (its VRMA writer, as a user converts one); the peers
    // write .glb, which they know.
    const extension = tool.name.startsWith('animconv') && /\.vrma$/i.test(name) ? 'vrma' : 'glb';
    const output = join(options.out, `${stem}.${index}.${extension}`);
    const row = { file: name, input_bytes: statSync(input).size, keys_before: before.keys, tool: tool.name };
    rows.push(measure(row, input, output, tool.command(input, output), before, plainOutput));
  }
  results.push(...rows);
  // Against each peer: animconv at our defaults, or at the peer's own errors where they are
  // larger (each unit and the meshes' at rest on its own), measured the same way.
  if (/\.vrma$/i.test(name)) continue;  // no meshes, and the defaults already apply
  for (const peer of rows.filter((r) => !r.tool.startsWith('animconv') && !r.error)) {
    const tolerance = {};
    for (const unit of ['deg', 'm', 'ratio', 'weight']) tolerance[unit] = Math.max(DEFAULTS[unit], peer.worst[unit]);
    tolerance.mesh = Math.max(DEFAULTS.mesh, peer.mesh_rest ?? 0);
    const args = [...BASE_ARGS, '--reduce-rotation', String(tolerance.deg), '--reduce-translation', String(tolerance.m),
                  '--reduce-scale', String(tolerance.ratio), '--reduce-weight', String(tolerance.weight),
                  '--mesh-tolerance', String(tolerance.mesh)];
    const output = join(options.out, `${stem}.matched-${peer.tool.split(' ')[0].toLowerCase()}.glb`);
    const row = measure({ file: name, tool: `animconv at ${peer.tool}'s errors`, tolerance, input_bytes: statSync(input).size,
                          keys_before: before.keys },
                        input, output, [options.animconv, ['-q', 'convert', input, '-o', output, ...args]], before, plainOutput);
    row.peer = peer.tool;
    row.peer_bytes = peer.output_bytes;
    row.smaller = !row.error && row.output_bytes < peer.output_bytes;
    // Within max(default, the peer's) in every unit, and the meshes at rest within theirs.
    row.within = !row.error && ['deg', 'm', 'ratio', 'weight'].every((u) => row.worst[u] <= tolerance[u] * (1 + 1e-6)) &&
                 (row.mesh_rest ?? 0) <= tolerance.mesh * (1 + 1e-6);
    matched.push(row);
  }
}

const fmt = (value) => (value === 0 ? '0' : value.toPrecision(3));
console.log('| file | tool | bytes in → out | keys in → out | max deg | max mm | max scale | max weight | mesh at rest / posed | wall ms |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of results) {
  if (row.error) {
    console.log(`| ${row.file} | ${row.tool} | failed: ${row.error} ||||||`);
    continue;
  }
  const notes = [];
  if (row.dropped.length > 0) notes.push(`clips lost: ${row.dropped.join(', ')}`);
  if (row.channelsLost > 0) notes.push(`${row.channelsLost} channel(s) missing (compared with rest)`);
  console.log(
    `| ${row.file} | ${row.tool} | ${row.input_bytes} → ${row.output_bytes} | ${row.keys_before} → ${row.keys_after} | ` +
      `${fmt(row.worst.deg)} | ${fmt(row.worst.m * 1000)} | ${fmt(row.worst.ratio)} | ${fmt(row.worst.weight)} | ` +
      `${row.mesh_fraction === undefined ? '' : `${fmt(row.mesh_rest)} / ${fmt(row.mesh_fraction)}`} | ` +
      `${row.wall_ms.toFixed(0)} |${notes.length ? ` ${notes.join('; ')}` : ''}`,
  );
}
for (const skip of skipped) console.log(`skipped ${skip.file}: ${skip.reason}`);
console.log('');
console.log('| file | peer | peer bytes | animconv at max(default, peer) | tolerances (deg, mm, scale, weight, mesh) | our errors (deg, mm, scale, weight, mesh at rest) | smaller? |');
console.log('|---|---|---:|---:|---|---|---|');
for (const row of matched) {
  if (row.error) {
    console.log(`| ${row.file} | ${row.peer} | ${row.peer_bytes} | failed: ${row.error} ||||`);
    continue;
  }
  const t = row.tolerance;
  console.log(`| ${row.file} | ${row.peer} | ${row.peer_bytes} | ${row.output_bytes} | ` +
              `${fmt(t.deg)}, ${fmt(t.m * 1000)}, ${fmt(t.ratio)}, ${fmt(t.weight)}, ${fmt(t.mesh)} | ` +
              `${fmt(row.worst.deg)}, ${fmt(row.worst.m * 1000)}, ${fmt(row.worst.ratio)}, ${fmt(row.worst.weight)}, ` +
              `${row.mesh_rest === undefined ? '-' : fmt(row.mesh_rest)} | ${row.smaller ? 'yes' : 'no'}${row.within ? '' : ' (beyond the tolerance!)'} |`);
}
if (options.json) writeFileSync(options.json, JSON.stringify({ results, matched, skipped }, null, 2));
