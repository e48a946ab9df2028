// The JavaScript layer's own behaviour (web/index.js), which has no CLI counterpart to compare
// with: input checks, the default output name, camelCase option names, files handed as options,
// notes and warnings, formats(); and bake(), batch(), bones() and preview(), whose outputs must be the native
// CLI's. Usage: node api_test.mjs --package DIR --source ROOT --animconv NATIVE
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const packageDir = path.resolve(args[args.indexOf('--package') + 1]);
const sourceRoot = path.resolve(args[args.indexOf('--source') + 1]);
const animconv = path.resolve(args[args.indexOf('--animconv') + 1]);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'animconv-api-'));
const native = (...argv) => execFileSync(animconv, ['-q', ...argv], { cwd: tmp, encoding: 'utf8' });
const api = await import(pathToFileURL(path.join(packageDir, 'index.js')).href);
const read = (p) => new Uint8Array(fs.readFileSync(path.join(sourceRoot, p)));
const walk = { name: 'walk.csv', bytes: read('data/unity/walk.csv') };

async function rejects(promise, kind, fragment) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof api.AnimconvError, `${error}`);
    assert.equal(error.kind, kind);
    assert.equal(error.exitCode, { usage: 1, 'bad-input': 2, io: 3, internal: 4 }[kind]);
    assert.ok(error.message.includes(fragment), error.message);
    return true;
  });
}

// Inputs must be named, relative, with Uint8Array bytes.
await rejects(api.convert({ name: 'walk.csv', bytes: 'text' }, { to: 'three' }), 'usage', 'Uint8Array');
await rejects(api.convert({ ...walk, name: '../walk.csv' }, { to: 'three' }), 'usage', "'..' parts");
await rejects(api.convert({ ...walk, name: '/walk.csv' }, { to: 'three' }), 'usage', 'relative name');
await rejects(api.convert(walk, {}), 'usage', 'convert needs `to`');
await rejects(api.convert(walk, { to: 'three', nope: 1 }), 'usage', "unrecognised option '--nope'");

// Default output name: the input's stem with the format's first extension; `output` wins.
assert.deepEqual((await api.convert(walk, { to: 'three-hierarchy' })).files.map((f) => f.name), ['walk.hierarchy.json']);
assert.deepEqual((await api.convert(walk, { output: 'x.bvh' })).files.map((f) => f.name), ['x.bvh']);
const roundTrip = await api.convert({ name: 'walk.unity.csv', bytes: walk.bytes }, { to: 'unity-csv' });
assert.equal(roundTrip.files[0].name, 'walk.unity.csv');
assert.equal(roundTrip.output_format, 'unity-csv');

// camelCase and CLI spellings are one option; a file option may be the file itself.
const camel = await api.convert(walk, { to: 'three', boneNames: 'mixamo', threeArray: true });
const kebab = await api.convert(walk, { to: 'three', 'bone-names': 'mixamo', 'three-array': true });
assert.deepEqual(camel.files[0].bytes, kebab.files[0].bytes);
const bones = { name: 'bone.txt', bytes: read('data/unity/bone.txt') };
const anim = { name: 'anim.csv', bytes: read('data/unity/anim.csv') };
const byName = await api.convert({ ...anim, files: [bones] }, { to: 'three', bones: 'bone.txt' });
const byFile = await api.convert(anim, { to: 'three', bones });
assert.deepEqual(byName.files[0].bytes, byFile.files[0].bytes);
await rejects(api.convert(anim, { to: 'three', bones: 'bone.txt' }), 'io', 'bone.txt');

// Notes and warnings are the diagnostics by severity.
const converted = await api.convert(walk, { to: 'vrma' });
assert.deepEqual(converted.notes, converted.diagnostics.filter((d) => d.severity === 'info').map((d) => d.text));
assert.ok(converted.notes.length > 0);

// formats() has no Assimp, and a copy is handed out each time.
const list = await api.formats();
assert.ok(!list.some((f) => f.id === 'assimp'));
list[0].extensions.push('.mutated');
assert.ok(!(await api.formats())[0].extensions.includes('.mutated'));
// bake(): the native bake's bytes; the default name is the input's stem + .frames.json.
const cube = { name: 'morph_cube.gltf', bytes: read('data/gltf/morph_cube.gltf') };
const baked = await api.bake(cube, { fps: 2.5 });
native('bake', path.join(sourceRoot, 'data/gltf/morph_cube.gltf'), '-o', 'frames.json', '--fps', '2.5');
assert.equal(baked.files[0].name, 'morph_cube.frames.json');
assert.deepEqual(Buffer.from(baked.files[0].bytes), fs.readFileSync(path.join(tmp, 'frames.json')));
assert.equal(baked.frames, 6);
await rejects(api.bake(cube, { fps: 0 }), 'usage', '--fps must be a positive number');
await rejects(api.bake(walk, {}), 'usage', '');

// batch(): every output the native batch writes, under the same names; a failed file is a
// result, not an exception.
const badCsv = { name: 'bad/empty_time_cell.csv', bytes: read('tests/bad/csv/empty_time_cell.csv') };
const batched = await api.batch([walk, anim, badCsv], { to: 'three', jobs: 4 });
assert.deepEqual(batched.results.map((r) => r.status), ['converted', 'converted', 'failed']);
assert.ok(batched.results[2].message.includes('bad/empty_time_cell.csv:'), batched.results[2].message);
fs.copyFileSync(path.join(sourceRoot, 'data/unity/walk.csv'), path.join(tmp, 'walk.csv'));
fs.copyFileSync(path.join(sourceRoot, 'data/unity/anim.csv'), path.join(tmp, 'anim.csv'));
native('batch', 'walk.csv', 'anim.csv', '-o', 'batch', '--to', 'three');
assert.deepEqual(batched.files.map((f) => f.name).sort(), ['anim.json', 'walk.json']);
for (const file of batched.files) {
  assert.deepEqual(Buffer.from(file.bytes), fs.readFileSync(path.join(tmp, 'batch', file.name)));
}
await rejects(api.batch([], { to: 'three' }), 'usage', 'give at least one input');

// bones(): the native tables and translations.
assert.equal((await api.bones()).text, native('bones'));
assert.equal((await api.bones(['Hips', 'mixamorig:LeftArm'], { to: 'unity' })).text,
             native('bones', '--to', 'unity', 'Hips', 'mixamorig:LeftArm'));
await rejects(api.bones(['Tail']), 'bad-input', "'Tail' is not a humanoid bone name");

// info() and diff() also give the CLI's text reports.
assert.equal((await api.info(walk)).text.split('\n')[0], 'walk.csv: unity-csv, 81294 bytes');
// preview(): the native `animconv preview` page byte for byte (same names: the native CLI runs
// in a folder holding walk.csv and the model, as the API's in-memory folder does), the model as
// {name, bytes}; the default page name is the input's stem + .html.
const vrmPath = path.join(sourceRoot, '..', 'shared', 'data', 'vrm', 'vrmaddon_skinned_mesh_parent_vrm1.vrm');
if (fs.existsSync(vrmPath)) {
  const model = { name: 'avatar.vrm', bytes: new Uint8Array(fs.readFileSync(vrmPath)) };
  fs.writeFileSync(path.join(tmp, 'walk.csv'), walk.bytes);
  fs.writeFileSync(path.join(tmp, 'avatar.vrm'), model.bytes);
  const page = await api.preview(walk, { model, ground: true });
  native('preview', 'walk.csv', '--model', 'avatar.vrm', '--ground', '-o', 'page.html',
         '--viewer', path.join(packageDir, 'dist', 'animconv_viewer.html'));
  assert.equal(page.files[0].name, 'walk.html');
  assert.equal(page.show, 'vrma-on-vrm');
  assert.deepEqual(Buffer.from(page.files[0].bytes), fs.readFileSync(path.join(tmp, 'page.html')));
  await rejects(api.preview(walk, { to: 'csv' }), 'usage', "a preview shows vrma, glb, three or bvh output, not 'csv'");
} else {
  throw new Error(`${vrmPath} is missing: the shared sample data is needed`);
}

fs.rmSync(tmp, { recursive: true, force: true });
console.log('api: input checks, output names, option spellings, file options, formats(), bake(), batch(), bones(), preview() ok');
