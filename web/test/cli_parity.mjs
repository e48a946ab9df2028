// The npm CLI (web/cli, `npx animconv`) against the native CLI (docs/web.md, "The npm CLI"): the
// same command lines, run in twin folders, must give the same exit code, the same stdout, the same
// stderr and the same files; Ctrl-C must leave no output and no temporary file behind. The only
// differences allowed are documented ones: `formats` lists no Assimp row, and a batch's wall time.
//
// Usage: node cli_parity.mjs --animconv BIN --package DIR --source ROOT
import {spawn, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  if (i < 0) throw new Error(`cli_parity: ${name} is required`);
  return path.resolve(args[i + 1]);
};
const animconv = option('--animconv');
const bin = path.join(option('--package'), 'cli', 'main.mjs');
const source = option('--source');
const data = (name) => path.join(source, 'data', name);
const bad = (name) => path.join(source, 'tests', 'bad', name);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'animconv-cli-parity-'));
const failures = [];
let compared = 0;

// Every file under `dir`, by relative name.
function tree(dir) {
  const files = {};
  if (!fs.existsSync(dir)) return files;
  for (const entry of fs.readdirSync(dir, {withFileTypes: true, recursive: true})) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath ?? entry.path, entry.name);
    files[path.relative(dir, full)] = fs.readFileSync(full);
  }
  return files;
}

function runIn(folder, command, argv) {
  fs.mkdirSync(folder, {recursive: true});
  const result = spawnSync(command[0], [...command.slice(1), ...argv],
                           {cwd: folder, encoding: 'utf8', maxBuffer: 1 << 28});
  return {status: result.status, signal: result.signal, stdout: result.stdout,
          stderr: result.stderr, files: tree(folder)};
}

// A batch summary ends in its wall time, which no two runs share.
const normalise = (text) => text.replace(/ not started in \d+\.\d\d s$/m, ' not started in T s');

// `argv` run by both CLIs in fresh twin folders; `expect(native)` optionally checks the native
// run is the case it claims to be (an error, a file written).
function same(label, argv, {expectStatus, transformNative = (x) => x} = {}) {
  const folder = path.join(tmp, String(++compared));
  const native = runIn(path.join(folder, 'native'), [animconv], argv);
  const npm = runIn(path.join(folder, 'npm'), [process.execPath, bin], argv);
  const problems = [];
  if (expectStatus !== undefined && native.status !== expectStatus) {
    problems.push(`the native CLI exits ${native.status}, the case expects ${expectStatus}`);
  }
  const n = {...native, stdout: transformNative(native.stdout)};
  if (n.status !== npm.status) problems.push(`exit ${n.status} (native) vs ${npm.status} (npm)`);
  for (const stream of ['stdout', 'stderr']) {
    if (normalise(n[stream]) !== normalise(npm[stream])) {
      problems.push(`${stream} differs:\n--- native\n${n[stream]}\n--- npm\n${npm[stream]}`);
    }
  }
  const names = new Set([...Object.keys(n.files), ...Object.keys(npm.files)]);
  for (const name of names) {
    if (!n.files[name] || !npm.files[name] || !n.files[name].equals(npm.files[name])) {
      const what = !n.files[name] ? 'only npm wrote' : !npm.files[name] ? 'only native wrote'
                                                                        : 'bytes differ:';
      // A batch report holds timings: equal but for those.
      const untimed = (bytes) => bytes.toString().replace(/"(wall_)?seconds": [\d.e+-]+/g, '"$1seconds": T');
      if (name.endsWith('report.json') && n.files[name] && npm.files[name] &&
          untimed(n.files[name]) === untimed(npm.files[name])) continue;
      problems.push(`${what} ${name}`);
    }
  }
  if (problems.length > 0) failures.push(`${label}: animconv ${argv.join(' ')}\n  ${problems.join('\n  ')}`);
}

// The command lines: help and usage, every command, the errors Boost reports, bad input.
same('usage', [], {expectStatus: 1});
same('help', ['--help'], {expectStatus: 0});
same('version', ['--version'], {expectStatus: 0});
for (const command of ['convert', 'info', 'batch', 'bake', 'bones', 'diff', 'preview']) {
  same(`${command} help`, [command, '--help'], {expectStatus: 0});
}
same('unknown command', ['frobnicate'], {expectStatus: 1});
// preview: the page itself is compared byte for byte by web/app/test/preview_test.mjs.
same('preview without -o', ['preview', 'walk.csv'], {expectStatus: 1});
same('preview missing input', ['preview', 'nope.csv', '-o', 'page.html'], {expectStatus: 3});
same('preview bad choice', ['preview', 'nope.csv', '-o', 'page.html', '--to', 'csv', '--mirror', 'y'],
     {expectStatus: 1});
// The web build has no Assimp (docs/web.md): its table is the native one without that row.
same('formats', ['formats'], {
  expectStatus: 0,
  transformNative: (text) => text.split('\n').filter((line) => !line.startsWith('assimp ')).join('\n'),
});
same('formats args', ['formats', 'x'], {expectStatus: 1});
same('bones table', ['bones'], {expectStatus: 0});
same('bones columns', ['bones', '--from', 'mixamo', '--to', 'vrm0'], {expectStatus: 0});
same('bones translate', ['bones', 'Hips', 'mixamorig:LeftArm', 'leftUpperLeg'], {expectStatus: 0});
same('bones ambiguous', ['bones', 'leftThumbProximal'], {expectStatus: 1});
same('bones unknown', ['bones', 'Tail'], {expectStatus: 2});
same('bones bad naming', ['bones', '--to', 'maya', 'Hips'], {expectStatus: 1});

const walk = data('unity/walk.csv');
same('convert vrma', ['convert', walk, '-o', 'walk.vrma'], {expectStatus: 0});
same('convert options', ['convert', walk, '-o', 'walk.json', '--fps', '30', '--reduce',
                         '--mirror', 'x', '--trim', '0.5:', '--speed=2'], {expectStatus: 0});
same('convert abbreviated', ['convert', walk, '--out=w.json', '--reduce-hier', '--bone-n',
                             'mixamo'], {expectStatus: 0});
same('convert sticky short', ['convert', walk, '-ow.bvh', '-v'], {expectStatus: 1});
same('convert verbose', ['-v', 'convert', walk, '-o', 'walk.glb'], {expectStatus: 0});
same('convert quiet', ['-q', 'convert', walk, '-o', 'walk.unity.csv', '--precision', '3'],
     {expectStatus: 0});
same('convert skeleton', ['convert', walk, '-o', 'avatar.json', '--skeleton',
                          path.join(source, '..', 'shared', 'data', 'vrm',
                                    'vrmaddon_skinned_mesh_parent_vrm1.vrm')]);
same('convert gltf morph', ['convert', data('gltf/morph_cube.gltf'), '-o', 'cube.json'],
     {expectStatus: 0});
same('convert bvh', ['convert', data('bvh/cmu_walk.bvh'), '-o', 'walk.vrma', '--ground']);
for (const [label, argv] of [
  ['missing output', ['convert', walk]],
  ['missing value', ['convert', walk, '-o']],
  ['twice', ['convert', walk, '-o', 'a.json', '-o', 'b.json']],
  ['unknown option', ['convert', walk, '-o', 'a.json', '--bogus']],
  ['ambiguous', ['convert', walk, '-o', 'a.json', '--re']],
  ['too many inputs', ['convert', walk, walk, '-o', 'a.json']],
  ['missing input', ['convert', '-o', 'a.json']],
  ['invalid number', ['convert', walk, '-o', 'a.json', '--speed', 'abc']],
  ['empty after =', ['convert', walk, '-o', 'a.json', '--speed=']],
  ['switch with value', ['convert', walk, '-o', 'a.json', '--reduce=1']],
  ['hex number', ['convert', walk, '-o', 'a.json', '--offset', '0x1']],
  ['not whole', ['convert', walk, '-o', 'a.json', '--precision', '1.5']],
  ['range', ['convert', walk, '-o', 'a.json', '--precision', '18']],
  ['checked value', ['convert', walk, '-o', 'a.json', '--speed', '-1']],
  ['loop-blend alone', ['convert', walk, '-o', 'a.json', '--loop-blend', '0.2']],
  ['no such input', ['convert', 'nothere.csv', '-o', 'a.json']],
  ['no such folder', ['convert', walk, '-o', 'missing/a.json']],
  ['unknown format', ['convert', walk, '-o', 'a.xyz']],
]) {
  same(label, argv, {expectStatus: label === 'no such input' || label === 'no such folder' ? 3 : undefined});
}
// An implicit value takes the next word unless it looks like an option, as Boost does.
same('implicit value taken', ['convert', walk, '-o', 'a.json', '--reduce-hierarchical', '0.3']);
same('implicit value eats input', ['convert', '--reduce-hierarchical', walk, '-o', 'a.json']);
same('implicit value before option', ['convert', walk, '--reduce-hierarchical', '-0.3', '-o', 'a.json']);
same('value may look like option', ['convert', walk, '-o', 'a.json', '--offset', '-0.5']);
// Numbers as Boost's lexical_cast reads them (web/src/option_json.cpp, ParseRealText).
for (const text of ['.5', '1.', '+0.25', '1e-400', '2.5E-1', 'inf', 'NaN', 'nan(1)', '-', '1e', '1x',
                    ' 1', '0x1p3']) {
  same(`offset ${text}`, ['convert', walk, '-o', 'a.json', '--offset', text]);
}
for (const text of ['+3', '-1', '3.0', '99999999999999999999']) {
  same(`max-input-mb ${text}`, ['convert', walk, '-o', 'a.json', '--max-input-mb', text]);
}
// The bad-input corpus: a few of each kind of located error (tests/bad/cases.txt has them all,
// through the API, in parity.mjs).
for (const name of ['csv/empty_time_cell.csv', 'three/deep_nesting.json', 'gltf/deep_nesting_extras.gltf', 'gltf/node_cycle.gltf']) {
  if (fs.existsSync(bad(name))) same(`bad ${name}`, ['convert', bad(name), '-o', 'out.json']);
}

same('info text', ['info', walk], {expectStatus: 0});
same('info json', ['info', walk, '--json'], {expectStatus: 0});
same('info glb', ['info', data('gltf/morph_cube.gltf')], {expectStatus: 0});
same('info bones file', ['info', data('unity/anim.csv'), '--bones', data('unity/bone.txt')]);
same('diff text', ['diff', walk, data('unity/anim.csv'), '--bones', data('unity/bone.txt'), '--top', '3']);
same('diff self', ['diff', walk, walk], {expectStatus: 0});
same('diff json', ['diff', walk, walk, '--json', '--hierarchical', '0.1'], {expectStatus: 0});
same('diff one input', ['diff', walk], {expectStatus: 1});
same('bake', ['bake', data('gltf/morph_cube.gltf'), '-o', 'frames.json', '--fps', '2.5'],
     {expectStatus: 0});
same('bake bad fps', ['bake', data('gltf/morph_cube.gltf'), '-o', 'frames.json', '--fps', '0'],
     {expectStatus: 1});
// One job, so the native CLI reports the files in plan order too.
same('batch', ['batch', data('unity'), data('gltf/morph_cube.gltf'), '-o', 'out', '--to', 'three',
               '--report', 'report.json', '-j', '1']);
same('batch quiet', ['-q', 'batch', data('unity'), '-o', 'out', '--to', 'vrma', '-j1']);
same('batch failure', ['batch', walk, bad('csv/empty_time_cell.csv'), '-o', 'out', '--to', 'csv',
                       '-j', '1']);
same('batch jobs', ['batch', walk, '-o', 'out', '--to', 'three', '-j', 'two'], {expectStatus: 1});
same('batch usage', ['batch', '-o', 'out', '--to', 'three'], {expectStatus: 1});
same('batch both', ['batch', walk, '-o', 'out', '--to', 'three', '--overwrite', '--skip-existing'],
     {expectStatus: 1});

// Ctrl-C half a second into a conversion of a 98 MB CSV (a few seconds; 49 MB ended within the
// first second once the build got faster): the process dies by the signal, as the native one
// does, and leaves neither the output nor a temporary file (docs/reliability.md).
async function interrupted() {
  const folder = path.join(tmp, 'interrupt');
  fs.mkdirSync(folder);
  const rows = fs.readFileSync(walk, 'utf8').trimEnd().split('\n');
  const big = path.join(folder, 'big.csv');
  fs.writeFileSync(big, Array.from({length: 1200}, () => rows.join('\n')).join('\n') + '\n');  // 98 MB
  const child = spawn(process.execPath, [bin, 'convert', big, '-o', 'big.json', '--reduce'],
                      {cwd: folder, stdio: 'ignore'});
  const exited = new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])));
  const early = await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 500))]);
  if (early) {
    failures.push(`interrupt: the conversion ended (exit ${early[0]}) before the signal; make big.csv larger`);
    return;
  }
  const killedAt = Date.now();
  child.kill('SIGINT');
  // A process that ignores the signal must fail the test, not hang it.
  const watchdog = setTimeout(() => child.kill('SIGKILL'), 30000);
  const [code, signal] = await exited;
  clearTimeout(watchdog);
  const left = fs.readdirSync(folder).filter((name) => name !== 'big.csv');
  if (signal !== 'SIGINT' || left.length > 0) {
    failures.push(`interrupt: exit ${code} signal ${signal}, left ${left.join(', ') || 'nothing'}`);
  } else {
    console.log(`cli_parity: Ctrl-C ended the conversion in ${Date.now() - killedAt} ms, nothing left`);
  }
}
await interrupted();

fs.rmSync(tmp, {recursive: true, force: true});
if (failures.length > 0) {
  console.error(failures.join('\n\n'));
  console.error(`cli_parity: ${failures.length} of ${compared} command lines differ`);
  process.exit(1);
}
console.log(`cli_parity: ${compared} command lines give the same exit code, stdout, stderr and files`);
