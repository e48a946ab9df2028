// The p5.js cookbook sketch (docs/cookbook/p5js.md, "A p5.js 2.x sketch") run as a user runs it:
// the sketch's code taken from the doc at test time (so doc and test cannot drift), npm `p5`
// (web/app/node_modules/p5, global mode, p5.min.js) in Debian's headless Chromium, on the native
// `animconv bake` output of glTF morph clips. Checks: no page error; one p5.Geometry per baked
// frame with the bake's vertex, normal and face counts; the canvas shows the mesh (pixels of a
// screenshot other than the sketch's background); two frames of the clip give different pictures.
//
// Time is the one thing the test controls: the sketch picks its frame from millis(), so the page
// gets a clock (installed before p5 loads) that the test can stop at a chosen time; the sketch's
// own code is untouched.
//
// Usage: node web/app/test/p5_sketch_test.mjs --animconv BIN [--source ROOT] [--shared DIR]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { optionReader } from '../../test/args.mjs';
import { collectPageErrors, launchBrowser, serveFolder } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const option = optionReader('p5_sketch_test');
const animconv = path.resolve(option('--animconv'));
const sourceRoot = path.resolve(option('--source', path.join(here, '..', '..', '..')));
const sharedData = path.resolve(option('--shared', path.join(sourceRoot, '..', 'shared', 'data')));
const p5Script = path.join(here, '..', 'node_modules', 'p5', 'lib', 'p5.min.js');

// Our own fixture and a third-party Khronos sample (CC0, MANIFEST.md of the shared data).
const CASES = [
  { name: 'morph_cube', input: path.join(sourceRoot, 'data', 'gltf', 'morph_cube.gltf') },
  {
    name: 'khronos_AnimatedMorphCube',
    input: path.join(sharedData, 'morph', 'khronos_AnimatedMorphCube', 'glTF', 'AnimatedMorphCube.gltf'),
  },
];
// The sketch's background(230): a grey, the same in all three channels.
const BACKGROUND = 230;
// A mesh fitted to the canvas (fitToCanvas: diagonal 80 % of it) covers far more than this.
const MIN_MESH_PIXEL_FRACTION = 0.02;

const failures = [];
function check(condition, message) {
  if (!condition) failures.push(message);
}

// The ```js blocks of the doc's "## A p5.js 2.x sketch" section, up to the next "## " heading.
function sketchFromDoc(markdown) {
  const start = markdown.indexOf('\n## A p5.js 2.x sketch');
  if (start < 0) throw new Error('docs/cookbook/p5js.md has no "## A p5.js 2.x sketch" section');
  const rest = markdown.slice(start + 1);
  const next = rest.indexOf('\n## ');
  const section = next < 0 ? rest : rest.slice(0, next);
  const blocks = [...section.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  if (blocks.length === 0) throw new Error('the sketch section of docs/cookbook/p5js.md has no ```js block');
  return blocks.join('\n');
}

function bake(input, outputFile) {
  const result = spawnSync(animconv, ['bake', input, '-o', outputFile], { encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`animconv bake ${input} failed (${result.status}): ${result.stderr}`);
  return JSON.parse(fs.readFileSync(outputFile, 'utf8'));
}

// The frame whose positions are farthest from frame 0's: the pair of pictures most sure to differ.
function farthestFrame(baked) {
  let best = 0;
  let bestDistance = -1;
  baked.frames.forEach((frame, k) => {
    let distance = 0;
    for (let i = 0; i < frame.v.length; i++) distance = Math.max(distance, Math.abs(frame.v[i] - baked.frames[0].v[i]));
    if (distance > bestDistance) [best, bestDistance] = [k, distance];
  });
  return best;
}

// Installed before p5: performance.now() runs as usual until the test stops it at a given value.
// p5's millis() reads performance.now(), so this is the clock the sketch sees.
const CLOCK = `
  (() => {
    const realNow = performance.now.bind(performance);
    let stoppedAt = null;
    performance.now = () => (stoppedAt === null ? realNow() : stoppedAt);
    window.__animconvTestClock = { stopAt: (ms) => { stoppedAt = ms; } };
  })();`;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>animconv p5 sketch</title>
<link rel="icon" href="data:,">
<script src="clock.js"></script>
<script src="../p5.min.js"></script>
<script src="sketch.js"></script>
</head><body style="margin:0"></body></html>
`;

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'animconv-p5-'));
const sketch = sketchFromDoc(fs.readFileSync(path.join(sourceRoot, 'docs', 'cookbook', 'p5js.md'), 'utf8'));
fs.copyFileSync(p5Script, path.join(root, 'p5.min.js'));
const baked = {};
for (const c of CASES) {
  const dir = path.join(root, c.name);
  fs.mkdirSync(dir);
  baked[c.name] = bake(c.input, path.join(dir, 'frames.json'));
  fs.writeFileSync(path.join(dir, 'sketch.js'), sketch);
  fs.writeFileSync(path.join(dir, 'clock.js'), CLOCK);
  fs.writeFileSync(path.join(dir, 'index.html'), PAGE);
}

const server = await serveFolder(root);
const browser = await launchBrowser();
try {
  for (const c of CASES) await checkCase(c, baked[c.name]);
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
}

async function checkCase(c, bakedClip) {
  const page = await browser.newPage();
  const errors = collectPageErrors(page);
  await page.setViewport({ width: 700, height: 700 });
  await page.goto(`${server.url}${c.name}/`, { waitUntil: 'load' });
  // setup() is async (await loadJSON): the sketch is ready once it has built its frames and drawn.
  // A bare `frames` in the page is the sketch's top-level `let frames`, which shadows the
  // browser's window.frames (what `window.frames` or `globalThis.frames` would read).
  try {
    await page.waitForFunction(() => typeof frames !== 'undefined' && Array.isArray(frames) && frameCount > 1, {
      timeout: 60000,
    });
  } catch (error) {
    throw new Error(`${c.name}: the sketch never drew its frames (${error.message}); page errors: ${errors.join('; ')}`);
  }

  const shape = await page.evaluate(() => ({
    count: frames.length,
    geometries: frames.every((g) => g instanceof p5.Geometry),
    vertices: frames.map((g) => g.vertices.length),
    normals: frames.map((g) => g.vertexNormals.length),
    faces: frames.map((g) => g.faces.length),
  }));
  const vertexCount = bakedClip.v.length / 3;
  const faceCount = bakedClip.f.length / 3;
  const normalCount = bakedClip.n ? vertexCount : null;
  check(shape.count === bakedClip.frames.length, `${c.name}: ${shape.count} geometries for ${bakedClip.frames.length} baked frames`);
  check(shape.geometries, `${c.name}: not every frame is a p5.Geometry`);
  check(shape.vertices.every((n) => n === vertexCount), `${c.name}: vertex counts ${[...new Set(shape.vertices)]} != ${vertexCount}`);
  check(shape.faces.every((n) => n === faceCount), `${c.name}: face counts ${[...new Set(shape.faces)]} != ${faceCount}`);
  if (normalCount !== null) {
    check(shape.normals.every((n) => n === normalCount), `${c.name}: normal counts ${[...new Set(shape.normals)]} != ${normalCount}`);
  }

  const other = farthestFrame(bakedClip);
  check(other !== 0, `${c.name}: every baked frame has frame 0's positions: nothing to animate`);
  const first = await pictureAt(page, bakedClip, 0);
  const second = await pictureAt(page, bakedClip, other);
  for (const [k, picture] of [[0, first], [other, second]]) {
    check(picture.drawnFrame === k, `${c.name}: at the time of frame ${k} the sketch picked frame ${picture.drawnFrame}`);
    check(
      picture.meshFraction >= MIN_MESH_PIXEL_FRACTION,
      `${c.name}: frame ${k}: only ${(picture.meshFraction * 100).toFixed(2)} % of the canvas is not background`,
    );
    // fitToCanvas keeps the mesh in view: nothing drawn on the canvas's outermost pixels.
    check(picture.onBorder === 0, `${c.name}: frame ${k}: the mesh reaches the canvas edge (${picture.onBorder} pixels): cut off`);
  }
  const differing = first.pixels.reduce((n, value, i) => n + (value !== second.pixels[i] ? 1 : 0), 0);
  check(differing > 0, `${c.name}: frames 0 and ${other} give the same picture`);
  check(errors.length === 0, `${c.name}: page errors:\n  ${errors.join('\n  ')}`);
  console.log(
    `p5_sketch_test: ${c.name}: ${shape.count} frames × ${vertexCount} vertices, ${faceCount} faces; ` +
      `mesh covers ${(first.meshFraction * 100).toFixed(1)} % / ${(second.meshFraction * 100).toFixed(1)} % of the canvas ` +
      `at frames 0 / ${other}; ${differing} bytes of the pictures differ`,
  );
  await page.close();
}

// Stops the page's clock where the sketch's `(millis() / 1000) % duration` falls in the middle of
// frame k (between its time and the next one's), draws once more and takes a screenshot of the
// canvas, decoded by the browser; returns its RGBA bytes and the share of non-background pixels.
async function pictureAt(page, bakedClip, k) {
  const times = bakedClip.times;
  const duration = times[times.length - 1];
  const next = k + 1 < times.length ? times[k + 1] : duration;
  const seconds = k + 1 < times.length ? (times[k] + next) / 2 : times[k];
  const drawnFrame = await page.evaluate(async (wantedMs) => {
    noLoop();
    // millis() = performance.now() - p5's start; stop the clock so millis() reads wantedMs.
    const start = performance.now() - millis();
    window.__animconvTestClock.stopAt(start + wantedMs);
    await redraw();
    const duration = bake.times[bake.times.length - 1];
    return frameAt((millis() / 1000) % duration);
  }, seconds * 1000);
  // Two animation frames: the drawn picture has reached the compositor.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const canvas = await page.$('canvas');
  const png = await canvas.screenshot({ encoding: 'base64' });
  if (process.env.P5_SKETCH_TEST_SHOTS) {
    fs.writeFileSync(path.join(process.env.P5_SKETCH_TEST_SHOTS, `frame_${k}_${Date.now()}.png`), Buffer.from(png, 'base64'));
  }
  return {
    drawnFrame,
    ...(await page.evaluate(
      async (base64, background) => {
        const bytes = Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d');
        context.drawImage(bitmap, 0, 0);
        const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
        let mesh = 0;
        let onBorder = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (data[i] === background && data[i + 1] === background && data[i + 2] === background) continue;
          mesh++;
          const x = (i / 4) % bitmap.width;
          const y = Math.floor(i / 4 / bitmap.width);
          if (x === 0 || y === 0 || x === bitmap.width - 1 || y === bitmap.height - 1) onBorder++;
        }
        return { meshFraction: mesh / (data.length / 4), onBorder, pixels: Array.from(data) };
      },
      png,
      BACKGROUND,
    )),
  };
}

if (failures.length > 0) {
  console.error(`p5_sketch_test: ${failures.length} failure(s):\n${failures.join('\n')}`);
  process.exit(1);
}
console.log(`p5_sketch_test: ${CASES.length} clips: the documented sketch plays them in p5 ${p5Version()}`);

function p5Version() {
  return JSON.parse(fs.readFileSync(path.join(here, '..', 'node_modules', 'p5', 'package.json'), 'utf8')).version;
}
