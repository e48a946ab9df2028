// The exit-0 sweep (docs/testing.md, "The exit-0 sweep"): one input file × every format animconv
// writes. The rule it enforces is the project's first one: exit 0 means the motion is right. For
// every conversion that exits 0, `animconv diff --json` compares every clip of the output with the
// same clip of the input; a channel whose error is over the stated tolerance (the --reduce
// defaults: 0.1°, 0.1 mm, 0.1 % scale, 0.001 weight) must be named by a warning of that
// conversion, a clip the output lost must be warned about, and `diff` must be able to compare the
// two at all. A conversion that fails must leave no output file.
//
// Cases that break the rule today are listed in pending.txt with the reason; they are reported,
// not failed, and a listed case that now passes fails the test so the list only shrinks.
//
// Usage: node sweep.mjs --animconv BIN --out DIR --pending FILE --source ROOT
//            [--convert-option "OPTIONS"]... INPUT
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  if (i < 0 || i + 1 >= args.length) throw new Error(`sweep: ${name} is required`);
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
};
const animconv = option('--animconv');
const outDir = option('--out');
const pendingFile = option('--pending');
const sourceRoot = option('--source');
// Extra `convert` options for every conversion (e.g. --resample 30): the rule holds for them too.
// The formats that write no rest pose: a clip retargeted onto a --skeleton model plays on it.
const CLIP_ONLY_FORMATS = new Set(['three', 'csv', 'unity-csv']);
const convertOptions = [];
while (args.includes('--convert-option')) convertOptions.push(...option('--convert-option').split(' '));
if (args.length !== 1) throw new Error('sweep: exactly one INPUT expected');
const input = args[0];

// The tolerances `animconv diff` and --reduce state (include/animconv/reduce.h, docs/cli.md).
const TOLERANCE = { deg: 0.1, m: 1e-4, ratio: 1e-3, weight: 1e-3 };
const DURATION_TOLERANCE_SECONDS = 1e-4;
// Every format with a writer (`animconv formats`), and the extension each is written with.
const FORMATS = {
  csv: 'csv', 'unity-csv': 'unity.csv', gltf: 'gltf', vrma: 'vrma', glb: 'glb',
  three: 'json', 'three-hierarchy': 'hierarchy.json', bvh: 'bvh',
};
// A multi-clip input into a single-clip format is converted clip by clip, up to this many.
const MAX_CLIPS_PER_INPUT = 4;

// The input's name in messages and in pending.txt: relative to the project root, so
// ../shared/data/... for the shared samples.
const inputName = path.relative(sourceRoot, path.resolve(input)).split(path.sep).join('/');
const key = (inputName + convertOptions.join('')).replace(/[^A-Za-z0-9]+/g, '_');
fs.mkdirSync(outDir, { recursive: true });

function run(argv) {
  const result = spawnSync(animconv, argv, { encoding: 'utf8', maxBuffer: 256 << 20 });
  if (result.error) throw result.error;
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

function readPending() {
  const pending = new Map();
  if (!fs.existsSync(pendingFile)) return pending;
  for (const raw of fs.readFileSync(pendingFile, 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [file, format, ...reason] = line.split('|').map((s) => s.trim());
    pending.set(`${file}|${format}`, reason.join('|'));
  }
  return pending;
}

function clipNames(file) {
  const info = run(['info', '--json', file]);
  if (info.status !== 0) return null;
  return JSON.parse(info.stdout).clips.map((clip) => clip.name);
}

const warningsOf = (stderr) => stderr.split('\n').filter((line) => line.includes('warning:'));

// A channel over the tolerance is excused when a warning names its node (either side's name), or
// when a warning states a measured bound in its unit ("plays up to 12.7 deg off", "max error
// 0.049 deg") that its error does not exceed: that warning told the user how far off the output
// plays (warnings print 3 significant digits, hence the 1 % slack).
// In world space (diff compared two rigs) a local bound does not cap a node's error, which
// gathers its parents' too: any stated bound in the unit then counts as the warning.
function excused(channel, warnings, world) {
  // An empty name (a three.js clip's track on the mixer's root) is named as the CLI quotes it.
  const names = [channel.node, channel.node_b]
    .filter((n) => typeof n === 'string')
    .map((n) => (n === '' ? "''" : n));
  if (warnings.some((w) => names.some((n) => w.includes(n)))) return true;
  for (const w of warnings) {
    if (!/up to|max error/.test(w)) continue;
    for (const m of w.matchAll(/(\d[\d.e+-]*) (deg|m|ratio|weight)\b/g)) {
      if (m[2] === channel.unit && (world || channel.max <= Number(m[1]) * 1.01)) return true;
    }
  }
  return false;
}

// Checks one conversion; returns the problems found (empty: the rule holds).
// A BVH file's Frame Time in seconds.
function bvhFrameTime(file) {
  const match = /Frame Time:\s*([0-9.eE+-]+)/.exec(fs.readFileSync(file, 'utf8'));
  return match ? Number(match[1]) : 0;
}

function checkConversion(format, clipIndex, sourceClips) {
  const suffix = clipIndex === undefined ? '' : `.clip${clipIndex}`;
  const output = path.join(outDir, `${key}${suffix}.${FORMATS[format]}`);
  fs.rmSync(output, { force: true });
  const argv = ['convert', input, '-o', output, '--to', format, ...convertOptions];
  if (clipIndex !== undefined) argv.push('--clip', String(clipIndex));
  const converted = run(argv);
  const label = `${format}${suffix}`;
  if (converted.signal) return { label, problems: [`convert died by ${converted.signal}`] };
  if (converted.status !== 0) {
    if (fs.existsSync(output)) return { label, problems: [`exit ${converted.status} but ${output} exists`] };
    const severalClips = /several clips|--clip/.test(converted.stderr);
    return { label, problems: [], failed: converted.status, retryPerClip: severalClips };
  }
  const warnings = warningsOf(converted.stderr);
  // --ground moves a clip's hips up or down by the shift its note states (docs/root_motion.md,
  // "Grounding"): a translation off by that, at every sample (max and p99 within the metre
  // tolerance of it), is the shift asked for. Off by anything else it is not: a rig without a rest
  // pose was once grounded on joints that all stood at the origin, its note said 0 m and its hips
  // were put at y = 0.
  // Retargeted, `diff` measures the output's hips translation back on the input's scale, where
  // the shift is the one stated divided by the hips scale the retarget note states.
  const hipsScale = /hips translation scaled by ([0-9.]+)/.exec(converted.stderr);
  const groundShift = new Map();
  for (const m of converted.stderr.matchAll(/--ground: clip '(.*)': the lowest foot point was .* the hips moved (?:up|down) ([0-9.]+) m/g)) {
    groundShift.set(m[1], Number(m[2]) / (hipsScale ? Number(hipsScale[1]) : 1));
  }
  const problems = [];
  const outputClips = clipNames(output);
  if (outputClips === null) return { label, problems: [`exit 0 but info cannot read ${output}`] };
  const wanted = clipIndex === undefined ? sourceClips : [sourceClips[clipIndex]];
  for (const [index, clip] of wanted.entries()) {
    const inOutput = outputClips.includes(clip) ? clip : (outputClips.length === wanted.length ? String(index) : null);
    if (inOutput === null) {
      if (!warnings.some((w) => w.includes(clip))) problems.push(`clip '${clip}' is not in the output and no warning names it`);
      continue;
    }
    const diffArgs = ['diff', '--json', input, output, '--clip', clipIndex === undefined ? String(index) : String(clipIndex), '--clip-b', inOutput];
    // A Unity CSV holds no times: read it back at the rate the writer said to (its warning names
    // the option), so the sweep checks that advice rather than diff's fitting of the rows.
    const rate = warnings.map((w) => /read it back with --fps (\S+)/.exec(w)).find((m) => m);
    if (rate) diffArgs.push('--fps', rate[1]);
    // Retargeted onto --skeleton MODEL into a format without a rest pose (three.js JSON, CSV):
    // the clip plays on MODEL's, which diff is given as a player would have it.
    const skeleton = convertOptions.indexOf('--skeleton');
    if (skeleton >= 0 && CLIP_ONLY_FORMATS.has(format)) {
      diffArgs.push('--skeleton-b', convertOptions[skeleton + 1]);
    }
    const diff = run(diffArgs);
    if (diff.status !== 0) {
      problems.push(`clip '${clip}': diff cannot compare (exit ${diff.status}): ${diff.stderr.trim().split('\n').pop()}`);
      continue;
    }
    const result = JSON.parse(diff.stdout);
    // The clip's length is part of its motion: a looping player starts over at it. A three.js
    // clip holding its last pose past its last key lost that hold in .glb and CSV (review of
    // session 35: 90° off in every loop, exit 0, only diff's duration line said so).
    // Formats on a grid (BVH frames, Unity CSV rows) end on a whole frame: up to one frame longer.
    const lengthened = result.duration_difference_seconds ?? 0;
    const frame = format === 'bvh' ? bvhFrameTime(output) : rate ? 1 / Number(rate[1]) : 0;
    const allowed = DURATION_TOLERANCE_SECONDS + (lengthened > 0 ? frame : 0);
    if (Math.abs(lengthened) > allowed && !warnings.some((w) => /duration|lasts/.test(w))) {
      problems.push(`clip '${clip}': the output lasts ${lengthened > 0 ? '+' : ''}${lengthened.toPrecision(4)} s longer, no warning names it`);
    }
    for (const channel of result.channels) {
      const world = result.space && result.space.name === 'world';
      if (channel.max <= TOLERANCE[channel.unit] || excused(channel, warnings, world)) continue;
      const shift = groundShift.get(clip);
      if (shift !== undefined && channel.path === 'translation' && channel.unit === 'm' &&
          Math.abs(channel.max - shift) <= TOLERANCE.m && Math.abs(channel.p99 - shift) <= TOLERANCE.m) {
        continue;
      }
      const side = channel.only_in_a ? ' (only in the input)' : channel.only_in_b ? ' (only in the output)' : '';
      problems.push(`clip '${clip}': ${channel.node}${channel.node_b && channel.node_b !== channel.node ? `->${channel.node_b}` : ''}.${channel.path}${side} off by ${channel.max.toPrecision(4)} ${channel.unit} at ${channel.time_of_max_seconds} s, no warning names it`);
    }
  }
  return { label, problems, warnings };
}

const pending = readPending();
const sourceClips = clipNames(input);
let failures = 0;
let checked = 0;
const report = [];
for (const format of Object.keys(FORMATS)) {
  const results = [];
  if (sourceClips === null) {
    results.push(checkConversion(format, undefined, []));
  } else {
    const whole = checkConversion(format, undefined, sourceClips);
    results.push(whole);
    if (whole.retryPerClip && sourceClips.length > 1) {
      for (let c = 0; c < Math.min(sourceClips.length, MAX_CLIPS_PER_INPUT); ++c) {
        results.push(checkConversion(format, c, sourceClips));
      }
    }
  }
  const problems = results.flatMap((r) => r.problems.map((p) => `${r.label}: ${p}`));
  checked += results.length;
  const pendingReason = pending.get(`${inputName}${convertOptions.length ? ` ${convertOptions.join(' ')}` : ''}|${format}`);
  if (pendingReason !== undefined) {
    if (problems.length === 0) {
      ++failures;
      report.push(`FIXED ${inputName} -> ${format}: passes now; remove its line from ${path.basename(pendingFile)}`);
    } else {
      report.push(`pending ${inputName} -> ${format} (${pendingReason}):\n    ${problems.slice(0, 3).join('\n    ')}`);
    }
  } else if (problems.length > 0) {
    ++failures;
    report.push(`FAIL ${inputName} -> ${format}:\n    ${problems.slice(0, 8).join('\n    ')}${problems.length > 8 ? `\n    ... and ${problems.length - 8} more` : ''}`);
  } else {
    const outcome = results.map((r) => (r.failed ? `${r.label} exit ${r.failed}` : `${r.label} ok${r.warnings && r.warnings.length ? ` (${r.warnings.length} warning(s))` : ''}`));
    report.push(`ok ${inputName} -> ${outcome.join(', ')}`);
  }
}
console.log(report.join('\n'));
console.log(`sweep: ${inputName}: ${checked} conversion(s), ${failures} failure(s)`);
process.exit(failures === 0 ? 0 : 1);
