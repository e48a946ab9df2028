#!/usr/bin/env node
// Writes the deployable web page (docs/web.md, "The web page") into an output folder: the page's
// own files, the animconv npm package (index.js + dist/animconv_wasm.mjs) and the vendor modules
// the page imports, copied from web/app/node_modules with the files they import in turn (no
// bundler, no CDN: the folder works from any static host). Prints the total size, gzipped.
// Usage: node web/app/build.mjs --package BUILD_WEB/web --out DIR
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {fileURLToPath} from 'node:url';

const appDir = path.dirname(fileURLToPath(import.meta.url));
const modules = path.join(appDir, 'node_modules');

// The vendor entry points, as the import map in index.html names them (vendor/<to>).
export const VENDOR_ENTRIES = [
  {from: 'three/build/three.module.js', to: 'three/three.module.js'},
  {from: 'three/examples/jsm/loaders/GLTFLoader.js', to: 'three/addons/loaders/GLTFLoader.js'},
  {from: 'three/examples/jsm/loaders/BVHLoader.js', to: 'three/addons/loaders/BVHLoader.js'},
  {from: 'three/examples/jsm/controls/OrbitControls.js', to: 'three/addons/controls/OrbitControls.js'},
  {from: '@pixiv/three-vrm/lib/three-vrm.module.min.js', to: 'three-vrm/three-vrm.module.min.js'},
  {
    from: '@pixiv/three-vrm-animation/lib/three-vrm-animation.module.min.js',
    to: 'three-vrm-animation/three-vrm-animation.module.min.js',
  },
  {from: 'fflate/esm/browser.js', to: 'fflate/browser.js'},
];
const PAGE_FILES = ['index.html', 'style.css', 'icon.svg'];

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || argv[i + 1] === undefined) {
      throw new Error(`usage: build.mjs --package BUILD_WEB/web --out DIR (at '${argv[i]}')`);
    }
    args[argv[i].slice(2)] = argv[i + 1];
  }
  if (!args.package || !args.out) throw new Error('usage: build.mjs --package BUILD_WEB/web --out DIR');
  return args;
}

function copy(from, to) {
  fs.mkdirSync(path.dirname(to), {recursive: true});
  fs.copyFileSync(from, to);
}

// Relative imports ('./x.js', '../utils/y.js') of a module: they must come along; bare ones
// ('three') resolve through the import map.
export function relativeImports(source) {
  const found = new Set();
  for (const match of source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    found.add(match[1]);
  }
  return [...found];
}

function copyModuleTree(from, to, copied) {
  if (copied.has(to)) return;
  copied.add(to);
  copy(from, to);
  for (const relative of relativeImports(fs.readFileSync(from, 'utf8'))) {
    copyModuleTree(path.resolve(path.dirname(from), relative),
                   path.resolve(path.dirname(to), relative), copied);
  }
}

function listFiles(dir) {
  return fs.readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

export function buildPage(packageDir, outDir) {
  const wasmModule = path.join(packageDir, 'dist/animconv_wasm.mjs');
  if (!fs.existsSync(wasmModule)) {
    throw new Error(`${wasmModule} is missing: build the web package first (scripts/web.sh)`);
  }
  if (!fs.existsSync(modules)) {
    throw new Error(`${modules} is missing: npm ci --prefix web/app`);
  }
  fs.rmSync(outDir, {recursive: true, force: true});
  for (const name of PAGE_FILES) copy(path.join(appDir, name), path.join(outDir, name));
  for (const name of fs.readdirSync(path.join(appDir, 'src'))) {
    copy(path.join(appDir, 'src', name), path.join(outDir, 'src', name));
  }
  // The module goes out as `.js`: some static servers (nginx before 1.21, many hosts' defaults)
  // send `.mjs` with a non-JavaScript type, which browsers refuse for a module import.
  const api = fs.readFileSync(path.join(packageDir, 'index.js'), 'utf8');
  const moduleImport = "from './dist/animconv_wasm.mjs'";
  if (!api.includes(moduleImport)) throw new Error(`${packageDir}/index.js no longer says ${moduleImport}`);
  fs.mkdirSync(path.join(outDir, 'animconv/dist'), {recursive: true});
  fs.writeFileSync(path.join(outDir, 'animconv/index.js'),
                   api.replace(moduleImport, "from './dist/animconv_wasm.js'"));
  copy(wasmModule, path.join(outDir, 'animconv/dist/animconv_wasm.js'));
  const copied = new Set();
  for (const entry of VENDOR_ENTRIES) {
    copyModuleTree(path.join(modules, entry.from), path.join(outDir, 'vendor', entry.to), copied);
  }
  let bytes = 0;
  let gzipped = 0;
  const files = listFiles(outDir);
  for (const file of files) {
    const content = fs.readFileSync(file);
    bytes += content.length;
    gzipped += zlib.gzipSync(content, {level: 9}).length;
  }
  return {files: files.length, bytes, gzipped};
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = parseArgs(process.argv.slice(2));
  const size = buildPage(args.package, args.out);
  console.log(`build.mjs: ${args.out}: ${size.files} files, ${(size.bytes / 1e6).toFixed(2)} MB, ` +
              `${(size.gzipped / 1e6).toFixed(2)} MB gzipped`);
}
