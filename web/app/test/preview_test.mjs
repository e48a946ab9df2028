#!/usr/bin/env node
// `animconv preview` pages in headless Chromium (docs/web.md, "animconv preview"): each page is
// written by the CLI, opened from file:// with no server, and must (1) hold exactly the bytes
// `animconv convert` writes for the same conversion, (2) load nothing but itself (no file, host or
// CDN beside it: every request is the page, a blob: or a data: URL), (3) play: a figure on the
// canvas whose pose changes between two times, with no page error. Also: a bad input or an
// impossible choice writes no page, and a file name with '<' cannot break out of the data block.
// Usage: node web/app/test/preview_test.mjs --animconv BUILD/cli/animconv --source REPO
//        [--npm-cli BUILD_WEB/web/cli/main.mjs] (then every page is also made by `npx animconv
//        preview`, and must be byte for byte the native one)
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {optionReader} from '../../test/args.mjs';
import {collectPageErrors, launchBrowser} from './browser.mjs';
import {checkPreviewMoves} from './canvas.mjs';

const option = optionReader('preview_test');
const args = {animconv: option('--animconv'), source: option('--source'), 'npm-cli': option('--npm-cli', '')};
const source = path.resolve(args.source);
const data = (name) => path.join(source, 'data', name);
const shared = (name) => path.join(source, '..', 'shared', 'data', name);
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'animconv-preview-'));
const vrm1 = shared('vrm/vrmaddon_skinned_mesh_parent_vrm1.vrm');
const vrm0 = shared('vrm/three-vrm_sphere.vrm');  // VRM 0.x, skinned

// [name, preview arguments, the `convert` arguments that write the same file, show, times, note]
const CASES = [
  ['csv-humanoid', [data('unity/walk.csv')], [data('unity/walk.csv'), '-o', 'walk.vrma'],
   'vrma-on-humanoid', [0.6, 1.6], /generated humanoid/],
  ['csv-on-vrm1', [data('unity/walk.csv'), '--model', vrm1], [data('unity/walk.csv'), '-o', 'walk.vrma'],
   'vrma-on-vrm', [0.6, 1.6], /VRM model/],
  ['csv-skeleton-vrm1', [data('unity/walk.csv'), '--skeleton', vrm1],
   [data('unity/walk.csv'), '--skeleton', vrm1, '-o', 'walk.glb'], 'gltf', [0.6, 1.6], /GLTFLoader/],
  ['gltf-morph', [data('gltf/morph_cube.gltf')], [data('gltf/morph_cube.gltf'), '-o', 'morph_cube.glb'],
   'gltf', [0, 'half'], /GLTFLoader/],
  ['fox-clip', [shared('skeletal/khronos_Fox.glb'), '--clip', 'Walk'],
   [shared('skeletal/khronos_Fox.glb'), '--clip', 'Walk', '-o', 'khronos_Fox.glb'], 'gltf', [0.2, 0.5], /GLTFLoader/],
  ['bvh-humanoid', [data('bvh/cmu_walk.bvh'), '--ground'], [data('bvh/cmu_walk.bvh'), '--ground', '-o', 'cmu_walk.vrma'],
   'vrma-on-humanoid', [0.2, 0.6], /generated humanoid/],
  ['bvh-three-on-vrm0', [data('bvh/cmu_walk.bvh'), '--to', 'three', '--model', vrm0],
   [data('bvh/cmu_walk.bvh'), '--skeleton', vrm0, '-o', 'cmu_walk.json'], 'three-on-model', [0.2, 0.6],
   /AnimationClip\.parse/],
  ['bvh-own-skeleton', [data('bvh/cmu_walk.bvh'), '--to', 'bvh'], [data('bvh/cmu_walk.bvh'), '-o', 'cmu_walk.bvh'],
   'bvh', [0.2, 0.6], /own skeleton/],
];

function run(command, argv, cwd) {
  const result = spawnSync(command[0], [...command.slice(1), ...argv], {cwd, encoding: 'utf8'});
  // A command that could not start (a wrong path) says so instead of an empty stderr.
  return {status: result.status, stderr: result.error ? String(result.error) : result.stderr ?? ''};
}

const native = [path.resolve(args.animconv)];
const npm = args['npm-cli'] ? [process.execPath, path.resolve(args['npm-cli'])] : null;

// The page's data block (pipeline/preview.cpp), parsed as the viewer parses it.
function pageData(html) {
  const match = html.match(/<script type="application\/json" id="animconv-preview-data">([^<]*)<\/script>/);
  assert.ok(match, 'the page holds its data block');
  return JSON.parse(match[1]);
}

function makePage(name, previewArgs, convertArgs, show) {
  const dir = path.join(temp, name);
  fs.mkdirSync(dir);
  const made = run(native, ['preview', ...previewArgs, '-o', 'page.html'], dir);
  assert.equal(made.status, 0, `${name}: animconv preview exits 0: ${made.stderr}`);
  const html = fs.readFileSync(path.join(dir, 'page.html'), 'utf8');
  const page = pageData(html);
  assert.equal(page.show, show, `${name}: shown as ${show}`);
  const converted = run(native, ['convert', ...convertArgs], dir);
  assert.equal(converted.status, 0, `${name}: animconv convert exits 0: ${converted.stderr}`);
  const expected = fs.readFileSync(path.join(dir, convertArgs[convertArgs.indexOf('-o') + 1]));
  assert.ok(Buffer.from(page.output.base64, 'base64').equals(expected),
            `${name}: the page plays the bytes animconv convert writes (${page.output.name})`);
  if (npm) {
    fs.mkdirSync(path.join(dir, 'npm'));
    const viaNpm = run(npm, ['preview', ...previewArgs, '-o', 'page.html'], path.join(dir, 'npm'));
    assert.equal(viaNpm.status, 0, `${name}: npx animconv preview exits 0: ${viaNpm.stderr}`);
    assert.equal(viaNpm.stderr, made.stderr, `${name}: the npm CLI says what the native one says`);
    assert.ok(fs.readFileSync(path.join(dir, 'npm/page.html')).equals(Buffer.from(html)),
              `${name}: the npm CLI writes the native page byte for byte`);
  }
  return {file: path.join(dir, 'page.html'), page, bytes: html.length};
}

// Opens the page from file:// and fails on any request that is not the page itself, a blob: or a
// data: URL: the page must play with nothing beside it and no network.
async function openOffline(browser, file) {
  const page = await browser.newPage();
  const errors = collectPageErrors(page);
  const outside = [];
  const url = pathToFileURL(file).href;
  page.on('request', (request) => {
    const requested = request.url();
    if (requested !== url && !/^(blob|data):/.test(requested)) outside.push(requested);
  });
  await page.setViewport({width: 900, height: 1000});
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.preview !== 'loading', {timeout: 60000});
  return {page, errors, outside};
}

const browser = await launchBrowser();
let failures = 0;
try {
  for (const [name, previewArgs, convertArgs, show, times, note] of CASES) {
    try {
      const made = makePage(name, previewArgs, convertArgs, show);
      const {page, errors, outside} = await openOffline(browser, made.file);
      const state = await page.$eval('body', (b) => b.dataset.preview);
      const error = await page.$eval('#error', (e) => e.textContent);
      assert.equal(state, 'ready', `${name}: the preview is ready (${error})`);
      assert.match(await page.$eval('#preview-note', (e) => e.textContent), note);
      const duration = await page.$eval('#scrub', (s) => Number(s.max));
      await checkPreviewMoves(page, `${name} (${(made.bytes / 1e6).toFixed(2)} MB page)`,
                              times.map((t) => (t === 'half' ? duration / 2 : t)));
      assert.deepEqual(outside, [], `${name}: the page loads nothing beside itself`);
      assert.deepEqual(errors.filter((e) => !/GL Driver Message/.test(e)), [], `${name}: no page errors`);
      await page.close();
      console.log(`ok ${name}`);
    } catch (error) {
      ++failures;
      console.log(`FAIL ${name}: ${error.message}`);
    }
  }

  // A name with '<' (the data block escapes it): the page still plays and shows the name.
  try {
    const odd = path.join(temp, 'walk <!--<script>x.csv');
    fs.copyFileSync(data('unity/walk.csv'), odd);
    const made = makePage('odd-name', [odd], [odd, '-o', 'odd.vrma'], 'vrma-on-humanoid');
    const {page, errors} = await openOffline(browser, made.file);
    assert.equal(await page.$eval('body', (b) => b.dataset.preview), 'ready');
    assert.equal(await page.evaluate(() => document.title), 'animconv preview: walk <!--<script>x.csv');
    assert.deepEqual(errors, []);
    await page.close();
    console.log('ok odd-name');
  } catch (error) {
    ++failures;
    console.log(`FAIL odd-name: ${error.message}`);
  }
} finally {
  await browser.close();
}

// Refusals: no page, the CLI's message and exit code.
const refusals = [
  ['bad-input', () => {
    const bad = path.join(temp, 'bad.csv');
    const lines = fs.readFileSync(data('unity/walk.csv'), 'utf8').split('\n');
    lines[1] = lines[1].replace(/^([^,]*,[^,]*,)[^,]*/, '$10.0x1');
    fs.writeFileSync(bad, lines.join('\n'));
    return [bad];
  }, 2, /bad\.csv:2:/],
  ['unshowable-format', () => [data('unity/walk.csv'), '--to', 'csv'], 1, /a preview shows vrma, glb, three or bvh output, not 'csv'/],
  ['vrma-on-non-vrm', () => [data('unity/walk.csv'), '--to', 'vrma', '--model', shared('skeletal/khronos_Fox.glb')], 1,
   /--to vrma plays on a VRM model/],
  ['glb-without-meshes', () => [data('unity/walk.csv'), '--to', 'glb'], 1, /no meshes to show/],
];
for (const [name, argv, status, message] of refusals) {
  const dir = path.join(temp, name);
  fs.mkdirSync(dir);
  for (const [which, command] of [['native', native], ['npm', npm]]) {
    if (!command) continue;
    const result = run(command, ['preview', ...argv(), '-o', 'page.html'], dir);
    try {
      assert.equal(result.status, status, `${name} (${which}): exit ${status}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.deepEqual(fs.readdirSync(dir), [], `${name} (${which}): nothing written`);
      console.log(`ok ${name} (${which})`);
    } catch (error) {
      ++failures;
      console.log(`FAIL ${name} (${which}): ${error.message}`);
    }
  }
}
fs.rmSync(temp, {recursive: true, force: true});
if (failures) {
  console.log(`preview_test: ${failures} failure(s)`);
  process.exit(1);
}
console.log('preview_test: all checks passed');
