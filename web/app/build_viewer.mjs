#!/usr/bin/env node
// Writes the template of `animconv preview` pages (docs/web.md, "animconv preview"): viewer/viewer.html
// with every module it runs inlined — three.js, its loaders, three-vrm(-animation) from
// web/app/node_modules, and the page's own src/preview.js and src/humanoid.js — so a preview plays
// from file:// with nothing beside it. Relative imports are rewritten to `@animconv/...`
// specifiers, which the page's import map sends to blob: URLs (a blob: module cannot resolve a
// relative import). The one placeholder left, /*ANIMCONV_PREVIEW_DATA*/, is filled by the CLI
// (pipeline/preview.cpp). Writes nothing when the result is unchanged, so builds stay incremental.
// Usage: node web/app/build_viewer.mjs --out FILE
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {VENDOR_ENTRIES, relativeImports} from './build.mjs';

const appDir = path.dirname(fileURLToPath(import.meta.url));
const modules = path.join(appDir, 'node_modules');
const MODULES_PLACEHOLDER = '/*ANIMCONV_MODULES*/';
export const DATA_PLACEHOLDER = '/*ANIMCONV_PREVIEW_DATA*/';

// The page's import-map names (index.html) of the vendor modules the viewer uses: preview.js and
// humanoid.js import them by these names.
const BARE = new Map([
  ['three', 'three/three.module.js'],
  ['three/addons/loaders/GLTFLoader.js', 'three/addons/loaders/GLTFLoader.js'],
  ['three/addons/loaders/BVHLoader.js', 'three/addons/loaders/BVHLoader.js'],
  ['three/addons/controls/OrbitControls.js', 'three/addons/controls/OrbitControls.js'],
  ['@pixiv/three-vrm', 'three-vrm/three-vrm.module.min.js'],
  ['@pixiv/three-vrm-animation', 'three-vrm-animation/three-vrm-animation.module.min.js'],
]);

function specifierOf(file) {
  return '@animconv/' + path.relative(appDir, file).split(path.sep).join('/')
      .replace(/^node_modules\//, 'vendor/').replace(/^(src|viewer)\//, '');
}

// Adds `file` and what it imports relatively to `sources` (specifier -> source text), its
// relative imports rewritten to their specifiers.
function addModule(file, specifier, sources) {
  if (sources.has(specifier)) return;
  sources.set(specifier, null);  // a cycle stops here
  let source = fs.readFileSync(file, 'utf8');
  for (const relative of relativeImports(source)) {
    const target = path.resolve(path.dirname(file), relative);
    const targetSpecifier = specifierOf(target);
    addModule(target, targetSpecifier, sources);
    source = source.replace(
        new RegExp(`((?:\\bfrom|\\bimport)\\s*\\(?\\s*)(['"])${relative.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\2`, 'g'),
        (_, head, quote) => `${head}${quote}${targetSpecifier}${quote}`);
  }
  sources.set(specifier, source);
}

export function buildViewer() {
  if (!fs.existsSync(path.join(modules, 'three/package.json'))) {
    throw new Error(`${modules} is missing: npm ci --prefix web/app`);
  }
  const sources = new Map();
  for (const [bare, to] of BARE) {
    const entry = VENDOR_ENTRIES.find((e) => e.to === to);
    if (!entry) throw new Error(`build.mjs has no vendor entry for ${to}`);
    addModule(path.join(modules, entry.from), bare, sources);
  }
  addModule(path.join(appDir, 'viewer/viewer.js'), '@animconv/viewer.js', sources);
  const template = fs.readFileSync(path.join(appDir, 'viewer/viewer.html'), 'utf8');
  for (const placeholder of [MODULES_PLACEHOLDER, DATA_PLACEHOLDER]) {
    if (template.split(placeholder).length !== 2) {
      throw new Error(`viewer/viewer.html must hold ${placeholder} exactly once`);
    }
  }
  // '<' as \u003c: no "</script>" or "<!--" in module text can end or upset the block.
  const json = JSON.stringify(Object.fromEntries(sources)).replace(/</g, '\\u003c');
  if (json.includes(DATA_PLACEHOLDER)) throw new Error(`a module's text holds ${DATA_PLACEHOLDER}`);
  return template.replace(MODULES_PLACEHOLDER, () => json);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.length !== 2 || args[0] !== '--out') throw new Error('usage: build_viewer.mjs --out FILE');
  const html = buildViewer();
  const out = args[1];
  if (!fs.existsSync(out) || fs.readFileSync(out, 'utf8') !== html) {
    fs.mkdirSync(path.dirname(out), {recursive: true});
    const temporary = `${out}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, html);
    fs.renameSync(temporary, out);
  }
}
