// The WebAssembly build used as a command line, for bench/web_vs_native.mjs: a fresh Node process
// that loads the npm package, reads INPUT, converts it with convert() and writes OUTPUT (the
// format from OUTPUT's extension, as `animconv convert INPUT -o OUTPUT`). Timed from outside, as
// the native CLI's process is.
//
// Usage: node bench/web_convert_cli.mjs PACKAGE_DIR INPUT OUTPUT
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [packageDir, input, output] = process.argv.slice(2);
if (!output) {
  console.error('usage: node bench/web_convert_cli.mjs PACKAGE_DIR INPUT OUTPUT');
  process.exit(1);
}
const { convert } = await import(pathToFileURL(path.resolve(packageDir, 'index.js')).href);
const bytes = new Uint8Array(fs.readFileSync(input));
const { files } = await convert({ name: path.basename(input), bytes }, { output: path.basename(output) });
fs.writeFileSync(output, files[0].bytes);
