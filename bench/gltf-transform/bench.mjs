// glTF Transform's resample beside `animconv convert --reduce`, on the same files in one run.
// bench/reduce_vs_gltf_transform.sh installs it and picks the inputs; docs/performance.md explains
// the settings and has a run.
//
//   node bench.mjs --animconv BIN --out DIR [--time-reduce BIN] [--runs N] [--json FILE] FILE...
//
// For every file and setting: keys kept (animconv info), output bytes, the largest error of every
// clip of the output against the input as `animconv diff` measures it, and the wall time of the
// whole process (median of N runs; the output of the last run is the one measured). The reducers
// alone, each timed in its own process: glTF Transform's resample() (resample.mjs) and, with
// --time-reduce (bench/time_reduce_main.cpp), animconv's Reduce at the same tolerances.
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

function parseArguments(argv) {
  const options = { runs: 3, files: [] };
  for (let i = 0; i < argv.length; ++i) {
    const arg = argv[i];
    if (arg === '--animconv') options.animconv = argv[++i];
    else if (arg === '--out') options.out = argv[++i];
    else if (arg === '--time-reduce') options.timeReduce = argv[++i];
    else if (arg === '--runs') options.runs = Number(argv[++i]);
    else if (arg === '--json') options.json = argv[++i];
    else options.files.push(arg);
  }
  if (!options.animconv || !options.out || options.files.length === 0 || !(options.runs >= 1)) {
    console.error(
      'usage: node bench.mjs --animconv BIN --out DIR [--time-reduce BIN] [--runs N] [--json FILE] FILE...',
    );
    process.exit(2);
  }
  return options;
}

// The tolerances of the two tools are in different units: glTF Transform's is one absolute bound
// per component of every value (quaternion components too), ours are per path in physical units.
// A rotation by a small angle a changes a unit quaternion by a/2 (|q r - q| = 2 sin(a/4)), so:
// - glTF Transform matched to our default 0.1 deg: 8.727e-4 per component. Its translations,
//   scales and weights then get 8.7e-4 too (ours: 1e-4 m, 1e-3, 1e-3);
// - ours matched to glTF Transform's default 1e-4: 0.011459 deg, and 1e-4 for the other paths.
const kDegreesPerComponent = (2 * 180) / Math.PI;
const gltfTransformMatched = Math.sin((0.1 * Math.PI) / 180 / 2);
const settings = [
  // Read and write only: the output size without reduction, and the CLI's time without the reducer.
  { tool: 'animconv', label: 'no reduction', args: [] },
  { tool: 'glTF Transform', label: 'default (1e-4)', tolerance: 1e-4 },
  {
    tool: 'glTF Transform',
    label: `matched to 0.1° (${gltfTransformMatched.toPrecision(4)})`,
    tolerance: gltfTransformMatched,
  },
  { tool: 'animconv', label: 'default (0.1°, 0.1 mm, 1e-3, 1e-3)', args: ['--reduce'], reduceArgs: [] },
  {
    tool: 'animconv',
    label: `matched to 1e-4 (${(1e-4 * kDegreesPerComponent).toPrecision(5)}°, 1e-4)`,
    args: [
      `--reduce-rotation=${(1e-4 * kDegreesPerComponent).toPrecision(5)}`,
      '--reduce-translation=1e-4',
      '--reduce-scale=1e-4',
      '--reduce-weight=1e-4',
    ],
    reduceArgs: [
      '--rotation', (1e-4 * kDegreesPerComponent).toPrecision(5),
      '--translation', '1e-4', '--scale', '1e-4', '--weight', '1e-4',
    ],
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

function info(animconv, file) {
  const result = run(animconv, ['info', file, '--json']);
  if (result.status !== 0) return { error: result.stderr.trim().split('\n').pop() };
  const parsed = JSON.parse(result.stdout);
  const keys = parsed.clips.reduce((sum, clip) => sum + clip.keys, 0);
  return { keys, clips: parsed.clips.map((clip) => ({ name: clip.name, keys: clip.keys })) };
}

// The largest error per unit over every clip of `output` against the same clip of `input`, and
// the clips the output no longer has (ours drops a clip whose every channel is at the rest pose).
function worstErrors(animconv, input, output, clips, outputClips) {
  const worst = { deg: 0, m: 0, ratio: 0, weight: 0 };
  const dropped = [];
  for (const [index, { name: clip, keys }] of clips.entries()) {
    if (keys === 0) continue;  // an empty clip of the input: nothing to compare
    if (!outputClips.some((out) => out.name === clip)) {
      dropped.push(clip);
      continue;
    }
    const result = run(animconv, ['diff', input, output, '--clip', String(index), '--clip-b', clip, '--json']);
    if (result.status !== 0) throw new Error(`diff ${input} ${output} clip ${clip}: ${result.stderr}`);
    const diff = JSON.parse(result.stdout);
    for (const unit of Object.keys(worst)) worst[unit] = Math.max(worst[unit], diff.overall[unit].max);
  }
  return { worst, dropped };
}

// Our default tolerances in diff's units: a setting "stays within our bound" when its measured
// error does not exceed any of them.
const ourBound = { deg: 0.1, m: 1e-4, ratio: 1e-3, weight: 1e-3 };
const withinOurBound = (max) => Object.keys(ourBound).every((unit) => max[unit] <= ourBound[unit] * (1 + 1e-9));
// glTF Transform at error parity: the largest tolerance on this ladder (halving from the matched
// one) whose measured error stays within our bound on the file, i.e. the fewest keys it can keep
// without exceeding the error we allow.
const ladder = Array.from({ length: 7 }, (_, k) => gltfTransformMatched / 2 ** k);

function measure(input, before, setting, index, runs) {
  const name = basename(input);
  const output = join(options.out, `${name.replace(/\.[^.]+$/, '')}.${index}.glb`);
  const times = [];
  let last;
  for (let r = 0; r < runs; ++r) {
    last =
      setting.tool === 'animconv'
        ? run(options.animconv, ['-q', 'convert', input, '-o', output, ...setting.args])
        : run(process.execPath, [join(here, 'resample.mjs'), input, output, String(setting.tolerance)]);
    if (last.status !== 0) break;
    times.push(last.ms);
  }
  const row = {
    file: name,
    input_bytes: statSync(input).size,
    keys_before: before.keys,
    tool: setting.tool,
    setting: setting.label,
  };
  if (last.status !== 0) {
    const lines = last.stderr.trim().split('\n');
    row.error = lines.find((line) => /^\w*Error\b/.test(line)) ?? lines.at(-1);
    return row;
  }
  const after = info(options.animconv, output);
  if (after.error) {
    row.error = `animconv cannot read the output: ${after.error}`;
    return row;
  }
  row.keys_after = after.keys;
  row.output_bytes = statSync(output).size;
  const { worst, dropped } = worstErrors(options.animconv, input, output, before.clips, after.clips);
  row.max = worst;
  if (dropped.length > 0) row.dropped_clips = dropped;
  row.wall_ms = median(times);
  if (setting.tool === 'glTF Transform') {
    row.tolerance = setting.tolerance;
    row.resample_ms = JSON.parse(last.stdout.trim().split('\n').pop()).resample_ms;
  }
  if (setting.reduceArgs && options.timeReduce) {
    // The reducer alone on the asset as `convert` reads it: the first call (as glTF Transform's,
    // one per process) and the median of at least 5.
    const timed = run(options.timeReduce, [input, '--runs', String(Math.max(5, runs)), ...setting.reduceArgs]);
    if (timed.status !== 0) throw new Error(`${options.timeReduce} ${input}: ${timed.stderr}`);
    const reduce = JSON.parse(timed.stdout.trim());
    row.reduce_ms = reduce.reduce_ms;
    row.reduce_first_ms = reduce.reduce_first_ms;
  }
  return row;
}

function measureAt(input, before, tolerance, runs) {
  const setting = { tool: 'glTF Transform', tolerance, label: `within our bound (${tolerance.toPrecision(3)})` };
  return measure(input, before, setting, settings.length, runs);
}

const options = parseArguments(process.argv.slice(2));
mkdirSync(options.out, { recursive: true });
const results = [];
const skipped = [];
for (const input of options.files) {
  const name = basename(input);
  const before = info(options.animconv, input);
  if (before.error) {
    skipped.push({ file: name, reason: `animconv cannot read it: ${before.error}` });
    continue;
  }
  if (before.keys === 0) {
    skipped.push({ file: name, reason: 'no animation' });
    continue;
  }
  const rows = settings.map((setting, index) => measure(input, before, setting, index, options.runs));
  results.push(...rows);
  if (rows.some((row) => row.error)) continue;
  // Halve until the error is within our bound, then bisect (in log scale) 3 times between the
  // last failing and the first passing tolerance: within a factor 2^(1/8) of the largest.
  let pass;
  let fail;
  for (const tolerance of ladder) {
    const row = measureAt(input, before, tolerance, 1);
    if (row.error) break;
    if (withinOurBound(row.max)) {
      pass = tolerance;
      break;
    }
    fail = tolerance;
  }
  for (let step = 0; pass !== undefined && fail !== undefined && step < 3; ++step) {
    const tolerance = Math.sqrt(pass * fail);
    const row = measureAt(input, before, tolerance, 1);
    if (!row.error && withinOurBound(row.max)) pass = tolerance;
    else fail = tolerance;
  }
  const parity = pass === undefined ? undefined : measureAt(input, before, pass, options.runs);
  results.push(
    parity ?? { file: name, keys_before: before.keys, tool: 'glTF Transform', setting: 'within our bound', error: `none down to ${ladder.at(-1).toPrecision(3)}` },
  );
}

// Node's own start-up, which every glTF Transform run pays and a native CLI does not.
const nodeStart = median(Array.from({ length: options.runs }, () => run(process.execPath, ['-e', '']).ms));

// "reduce ms": glTF Transform's resample() as timed inside its process; for animconv, Reduce timed
// in process (--time-reduce: first call / median), else the median wall time of the run minus that
// of `convert` without reduction on the same file (an estimate: both medians carry the noise).
// Below the noise of two medians an estimate says nothing but "small".
function reduceColumn(row) {
  if (row.resample_ms !== undefined) return row.resample_ms.toFixed(1);
  if (row.reduce_ms !== undefined) return `${row.reduce_first_ms.toFixed(1)} / ${row.reduce_ms.toFixed(1)}`;
  if (row.reduce_ms_estimate === undefined) return '';
  return row.reduce_ms_estimate < 1 ? '< 1' : `≈ ${row.reduce_ms_estimate.toFixed(0)}`;
}

const fmt = (value, digits = 3) => (value === 0 ? '0' : value.toPrecision(digits));
console.log(
  '| file | tool | setting | keys in → out | bytes out | max deg | max mm | max scale | max weight | wall ms | reduce ms |',
);
console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of results) {
  if (row.error) {
    console.log(`| ${row.file} | ${row.tool} | ${row.setting} | failed: ${row.error} ||||||||`);
    continue;
  }
  const plain = results.find((r) => r.file === row.file && r.setting === 'no reduction' && !r.error);
  if (row.tool === 'animconv' && plain && row !== plain) row.reduce_ms_estimate = row.wall_ms - plain.wall_ms;
  const reduceMs = reduceColumn(row);
  console.log(
    `| ${row.file} | ${row.tool} | ${row.setting} | ${row.keys_before} → ${row.keys_after} | ${row.output_bytes} | ` +
      `${fmt(row.max.deg)} | ${fmt(row.max.m * 1000)} | ${fmt(row.max.ratio)} | ${fmt(row.max.weight)} | ` +
      `${row.wall_ms.toFixed(0)} | ${reduceMs} |` +
      (row.dropped_clips ? ` clips dropped: ${row.dropped_clips.join(', ')}` : ''),
  );
}
for (const skip of skipped) console.log(`skipped ${skip.file}: ${skip.reason}`);
console.log(`node start-up alone (node -e ''): ${nodeStart.toFixed(0)} ms median of ${options.runs}`);
if (options.json) writeFileSync(options.json, JSON.stringify({ results, skipped, node_start_ms: nodeStart }, null, 2));
