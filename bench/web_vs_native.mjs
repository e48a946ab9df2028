// WebAssembly vs native (docs/performance.md, "WebAssembly vs native"): the same conversion of a
// large Unity CSV to three.js JSON by the native CLI and by the npm package in Node, measured side
// by side in one run. Not a test: it prints numbers (and fails only when the outputs differ).
//
// Per pair, alternately (the order flips every pair, so drift of a loaded machine's speed hits
// both sides alike):
//   native      `animconv convert INPUT -o OUT.json`, a process (reads, converts, writes, fsyncs)
//   wasm        `convert({name, bytes}, {output})` in this process, the module warm (after
//               --warmup calls): the steady state of a page or a server that converts many files
//   wasm CLI    `node bench/web_convert_cli.mjs` in a fresh process: Node start, module
//               compilation and instantiation, read, convert, write: the "full call"
// plus, once, the first convert() of this process (module load + first call). Every output is
// compared byte for byte with the native one. Each run is timed by the wall clock and by its CPU
// time (user + system), the figure to read on a loaded machine. Also: the .wasm's size raw and gzipped, extracted
// from the single-file module (-sSINGLE_FILE embeds it as base64).
//
// Usage: node bench/web_vs_native.mjs --animconv BIN --package DIR --input FILE.csv
//          [--runs N (7)] [--warmup N (2)] [--no-cli]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { optionReader } from '../web/test/args.mjs';
import { median, ms, seconds, timedProcess as timed } from './process_timing.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = optionReader('web_vs_native', args);
const animconv = path.resolve(option('--animconv'));
const packageDir = path.resolve(option('--package'));
const input = path.resolve(option('--input'));
const runs = Number(option('--runs', '7'));
const warmups = Number(option('--warmup', '2'));
const withCli = !args.includes('--no-cli');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'animconv-web-vs-native-'));
const outputName = path.basename(input).replace(/\.csv$/i, '') + '.json';

function wasmSize() {
  const text = fs.readFileSync(path.join(packageDir, 'dist', 'animconv_wasm.mjs'), 'latin1');
  const match = text.match(/data:application\/octet-stream;base64,(AGFzbQ[A-Za-z0-9+/=]*)/);
  if (!match) throw new Error('web_vs_native: no embedded .wasm (base64 "\\0asm") in dist/animconv_wasm.mjs');
  const wasm = Buffer.from(match[1], 'base64');
  return {
    wasm: wasm.length,
    wasmGzip: zlib.gzipSync(wasm, { level: 9 }).length,
    module: text.length,
    moduleGzip: zlib.gzipSync(Buffer.from(text, 'latin1'), { level: 9 }).length,
  };
}

const timedProcess = (command, commandArgs, what) =>
  timed(command, commandArgs, what, path.join(tmp, 'time.txt'));

function runNative() {
  const out = path.join(tmp, `native_${outputName}`);
  return { ...timedProcess(animconv, ['convert', input, '-o', out], 'native animconv'), bytes: fs.readFileSync(out) };
}

function runWasmCli() {
  const out = path.join(tmp, `wasm_cli_${outputName}`);
  const cliArgs = [path.join(here, 'web_convert_cli.mjs'), packageDir, input, out];
  return { ...timedProcess(process.execPath, cliArgs, 'web_convert_cli.mjs'), bytes: fs.readFileSync(out) };
}

const inputBytes = new Uint8Array(fs.readFileSync(input));
// This process's CPU time (V8's compiler and GC threads included, as a child's would be).
async function runWasm(convert) {
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  const { files } = await convert({ name: path.basename(input), bytes: inputBytes }, { output: outputName });
  const cpu = process.cpuUsage(cpuStart);
  return { time: seconds(start), cpu: (cpu.user + cpu.system) / 1e6, bytes: files[0].bytes };
}

const mismatches = [];
function sameAs(reference, bytes, what) {
  if (!Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(reference)) {
    mismatches.push(`${what}: ${bytes.length} bytes differ from the native ${reference.length}`);
  }
}

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const size = wasmSize();
console.log(`input: ${input} (${inputBytes.length} bytes); ${os.cpus().length} CPUs; load average ${load()}`);
console.log(
  `module: .wasm ${size.wasm} bytes (${size.wasmGzip} gzip -9); dist/animconv_wasm.mjs ${size.module} bytes ` +
    `(${size.moduleGzip} gzip -9)`,
);

const reference = runNative().bytes;
const loadStart = process.hrtime.bigint();
const loadCpuStart = process.cpuUsage();
const { convert } = await import(pathToFileURL(path.join(packageDir, 'index.js')).href);
const first = await runWasm(convert);
const firstCall = seconds(loadStart);
const firstCpu = process.cpuUsage(loadCpuStart);
sameAs(reference, first.bytes, 'wasm first call');
console.log(
  `wasm first call in this process (module load + convert): ${ms(firstCall)} / ` +
    `${ms((firstCpu.user + firstCpu.system) / 1e6)} CPU`,
);
for (let i = 0; i < warmups; i++) sameAs(reference, (await runWasm(convert)).bytes, `warm-up ${i + 1}`);

const rows = [];
for (let pair = 0; pair < runs; pair++) {
  const row = {};
  const order = pair % 2 === 0 ? ['native', 'wasm', 'cli'] : ['cli', 'wasm', 'native'];
  for (const side of order) {
    if (side === 'native') {
      const native = runNative();
      sameAs(reference, native.bytes, `native run ${pair + 1}`);
      row.native = native.time;
      row.nativeCpu = native.cpu;
    } else if (side === 'wasm') {
      const wasm = await runWasm(convert);
      sameAs(reference, wasm.bytes, `wasm run ${pair + 1}`);
      row.wasm = wasm.time;
      row.wasmCpu = wasm.cpu;
    } else if (withCli) {
      const cli = runWasmCli();
      sameAs(reference, cli.bytes, `wasm CLI run ${pair + 1}`);
      row.cli = cli.time;
      row.cliCpu = cli.cpu;
    }
  }
  rows.push(row);
  const pairText = (key) => `${ms(row[key])} / ${ms(row[key + 'Cpu'])} CPU (${(row[key + 'Cpu'] / row.nativeCpu).toFixed(2)}×)`;
  console.log(
    `pair ${pair + 1}: native ${ms(row.native)} / ${ms(row.nativeCpu)} CPU, wasm ${pairText('wasm')}` +
      `${withCli ? `, wasm CLI ${pairText('cli')}` : ''}; load ${load()}`,
  );
}

// Wall clock and CPU time: medians over the pairs, and the median and range of the per-pair ratio
// to the native run of the same pair.
function summary(key, label) {
  const wall = rows.map((r) => r[key]);
  const cpu = rows.map((r) => r[key + 'Cpu']);
  let text = `  ${label.padEnd(22)} wall ${ms(median(wall))}, CPU ${ms(median(cpu))}`;
  if (key !== 'native') {
    const wallRatios = rows.map((r) => r[key] / r.native);
    const cpuRatios = rows.map((r) => r[key + 'Cpu'] / r.nativeCpu);
    const range = (values) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
    text += `; per-pair ratio to native: wall ${median(wallRatios).toFixed(2)}× (${range(wallRatios)}), ` +
      `CPU ${median(cpuRatios).toFixed(2)}× (${range(cpuRatios)})`;
  }
  console.log(text);
}
console.log(`medians over ${runs} pairs (${warmups} warm-up calls before):`);
summary('native', 'native CLI');
summary('wasm', 'wasm convert(), warm');
if (withCli) summary('cli', 'wasm as a CLI (node)');
console.log(`  output ${reference.length} bytes, ${mismatches.length === 0 ? 'byte-identical in every run' : 'DIFFERENT'}`);
fs.rmSync(tmp, { recursive: true, force: true });
if (mismatches.length > 0) {
  console.error(mismatches.join('\n'));
  process.exit(1);
}
