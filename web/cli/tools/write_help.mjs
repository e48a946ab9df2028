// Build step (web/CMakeLists.txt): records the native CLI's help texts for the npm CLI, which
// prints them and reads its option grammar from them (web/cli/options.mjs).
// Usage: node write_help.mjs NATIVE_ANIMCONV OUT.json
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';

const [native, out] = process.argv.slice(2);
const run = (...args) => execFileSync(native, args, {encoding: 'utf8'});
const commands = {};
for (const command of ['convert', 'info', 'batch', 'bake', 'formats', 'bones', 'diff', 'preview']) {
  commands[command] = command === 'formats' ? '' : run(command, '--help');
}
const help = {version: run('--version').trim(), usage: run('--help'), commands};
fs.writeFileSync(out, JSON.stringify(help, null, 1) + '\n');
