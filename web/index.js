// animconv for Node and browsers: the C++ library compiled to WebAssembly (docs/web.md). Each
// call writes its files into the module's in-memory file system, runs the command the CLI runs
// (web/src/api.cpp) and reads the outputs back, so the bytes are the native CLI's.
import createAnimconv from './dist/animconv_wasm.mjs';

let instance;
let jobCount = 0;

function wasm() {
  instance ??= createAnimconv();
  return instance;
}

// An error of the library: `kind` and `exitCode` are the CLI's (docs/cli.md: 1 usage,
// 2 bad-input, 3 io, 4 internal); `file` and `location` say where, as the CLI prints them.
export class AnimconvError extends Error {
  constructor(error, diagnostics) {
    super(error.text);
    this.name = 'AnimconvError';
    this.kind = error.kind;
    this.exitCode = error.exit_code;
    this.file = error.file;
    this.location = error.location;
    this.detail = error.message;
    this.diagnostics = diagnostics;
  }
}

function usage(text) {
  return new AnimconvError({kind: 'usage', exit_code: 1, file: '', location: '', message: text, text}, []);
}

// "boneMap" -> "bone-map": the CLI's option names, which the C++ side maps (option_values.h).
function optionName(key) {
  return key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

function checkFile(file, what) {
  if (!file || typeof file.name !== 'string' || !(file.bytes instanceof Uint8Array)) {
    throw usage(`${what} must be {name, bytes} with bytes a Uint8Array`);
  }
  const parts = file.name.split('/');
  if (file.name.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw usage(`${what}: '${file.name}' must be a relative name without '.' or '..' parts`);
  }
}

function writeFile(FS, file) {
  const parts = file.name.split('/');
  for (let i = 1; i < parts.length; ++i) {
    const dir = parts.slice(0, i).join('/');
    if (!FS.analyzePath(dir).exists) FS.mkdir(dir);
  }
  FS.writeFile(file.name, file.bytes);
}

function listFiles(FS, dir, prefix = '') {
  const files = [];
  for (const entry of FS.readdir(dir)) {
    if (entry === '.' || entry === '..') continue;
    const path = `${dir}/${entry}`;
    if (FS.isDir(FS.stat(path).mode)) {
      files.push(...listFiles(FS, path, `${prefix}${entry}/`));
    } else {
      files.push({name: prefix + entry, bytes: FS.readFile(path)});
    }
  }
  return files;
}

// Options that name a file (a model, a bone list, a bone map) take a name among the input's side
// files or {name, bytes}.
const FILE_OPTIONS = new Set(['skeleton', 'source-rig', 'bones', 'bone-map']);

function jobOptions(options, files) {
  const out = {};
  for (const [key, value] of Object.entries(options ?? {})) {
    const name = optionName(key);
    if (FILE_OPTIONS.has(name) && value && typeof value === 'object') {
      checkFile(value, name);
      files.push(value);
      out[name] = value.name;
    } else {
      out[name] = value;
    }
  }
  return out;
}

// Runs one request in a fresh folder of the in-memory file system, which is removed after.
async function run(inputs, request, collectOutputs) {
  const module = await wasm();
  const FS = module.FS;
  const dir = `/job${++jobCount}`;
  FS.mkdir(dir);
  FS.chdir(dir);
  try {
    for (const file of inputs) writeFile(FS, file);
    if (collectOutputs) FS.mkdir('out');
    const reply = JSON.parse(
      module.ccall('animconv_run', 'string', ['string'], [JSON.stringify(request)]));
    if (!reply.ok) throw new AnimconvError(reply.error, reply.diagnostics);
    const diagnostics = reply.diagnostics;
    const result = {
      ...reply.result,
      notes: diagnostics.filter((d) => d.severity === 'info').map((d) => d.text),
      warnings: diagnostics.filter((d) => d.severity === 'warning').map((d) => d.text),
      diagnostics,
    };
    if (collectOutputs) result.files = listFiles(FS, 'out');
    return result;
  } finally {
    FS.chdir('/');
    removeTree(FS, dir);
  }
}

function removeTree(FS, path) {
  for (const entry of FS.readdir(path)) {
    if (entry === '.' || entry === '..') continue;
    const child = `${path}/${entry}`;
    if (FS.isDir(FS.stat(child).mode)) removeTree(FS, child);
    else FS.unlink(child);
  }
  FS.rmdir(path);
}

function inputFiles(input, what) {
  checkFile(input, what);
  const files = [input];
  for (const side of input.files ?? []) {
    checkFile(side, `${what}.files`);
    files.push(side);
  }
  return files;
}

let formatList;

// What this build reads and writes: [{id, description, extensions, read, write}]. The web build
// has no Assimp (FBX, COLLADA), see docs/web.md.
export async function formats() {
  formatList ??= (await run([], {command: 'formats'}, false)).formats;
  return formatList.map((f) => ({...f, extensions: [...f.extensions]}));
}

// The output name when none is given: the input's name without its extension, with the output
// format's first one ("walk.csv" -> "walk.vrma").
async function outputName(inputName, to) {
  const list = await formats();
  const format = list.find((f) => f.id === to && f.write);
  if (!format) return null;  // the C++ side names the problem as the CLI does
  const base = inputName.split('/').pop();
  let stem = base;
  for (const f of list) {
    for (const extension of f.extensions) {
      if (base.toLowerCase().endsWith(extension) && base.length - extension.length < stem.length) {
        stem = base.slice(0, base.length - extension.length);
      }
    }
  }
  return stem + format.extensions[0];
}

// animconv convert INPUT -o OUTPUT: `to` is the output format id, `output` the output name
// (either one; the format then comes from its extension, as on the CLI); every other key is a CLI
// option ("allowPartial" or "allow-partial"). Resolves to {files: [{name, bytes}], notes,
// warnings, diagnostics, input_format, output_format, input_bytes, output_bytes}.
export async function convert(input, options = {}) {
  const {to, output, ...rest} = options;
  const files = inputFiles(input, 'input');
  const cliOptions = jobOptions(rest, files);
  let name = output;
  if (name === undefined) {
    if (to === undefined) throw usage('convert needs `to` (a format id) or `output` (a file name)');
    name = (await outputName(input.name, to)) ?? `output.${to}`;
  }
  if (typeof name !== 'string' || name.includes('/')) throw usage('`output` must be a file name');
  const request = {command: 'convert', input: input.name, output: `out/${name}`, options: cliOptions};
  if (to !== undefined) request.to = to;
  return run(files, request, true);
}

// The package's preview viewer template (web/CMakeLists.txt writes it into dist/): read from the
// package folder in Node, fetched beside this module in a browser.
let viewerTemplate;
async function packageViewer() {
  viewerTemplate ??= (async () => {
    const url = new URL('./dist/animconv_viewer.html', import.meta.url);
    if (url.protocol === 'file:') {
      const {readFile} = await import('node:fs/promises');
      return new Uint8Array(await readFile(url));
    }
    const response = await fetch(url);
    if (!response.ok) throw usage(`the preview viewer ${url} could not be fetched (${response.status})`);
    return new Uint8Array(await response.arrayBuffer());
  })();
  return viewerTemplate;
}

// animconv preview INPUT -o PAGE.html [--model MODEL]: one HTML page that plays the conversion
// from file:// (docs/cli.md, "preview"). `model` is {name, bytes} or the name of a side file;
// `to` the format played (default: chosen as the CLI chooses); `output` the page's name (default:
// the input's stem + ".html"); `viewer` another template as {name, bytes}; every other key a
// convert option. Resolves to {files: [{name, bytes}], show, output_name, output_format, ...}.
export async function preview(input, options = {}) {
  const {to, output, model, viewer, ...rest} = options;
  const files = inputFiles(input, 'input');
  const cliOptions = jobOptions(rest, files);
  const base = input.name.split('/').pop();
  const name = output ?? `${base.replace(/\.[^.]*$/, '')}.html`;
  if (typeof name !== 'string' || name.includes('/')) throw usage('`output` must be a file name');
  const template = viewer ?? {name: '.animconv_viewer.html', bytes: await packageViewer()};
  checkFile(template, 'viewer');
  files.push(template);
  const request = {command: 'preview', input: input.name, output: `out/${name}`,
                   viewer: template.name, options: cliOptions};
  if (model !== undefined) {
    if (model && typeof model === 'object') {
      checkFile(model, 'model');
      files.push(model);
      request.model = model.name;
    } else {
      request.model = model;
    }
  }
  if (to !== undefined) request.to = to;
  return run(files, request, true);
}

// animconv info INPUT --json: resolves to the same report object the CLI prints.
export async function info(input, options = {}) {
  const files = inputFiles(input, 'input');
  const cliOptions = jobOptions(options, files);
  const result = await run(files, {command: 'info', input: input.name, options: cliOptions}, false);
  return result;
}

// animconv diff A B --json: resolves to the same report object the CLI prints.
export async function diff(a, b, options = {}) {
  const files = [...inputFiles(a, 'a'), ...inputFiles(b, 'b')];
  const cliOptions = jobOptions(options, files);
  return run(files, {command: 'diff', inputs: [a.name, b.name], options: cliOptions}, false);
}

// animconv bake INPUT -o OUTPUT: a glTF morph animation baked into per-frame geometry for p5.js
// (docs/cookbook/p5js.md). `output` defaults to the input's stem + ".frames.json". Resolves to
// {files: [{name, bytes}], clip, node, frames, vertices, notes, warnings, diagnostics}.
export async function bake(input, options = {}) {
  const {output, ...rest} = options;
  const files = inputFiles(input, 'input');
  const cliOptions = jobOptions(rest, files);
  const base = input.name.split('/').pop();
  const name = output ?? `${base.replace(/\.[^.]*$/, '')}.frames.json`;
  if (typeof name !== 'string' || name.includes('/')) throw usage('`output` must be a file name');
  return run(files, {command: 'bake', input: input.name, output: `out/${name}`, options: cliOptions},
             true);
}

// animconv batch INPUT... -o OUTDIR --to FORMAT: many inputs with one set of options, one after
// the other. Resolves to {files: [{name, bytes}] (named as the CLI names them in OUTDIR),
// results: [{input, output, status, message, exit_code, diagnostics, ...}], wall_seconds}; a
// file that fails is a result with status "failed", not an exception.
export async function batch(inputs, options = {}) {
  // A fresh in-memory folder each call: nothing to overwrite or skip; one file at a time.
  const {to, jobs, overwrite, skipExisting, 'skip-existing': skip, ...rest} = options;
  if (!Array.isArray(inputs)) throw usage('batch takes an array of inputs');
  const files = inputs.flatMap((input, i) => inputFiles(input, `inputs[${i}]`));
  const cliOptions = jobOptions(rest, files);
  const request = {command: 'batch', inputs: inputs.map((input) => input.name), output_dir: 'out',
                   to, options: cliOptions};
  const result = await run(files, request, true);
  for (const entry of result.results) entry.output = entry.output.replace(/^out\//, '');
  return result;
}

// animconv bones [NAME...]: without names, the humanoid bone table (`{from, to}` pick its
// columns); with names, each translated into `to` (default vrm1). Resolves to {text, ...}.
export async function bones(names = [], {from, to} = {}) {
  const request = {command: 'bones', names};
  if (from !== undefined) request.from = from;
  if (to !== undefined) request.to = to;
  return run([], request, false);
}
