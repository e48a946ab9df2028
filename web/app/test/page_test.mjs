#!/usr/bin/env node
// The web page's checks in headless Chromium (docs/web.md, "The web page"): builds the page
// (build.mjs) into a temporary folder, serves it on 127.0.0.1 and drives it like a user: files
// are picked through the file inputs, outputs are what the Download button saves (CDP download
// behaviour into a temporary folder), and every output is compared byte for byte with the
// native CLI's for the same options. Also the preview canvas, errors, zips and a big file.
// Usage: node web/app/test/page_test.mjs --animconv BUILD/cli/animconv --package BUILD_WEB/web
//        --source REPO [--only vrma,badInput,...] (the names of `checks` below).
import assert from 'node:assert/strict';
import {execFileSync, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {unzipSync} from 'fflate';
import {buildPage} from '../build.mjs';
import {optionReader} from '../../test/args.mjs';
import {collectPageErrors, launchBrowser, serveFolder} from './browser.mjs';
import {checkPreviewMoves} from './canvas.mjs';

const option = optionReader('page_test');
const args = {animconv: option('--animconv'), package: option('--package'), source: option('--source'),
              only: option('--only', '')};
const source = path.resolve(args.source);
const data = (name) => path.join(source, 'data', name);
const shared = (name) => path.join(source, '..', 'shared', 'data', name);
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'animconv-page-'));
const downloads = path.join(temp, 'downloads');
fs.mkdirSync(downloads);

// The native CLI's output for `input` with `cliOptions`, as {name: bytes}.
function nativeOutputs(input, outputName, cliOptions) {
  const dir = fs.mkdtempSync(path.join(temp, 'native-'));
  execFileSync(args.animconv, ['convert', input, '-o', path.join(dir, outputName), ...cliOptions],
               {stdio: ['ignore', 'ignore', 'pipe']});
  return Object.fromEntries(fs.readdirSync(dir).map((n) => [n, fs.readFileSync(path.join(dir, n))]));
}

// Fills the form: `options` are the page's form field names (the API's option names).
async function setOptions(page, options) {
  await page.evaluate((options) => {
    const form = document.getElementById('convert-form');
    for (const element of form.elements) {
      if (element.type === 'checkbox') element.checked = false;
      else if (element.tagName !== 'BUTTON' && element.type !== 'file' && element.name !== 'to') element.value = '';
    }
    for (const [name, value] of Object.entries(options)) {
      const element = form.elements[name];
      if (element.type === 'checkbox') element.checked = value;
      else element.value = String(value);
    }
  }, options);
}

async function convertOnPage(page, inputs, {model = null, options}) {
  await setOptions(page, options);
  const before = await page.evaluate(() => document.body.dataset.converted ?? '0');
  await (await page.$('#input-files')).uploadFile(...inputs);
  const modelInput = await page.$('#model-file');
  if (model) await modelInput.uploadFile(model);
  else await page.evaluate(() => { document.getElementById('model-file').value = ''; document.getElementById('model-file').dispatchEvent(new Event('change')); });
  await page.click('#convert');
  await page.waitForFunction((before) => (document.body.dataset.converted ?? '0') !== before,
                             {timeout: 120000}, before);
}

// Clicks Download and returns what the browser saved: {name, bytes}.
async function download(page) {
  for (const name of fs.readdirSync(downloads)) fs.rmSync(path.join(downloads, name));
  assert.equal(await page.$eval('#download', (b) => b.hidden), false, 'a Download button');
  await page.click('#download');
  for (let waited = 0; waited < 20000; waited += 50) {
    const names = fs.readdirSync(downloads);
    if (names.length === 1 && !names[0].endsWith('.crdownload')) {
      return {name: names[0], bytes: fs.readFileSync(path.join(downloads, names[0]))};
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no download arrived');
}

async function resultTexts(page) {
  return page.$$eval('#results li', (items) => items.map((li) => li.innerText));
}

// The preview's note (what it plays on) once the preview is up.
async function previewNote(page) {
  await page.waitForFunction(() => document.body.dataset.preview === 'ready', {timeout: 30000});
  return page.$eval('#preview-note', (e) => e.textContent);
}

// walk.csv with a bad number on line 2 (its third value '0.0x1').
function writeBadCsv() {
  const lines = fs.readFileSync(data('unity/walk.csv'), 'utf8').split('\n');
  lines[1] = lines[1].replace(/^([^,]*,[^,]*,)[^,]*/, '$10.0x1');
  const bad = path.join(temp, 'bad_walk.csv');
  fs.writeFileSync(bad, lines.join('\n'));
  return bad;
}

const checks = {
  async vrma(page) {
    await convertOnPage(page, [data('unity/walk.csv')], {options: {to: 'vrma', reduce: true}});
    const saved = await download(page);
    const native = nativeOutputs(data('unity/walk.csv'), 'walk.vrma', ['--reduce']);
    fs.writeFileSync(path.join(temp, 'walk.vrma'), native['walk.vrma']);
    assert.equal(saved.name, 'walk.vrma');
    assert.ok(saved.bytes.equals(native['walk.vrma']), 'walk.vrma: the download equals the native CLI output');
    console.log(`  walk.csv → walk.vrma (${saved.bytes.length} bytes) equals the native CLI's`);
    await page.waitForFunction(() => document.getElementById('info-summary').textContent !== '');
    const info = JSON.parse(await page.$eval('#info', (e) => e.textContent));
    const nativeInfo = JSON.parse(execFileSync(args.animconv, ['info', '--json', path.join(temp, 'walk.vrma')], {encoding: 'utf8'}));
    assert.deepEqual(info, {...nativeInfo, input: 'walk.vrma'}, 'the info panel is the native `info --json` of the output');
    const summary = await page.$eval('#info-summary', (e) => e.textContent);
    // The size as the page prints it (kB of 1000 bytes), from the download itself.
    const kb = (saved.bytes.length / 1000).toFixed(1).replace('.', '\\.');
    assert.match(summary, new RegExp(`^walk\\.vrma: vrma, ${kb} KB, \\d+ nodes, \\d+ humanoid bones; "walk" 11\\.80 s, \\d+ channels, \\d+ keys$`));
    await checkPreviewMoves(page, 'walk.vrma on the generated humanoid', [0.6, 1.6]);
    // Scrubbing paused it; Play plays at the chosen speed (the time shown advances).
    assert.equal(await page.$eval('#play', (b) => b.textContent), 'Play');
    await page.select('#preview-speed', '2');
    await page.click('#play');
    const playedFrom = await page.$eval('#scrub', (s) => Number(s.value));
    await new Promise((r) => setTimeout(r, 500));
    const playedTo = await page.$eval('#scrub', (s) => Number(s.value));
    assert.equal(await page.$eval('#play', (b) => b.textContent), 'Pause');
    assert.ok(playedTo - playedFrom > 0.5, `playing at 2x advances the time (${playedFrom} → ${playedTo} s in 0.5 s)`);
  },

  async options(page) {
    // Every option field, mapped onto the CLI's options: the output is the CLI's with the flags.
    // To .glb: --ground on a Unity CSV (no rest pose) stands it in the generated T-pose, and a
    // three.js clip refuses it (docs/root_motion.md, "Grounding").
    const form = {
      to: 'glb', mirror: 'x', clip: '0', boneNames: 'vrm1', rootMotion: 'in-place', ground: true,
      interval: 0.1, trim: '0.5:3.5', speed: 1.5, resample: 20, loop: true, reduce: true, reduceRotation: 0.5,
      reduceTranslation: 0.001,
    };
    await convertOnPage(page, [data('unity/walk.csv')], {options: form});
    const saved = await download(page);
    const native = nativeOutputs(data('unity/walk.csv'), 'walk.glb', [
      '--mirror', 'x', '--clip', '0', '--bone-names', 'vrm1', '--root-motion', 'in-place', '--ground',
      '--interval', '0.1', '--trim', '0.5:3.5', '--speed', '1.5', '--resample', '20', '--loop', '--reduce',
      '--reduce-rotation', '0.5', '--reduce-translation', '0.001']);
    assert.ok(saved.bytes.equals(native['walk.glb']), 'walk.glb with every option equals the native CLI output');
    console.log(`  walk.csv → walk.glb with every option field (${saved.bytes.length} bytes) equals the native CLI's`);
    // fps instead of interval; and a value the CLI refuses is refused with its message.
    await convertOnPage(page, [data('unity/walk.csv')], {options: {to: 'three', fps: 10}});
    assert.ok((await download(page)).bytes.equals(nativeOutputs(data('unity/walk.csv'), 'walk.json', ['--fps', '10'])['walk.json']));
    await convertOnPage(page, [data('unity/walk.csv')], {options: {to: 'three', trim: '3:1'}});
    const native2 = spawnSync(args.animconv, ['convert', data('unity/walk.csv'), '-o', path.join(temp, 'x.json'), '--trim', '3:1'], {encoding: 'utf8'});
    const message = native2.stderr.trim().split('\n').pop().replace(/^animconv: error: /, '');
    assert.notEqual(native2.status, 0);
    const [text] = await resultTexts(page);
    assert.ok(text.includes(`error: ${message}`), `'${message}' shown (got '${text}')`);
  },

  async keyboard(page) {
    // Every control has a label; Tab reaches the file pickers, the options and Convert.
    const unlabelled = await page.$$eval('input, select', (all) => all.filter((e) => e.labels.length === 0).map((e) => e.id));
    assert.deepEqual(unlabelled, []);
    const reached = [];
    for (let i = 0; i < 30; ++i) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => document.activeElement.id));
    }
    for (const id of ['input-files', 'model-file', 'format', 'reduce', 'convert']) {
      assert.ok(reached.includes(id), `Tab reaches #${id} (${reached.join(' ')})`);
    }
    // Enter on Convert with no file says what to do.
    await page.focus('#convert');
    await page.keyboard.press('Enter');
    assert.match(await page.$eval('#status', (e) => e.textContent), /Pick or drop/);
  },

  async drop(page) {
    // Files dropped on the drop zone: an animation file is an input, a .vrm the model.
    const files = [data('unity/walk.csv'), shared('vrm/vrmaddon_skinned_mesh_parent_vrm1.vrm')]
      .map((file) => ({name: path.basename(file), bytes: [...fs.readFileSync(file)]}));
    await page.evaluate((files) => {
      const transfer = new DataTransfer();
      for (const f of files) transfer.items.add(new File([new Uint8Array(f.bytes)], f.name));
      document.getElementById('drop-zone').dispatchEvent(new DragEvent('drop', {dataTransfer: transfer, bubbles: true}));
    }, files);
    const listed = await page.$eval('#file-list', (e) => e.innerText);
    assert.match(listed, /walk\.csv \(81\.3 KB\)\n.*vrmaddon_skinned_mesh_parent_vrm1\.vrm \(model\)/);
    await page.select('#format', 'glb');
    const before = await page.evaluate(() => document.body.dataset.converted ?? '0');
    await page.click('#convert');
    await page.waitForFunction((b) => (document.body.dataset.converted ?? '0') !== b, {timeout: 60000}, before);
    const saved = await download(page);
    const model = shared('vrm/vrmaddon_skinned_mesh_parent_vrm1.vrm');
    assert.ok(saved.bytes.equals(nativeOutputs(data('unity/walk.csv'), 'walk.glb', ['--skeleton', model])['walk.glb']),
              'dropped files convert as picked ones do');
  },

  async badInput(page) {
    const bad = writeBadCsv();
    const native = spawnSync(args.animconv, ['convert', bad, '-o', path.join(temp, 'bad.vrma')], {encoding: 'utf8'});
    assert.equal(native.status, 2);
    const message = native.stderr.trim().split('\n').pop().replace(/^animconv: error: /, '').replace(bad, 'bad_walk.csv');
    assert.match(message, /^bad_walk\.csv:2:\d+: /);
    await convertOnPage(page, [bad], {options: {to: 'vrma'}});
    const [text] = await resultTexts(page);
    assert.ok(text.includes(`error: ${message}`), `the page shows '${message}', got '${text}'`);
    assert.equal(await page.$eval('#download', (b) => b.hidden), true, 'no download for a bad input');
    console.log(`  bad input: '${message}' shown, no download`);
  },

  async morph(page) {
    await convertOnPage(page, [data('gltf/morph_cube.gltf')], {options: {to: 'glb'}});
    const saved = await download(page);
    const native = nativeOutputs(data('gltf/morph_cube.gltf'), 'morph_cube.glb', []);
    assert.ok(saved.bytes.equals(native['morph_cube.glb']), 'morph_cube.glb equals the native CLI output');
    console.log(`  morph_cube.gltf → morph_cube.glb (${saved.bytes.length} bytes) equals the native CLI's`);
    const duration = await page.$eval('#scrub', (s) => Number(s.max));
    await checkPreviewMoves(page, 'morph_cube.glb', [0, duration / 2]);
    // The three.js clip of it plays on the input's mesh.
    await convertOnPage(page, [data('gltf/morph_cube.gltf')], {options: {to: 'three'}});
    const json = await download(page);
    assert.ok(json.bytes.equals(nativeOutputs(data('gltf/morph_cube.gltf'), 'morph_cube.json', [])['morph_cube.json']));
    assert.match(await previewNote(page), /the input's meshes and nodes \(AnimationClip\.parse\)/);
    await checkPreviewMoves(page, 'morph_cube.json on the input', [0, duration / 2]);
  },

  async clip(page) {
    // A model with three clips: a one-clip format needs --clip, and says so; with it, the glb
    // is the model with that clip, which plays on the fox's own mesh.
    const fox = shared('skeletal/khronos_Fox.glb');
    await convertOnPage(page, [fox], {options: {to: 'three'}});
    const [text] = await resultTexts(page);
    assert.match(text, /error: three \(without --three-array\) holds one clip and the input has 3; pick one with --clip/);
    await convertOnPage(page, [fox], {options: {to: 'glb', clip: 'Walk'}});
    const saved = await download(page);
    assert.ok(saved.bytes.equals(nativeOutputs(fox, 'khronos_Fox.glb', ['--clip', 'Walk'])['khronos_Fox.glb']),
              'khronos_Fox.glb --clip Walk equals the native CLI output');
    await checkPreviewMoves(page, 'khronos_Fox.glb (Walk)', [0.2, 0.5]);
    assert.match(await page.$eval('#info-summary', (e) => e.textContent), /, 0 humanoid bones; "Walk" /);
  },

  async vrmModel(page) {
    const model = shared('vrm/vrmaddon_skinned_mesh_parent_vrm1.vrm');
    await convertOnPage(page, [data('unity/walk.csv')], {model, options: {to: 'glb'}});
    const saved = await download(page);
    const native = nativeOutputs(data('unity/walk.csv'), 'walk.glb', ['--skeleton', model]);
    assert.ok(saved.bytes.equals(native['walk.glb']), 'walk.glb (--skeleton model) equals the native CLI output');
    console.log(`  walk.csv --skeleton ${path.basename(model)} → walk.glb (${saved.bytes.length} bytes) equals the native CLI's`);
    await checkPreviewMoves(page, 'walk.glb, the model with the clip', [0.6, 1.6]);
    // A three.js clip retargeted onto the model plays on the model's own nodes.
    await convertOnPage(page, [data('unity/walk.csv')], {model, options: {to: 'three'}});
    const json = await download(page);
    const nativeJson = nativeOutputs(data('unity/walk.csv'), 'walk.json', ['--skeleton', model]);
    assert.ok(json.bytes.equals(nativeJson['walk.json']), 'walk.json (--skeleton model) equals the native CLI output');
    assert.match(await previewNote(page), /AnimationClip\.parse/);
    await checkPreviewMoves(page, 'walk.json on the model', [0.6, 1.6]);
    // A .vrma is not retargeted (cli.md): the model only carries the preview.
    await convertOnPage(page, [data('unity/walk.csv')], {model, options: {to: 'vrma'}});
    const note = await previewNote(page);
    assert.match(note, /your VRM/, 'the .vrma plays on the VRM model');
    await checkPreviewMoves(page, 'walk.vrma on the VRM model', [0.6, 1.6]);
  },

  async fileOptions(page) {
    // The file options (--bones, --bone-map, --source-rig) picked in their own fields: each
    // output is the CLI's with that file, and differs from the output without it.
    const swapped = fs.readFileSync(data('unity/bone.txt'), 'utf8').split('\n');
    [swapped[1], swapped[2]] = [swapped[2], swapped[1]];  // leftUpperLeg <-> rightUpperLeg
    const bonesFile = path.join(temp, 'swapped_bones.txt');
    fs.writeFileSync(bonesFile, swapped.join('\n'));
    const mapFile = path.join(temp, 'thumb_map.txt');
    fs.writeFileSync(mapFile, 'LThumb,leftThumbMetacarpal\n');
    const cases = [
      ['bones', bonesFile, data('unity/anim.csv'), 'three', 'anim.json', '--bones'],
      ['boneMap', mapFile, data('bvh/cmu_walk.bvh'), 'vrma', 'cmu_walk.vrma', '--bone-map'],
      ['sourceRig', shared('vrm/three-vrm_sphere.vrm'), data('unity/walk.csv'), 'three', 'walk.json', '--source-rig'],
    ];
    for (const [field, file, input, to, output, flag] of cases) {
      await setOptions(page, {to});
      await (await page.$(`#convert-form [name=${field}]`)).uploadFile(file);
      await convertOnPage(page, [input], {options: {to}});
      const saved = await download(page);
      assert.ok(saved.bytes.equals(nativeOutputs(input, output, [flag, file])[output]),
                `${flag}: ${output} equals the native CLI output with ${flag}`);
      assert.ok(!saved.bytes.equals(nativeOutputs(input, output, [])[output]), `${flag} changes ${output}`);
      await page.$eval(`#convert-form [name=${field}]`, (e) => { e.value = ''; });
      console.log(`  ${path.basename(input)} ${flag} ${path.basename(file)} → ${output} equals the native CLI's`);
    }
  },

  async bvhSkeleton(page) {
    // No humanoid bones: no .vrma copy, the BVH output plays on its own skeleton.
    const input = shared('bvh/pybvh_full_precision_frame_time.bvh');
    await convertOnPage(page, [input], {options: {to: 'bvh'}});
    const saved = await download(page);
    const native = nativeOutputs(input, saved.name, []);
    assert.ok(saved.bytes.equals(native[saved.name]), `${saved.name} equals the native CLI output`);
    const note = await previewNote(page);
    assert.match(note, /BVHLoader/);
    const duration = await page.$eval('#scrub', (s) => Number(s.max));
    await checkPreviewMoves(page, `${saved.name} on its own skeleton`, [0, duration]);
  },

  async zip(page) {
    const inputs = [data('unity/walk.csv'), data('unity/anim.csv'), data('bvh/cmu_walk.bvh')];
    // Every progress report the page shows (body[data-progress], set per worker message).
    await page.evaluate(() => {
      window.progressSeen = [];
      new MutationObserver((records) => {
        for (const r of records) window.progressSeen.push(document.body.dataset.progress);
      }).observe(document.body, {attributes: true, attributeFilter: ['data-progress']});
    });
    // A bad file among them is reported and left out of the zip; the others still convert.
    await convertOnPage(page, [...inputs, writeBadCsv()], {options: {to: 'vrma', speed: 2}});
    const texts = await resultTexts(page);
    assert.equal(texts.length, 4);
    assert.match(texts[3], /^bad_walk\.csv: not converted\nerror: bad_walk\.csv:2:16: /);
    const seen = await page.evaluate(() => [...new Set(window.progressSeen)]);
    for (const step of ['1/4 reading', '1/4 converting', '2/4 converting', '3/4 writing', '4/4 converting', '4/4 zipping']) {
      assert.ok(seen.includes(step), `progress shows '${step}' (seen: ${seen.join(', ')})`);
    }
    // Each result has its own Preview: the BVH's plays and the info panel describes it.
    const titleOf = () => page.$eval('#preview-title', (e) => e.textContent);
    await page.waitForFunction(() => document.body.dataset.preview === 'ready');
    assert.equal(await titleOf(), 'walk.vrma');
    await page.click('#results li:nth-child(3) button');
    await page.waitForFunction(() => document.getElementById('preview-title').textContent === 'cmu_walk.vrma' &&
                               document.body.dataset.preview === 'ready', {timeout: 30000});
    assert.match(await page.$eval('#info', (e) => e.textContent), /"name": "cmu_walk/);
    const saved = await download(page);
    assert.equal(saved.name, 'animconv-vrma.zip');
    const entries = unzipSync(new Uint8Array(saved.bytes));
    const names = Object.keys(entries).sort();
    assert.deepEqual(names, ['anim.vrma', 'cmu_walk.vrma', 'walk.vrma']);
    for (const input of inputs) {
      const name = path.basename(input).replace(/\.[^.]+$/, '.vrma');
      const native = nativeOutputs(input, name, ['--speed', '2']);
      assert.ok(Buffer.from(entries[name]).equals(native[name]), `${name} in the zip equals the native CLI output`);
    }
    console.log(`  3 inputs + 1 bad → ${saved.name} (${saved.bytes.length} bytes): ${names.join(', ')} equal the native CLI's`);
  },

  async big(page) {
    // Unity CSV rows of walk.csv repeated to ~50 MB (36,900 rows, as the benchmark's file).
    const rows = fs.readFileSync(data('unity/walk.csv'), 'utf8').trim().split('\n');
    const rowCount = 36900;
    const big = path.join(temp, 'big.csv');
    fs.writeFileSync(big, Array.from({length: rowCount}, (_, i) => rows[i % rows.length]).join('\n') + '\n');
    const size = fs.statSync(big).size;
    await setOptions(page, {to: 'vrma', interval: 0.008333333333333333});
    await (await page.$('#input-files')).uploadFile(big);
    const before = await page.evaluate(() => document.body.dataset.converted ?? '0');
    const started = Date.now();
    await page.click('#convert');
    // While it converts, the page answers: each round trip to the main thread is timed.
    let slowest = 0;
    let polls = 0;
    const stages = new Set();
    for (;;) {
      const asked = Date.now();
      const {converted, stage, status} = await page.evaluate(() => ({
        converted: document.body.dataset.converted ?? '0', stage: document.body.dataset.stage,
        status: document.getElementById('status').textContent,
      }));
      slowest = Math.max(slowest, Date.now() - asked);
      ++polls;
      if (converted !== before) break;
      if (stage) stages.add(stage);
      if (/converting… \d/.test(status)) stages.add('ticking');
      assert.ok(Date.now() - started < 600000, 'the big file converts within 10 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(`  big.csv (${(size / 1e6).toFixed(1)} MB, ${rowCount} rows): converted in ${seconds.toFixed(1)} s; ` +
                `${polls} polls, slowest answer ${slowest} ms; stages seen: ${[...stages].join(', ')}`);
    assert.ok(stages.has('converting') && stages.has('ticking'), 'the converting stage is shown, its timer ticking');
    assert.ok(slowest < 1000, `the page keeps responding (slowest answer ${slowest} ms)`);
    const [text] = await resultTexts(page);
    assert.match(text, /big\.csv → big\.vrma/);
    // Cancel while it converts again: nothing is offered, and the next job runs. The job is four
    // copies of the big file, so that the cancel lands within it however slowly this harness
    // answers: with one copy, a loaded CI machine once clicked after the ~3 s job had ended.
    const copies = [1, 2, 3, 4].map((n) => {
      const copy = path.join(temp, `big${n}.csv`);
      fs.copyFileSync(big, copy);
      return copy;
    });
    await (await page.$('#input-files')).uploadFile(...copies);
    await page.click('#convert');
    // The line shows the stage as soon as the page has it (main.js, showProgress); the clean-clone
    // run of 848b8f9 read 'reading… 0.2 s' here when only the next 100 ms tick wrote it.
    await page.waitForFunction(() => document.body.dataset.stage === 'converting');
    assert.match(await page.$eval('#status', (e) => e.textContent), /big1\.csv \(1 of 4\): converting/);
    await page.click('#cancel');
    assert.match(await page.$eval('#status', (e) => e.textContent), /^Cancelled/);
    assert.equal(await page.$eval('#download', (b) => b.hidden), true);
    await convertOnPage(page, [data('unity/walk.csv')], {options: {to: 'vrma'}});
    assert.equal((await download(page)).name, 'walk.vrma');
  },
};

const only = args.only ? args.only.split(',') : Object.keys(checks);
const size = buildPage(args.package, path.join(temp, 'page'));
console.log(`page_test: page built: ${size.files} files, ${(size.bytes / 1e6).toFixed(2)} MB, ${(size.gzipped / 1e6).toFixed(2)} MB gzipped`);
assert.ok(size.gzipped < 2e6, 'the page is under 2 MB gzipped');
const mjs = fs.readdirSync(path.join(temp, 'page'), {recursive: true}).filter((n) => n.endsWith('.mjs'));
assert.deepEqual(mjs, [], 'no .mjs in the page (servers that do not know it would break the import)');
const server = await serveFolder(path.join(temp, 'page'));
const browser = await launchBrowser();
let failed = false;
try {
  const cdp = await browser.target().createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', {behavior: 'allow', downloadPath: downloads});
  for (const name of only) {
    const page = await browser.newPage();
    await page.setViewport({width: 1280, height: 900});
    const errors = collectPageErrors(page);
    const offHost = [];
    page.on('request', (request) => {
      const url = request.url();
      // data: and blob: URLs are the page's own bytes (the module's embedded .wasm, outputs).
      if (!url.startsWith(server.url) && !/^(data|blob):/.test(url)) offHost.push(url);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`);
    });
    const started = Date.now();
    try {
      await page.goto(server.url, {waitUntil: 'load'});
      await page.waitForFunction(() => document.body.dataset.ready === 'true', {timeout: 30000});
      await checks[name](page);
      assert.deepEqual(errors, [], 'no page errors, console errors or failed requests');
      assert.deepEqual(offHost, [], 'no request off the page\'s server');
      console.log(`ok ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (error) {
      failed = true;
      console.log(`FAIL ${name}: ${error.stack}`);
      if (errors.length) console.log(`  page errors: ${errors.join('\n  ')}`);
    } finally {
      await page.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(temp, {recursive: true, force: true});
}
if (failed) process.exit(1);
console.log('page_test: all checks passed');
