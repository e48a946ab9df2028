// The main job beside the seed article's pipeline (issue 18, docs/performance.md "Against the seed
// pipeline"): the same Unity CSV to a three.js clip JSON by bench/seed_pipeline.mjs in a fresh
// Node process and by `animconv convert IN -o OUT.json`, alternately, each timed by the wall clock
// and its CPU time. Both outputs are loaded back with AnimationClip.parse once, to check that
// both hold every bone's track with one key per row.
//
// Usage: node bench/seed_vs_animconv.mjs --animconv BIN --input FILE.csv [--bones bone.txt]
//          [--interval 0.008333333333333333] [--three DIR] [--runs N (5)] [--to json|glb|vrma]
// --to: what animconv writes (item 1 asks for three.js JSON, and GLB and VRMA too); the seed
// pipeline always writes its three.js JSON. Only JSON outputs are read back with three.js here
// (the GLB and VRMA writers have their own interop tests).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { optionReader } from '../web/test/args.mjs';
import { median, ms, timedProcess } from './process_timing.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const option = optionReader('seed_vs_animconv');
const animconv = path.resolve(option('--animconv'));
const input = path.resolve(option('--input'));
const bones = path.resolve(option('--bones', path.join(here, '..', 'data', 'unity', 'bone.txt')));
const interval = option('--interval', String(1 / 120));
const threeDir = path.resolve(option('--three', path.join(here, '..', 'tests', 'interop', 'node_modules', 'three', 'build')));
const runs = Number(option('--runs', '5'));
const to = option('--to', 'json');
if (!['json', 'glb', 'vrma'].includes(to)) throw new Error(`seed_vs_animconv: --to ${to}: json, glb or vrma`);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'animconv-seed-'));
const timeFile = path.join(tmp, 'time.txt');
const seedOut = path.join(tmp, 'seed.json');
const oursOut = path.join(tmp, `animconv.${to}`);

const runSeed = () => timedProcess(process.execPath, [path.join(here, 'seed_pipeline.mjs'), threeDir, input, bones, interval, seedOut],
                                   'seed_pipeline.mjs', timeFile);
const runOurs = () => timedProcess(animconv, ['convert', input, '-o', oursOut, '--interval', interval], 'animconv', timeFile);

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`input: ${input} (${fs.statSync(input).size} bytes); ${os.cpus().length} CPUs; load average ${load()}`);
const rows = [];
for (let pair = 0; pair < runs; pair++) {
  const row = {};
  for (const side of pair % 2 === 0 ? ['seed', 'ours'] : ['ours', 'seed']) row[side] = side === 'seed' ? runSeed() : runOurs();
  rows.push(row);
  console.log(`pair ${pair + 1}: seed ${ms(row.seed.time)} / ${ms(row.seed.cpu)} CPU, animconv ${ms(row.ours.time)} / ` +
              `${ms(row.ours.cpu)} CPU: ${(row.seed.time / row.ours.time).toFixed(1)}× wall, ` +
              `${(row.seed.cpu / row.ours.cpu).toFixed(1)}× CPU; load ${load()}`);
}

// Both outputs as three.js reads them.
const THREE = await import(pathToFileURL(path.join(threeDir, 'three.module.js')).href);
const rowsIn = fs.readFileSync(input, 'utf8').trim().split('\n').length;
if (to !== 'json') console.log(`animconv: ${fs.statSync(oursOut).size} bytes of ${to}`);
for (const [what, file] of to === 'json' ? [['seed', seedOut], ['animconv', oursOut]] : [['seed', seedOut]]) {
  const clip = THREE.AnimationClip.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  const keys = new Set(clip.tracks.map((t) => t.times.length));
  console.log(`${what}: ${fs.statSync(file).size} bytes, ${clip.tracks.length} tracks, keys per track ${[...keys].join('/')} ` +
              `(${rowsIn} rows), ${clip.duration.toFixed(3)} s`);
}
const ratio = (key) => median(rows.map((r) => r.seed[key] / r.ours[key]));
console.log(`medians over ${runs} pairs: seed wall ${ms(median(rows.map((r) => r.seed.time)))}, CPU ${ms(median(rows.map((r) => r.seed.cpu)))}; ` +
            `animconv wall ${ms(median(rows.map((r) => r.ours.time)))}, CPU ${ms(median(rows.map((r) => r.ours.cpu)))}; ` +
            `animconv is ${ratio('time').toFixed(1)}× faster by the wall clock, ${ratio('cpu').toFixed(1)}× by CPU time`);
fs.rmSync(tmp, { recursive: true, force: true });
