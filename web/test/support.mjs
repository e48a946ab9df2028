// Shared by the web tests (docs/testing.md, "Web build"): running the native CLI in a folder,
// the files of a folder as API inputs, and CLI option lists as the API's option objects.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// The CLI's switches (docs/cli.md); every other option takes a value. --reduce-hierarchical
// takes an optional one.
const SWITCHES = new Set(['allow-partial', 'three-array', 'loop', 'reduce', 'reduce-keep-rest', 'ground']);
const OPTIONAL_VALUE = new Set(['reduce-hierarchical']);
const NUMBERS = new Set([
  'interval', 'fps', 'scale', 'max-input-mb', 'precision', 'speed', 'offset', 'resample',
  'loop-blend', 'reduce-rotation', 'reduce-translation', 'reduce-scale', 'reduce-weight',
  'reduce-hierarchical', 'hierarchical', 'samples-between', 'cubic-chord-fraction',
]);

// ['--from', 'unity-csv', '--reduce'] -> {from: 'unity-csv', reduce: true}: the option object
// the API takes for the same command line (values typed as JSON numbers where the CLI reads
// numbers; the --max-* limits stay text, as the CLI checks them).
export function optionsFromArgs(args) {
  const options = {};
  for (let i = 0; i < args.length; ++i) {
    const name = args[i].replace(/^--/, '');
    const next = args[i + 1];
    if (SWITCHES.has(name)) {
      options[name] = true;
    } else if (OPTIONAL_VALUE.has(name) && (next === undefined || next.startsWith('--'))) {
      options[name] = true;
    } else {
      const value = args[++i];
      options[name] = NUMBERS.has(name) && value !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
    }
  }
  return options;
}

// Runs the native CLI in `cwd`; the error line without its "animconv: error: " prefix.
export function runNative(animconv, args, cwd) {
  const result = spawnSync(animconv, args, { cwd, encoding: 'utf8', maxBuffer: 256 << 20 });
  if (result.error) throw result.error;
  const lines = result.stderr.split('\n').filter((l) => l);
  const errorLine = lines.find((l) => l.startsWith('animconv: error: '));
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    lines,
    error: errorLine ? errorLine.slice('animconv: error: '.length) : null,
  };
}

// Every file under `dir` as {name, bytes}, names relative to `dir`.
export function filesUnder(dir, prefix = '') {
  const files = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...filesUnder(full, `${prefix}${entry.name}/`));
    else if (entry.isFile()) files.push({ name: prefix + entry.name, bytes: new Uint8Array(fs.readFileSync(full)) });
  }
  return files;
}

// The API input for `name` in `dir`: the file, with every other file of the folder as side files.
export function apiInput(dir, name) {
  const all = filesUnder(dir);
  const input = all.find((f) => f.name === name);
  if (!input) throw new Error(`${name} is not in ${dir}`);
  return { ...input, files: all.filter((f) => f !== input) };
}

// A diagnostic as the CLI prints it at its default level (info and warnings; texts are
// terminal-escaped there, which changes nothing for printable text).
export const printed = (diagnostics) =>
  diagnostics.filter((d) => d.severity !== 'debug').map((d) => `animconv: ${d.severity}: ${d.text}`);

export const sameBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
