#!/usr/bin/env node
// Checks docs/cli.md against the options the tool accepts (issue 13, items 10 and 12), and that
// no page cites a file the repository does not hold:
//
//   node check_doc_options.mjs --animconv BIN --source REPO
//
// - every option `animconv COMMAND --help` lists is named in that command's section of cli.md
//   (`batch` takes convert's options: "every option above applies");
// - every option named in the first column of a section's option table is one the command takes
//   (a documented option the tool rejects is worse than an undocumented one);
// - README.md, docs/, the sources (C++, CMake, Python, JavaScript) and their READMEs cite no `shared/reference/`
//   or `shared/seeds/` file: those notes live beside the repository, not in it, so a reader
//   cannot follow them; cite the public spec or our own pages instead.
// Prints one line per failure and "N passed, N failed"; exit 1 on failure, 2 on usage errors.

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
if (!args.animconv || !args.source) {
  console.error('usage: check_doc_options.mjs --animconv BIN --source REPO');
  process.exit(2);
}

const failures = [];
let passed = 0;
const check = (ok, message) => (ok ? passed++ : failures.push(message));

// The long options of a --help text: boost::program_options prints `  -o [ --output ] arg` or
// `  --json`, one per option line.
function helpOptions(command) {
  const text = execFileSync(args.animconv, [command, '--help'], { encoding: 'utf8' });
  const options = new Set();
  for (const line of text.split('\n')) {
    const match = /^\s{2}(?:-\w \[ )?--([\w-]+)/.exec(line);
    if (match) options.add(match[1]);
  }
  options.delete('help');
  return options;
}

const cli = readFileSync(join(args.source, 'docs/cli.md'), 'utf8');

// The text of `### \`COMMAND ...\`` up to the next heading of that level or higher.
function section(command) {
  const start = cli.search(new RegExp('^### `' + command + '\\b', 'm'));
  if (start < 0) return '';
  const rest = cli.slice(start + 4);
  const end = rest.search(/^#{1,3} /m);
  return end < 0 ? rest : rest.slice(0, end);
}

const named = (text) => new Set([...text.matchAll(/--([a-z][\w-]*)/g)].map((m) => m[1]));

function tableOptions(text) {
  const options = new Set();
  for (const line of text.split('\n')) {
    if (!line.startsWith('| `')) continue;
    for (const option of named(line.split('|')[1])) options.add(option);
  }
  return options;
}

for (const command of ['convert', 'info', 'bake', 'batch', 'diff', 'preview']) {
  const help = helpOptions(command);
  const text = section(command);
  check(text !== '', `cli.md has no section for ${command}`);
  // batch and preview take every convert option: their sections say so and list only their own.
  const documented = named(['batch', 'preview'].includes(command) ? text + section('convert') : text);
  for (const option of help) {
    check(documented.has(option),
          `cli.md, ${command}: --${option} is in \`animconv ${command} --help\` but not in the section`);
  }
  for (const option of tableOptions(text)) {
    check(help.has(option),
          `cli.md, ${command}: the table documents --${option}, which \`animconv ${command}\` does not take`);
  }
}

function markdownFiles() {
  const files = [join(args.source, 'README.md')];
  const walk = (dir) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.md')) files.push(path);
    }
  };
  walk(join(args.source, 'docs'));
  return files;
}

// Source files whose comments could cite: everything but dependencies (node_modules) and this
// script, whose own pattern would match itself.
function sourceFiles() {
  const files = [];
  const self = join(args.source, 'tests', 'docs', 'check_doc_options.mjs');
  const walk = (dir) => {
    for (const entry of readdirSync(dir).sort()) {
      if (entry === 'node_modules' || entry.startsWith('.')) continue;
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(cpp|h|mjs|cmake|py|md)$|^CMakeLists\.txt$/.test(entry) && path !== self) files.push(path);
    }
  };
  for (const dir of ['include', 'libconvert', 'formats', 'pipeline', 'cli', 'bench', 'fuzz', 'scripts', 'tests', 'cmake', 'data']) {
    try {
      if (statSync(join(args.source, dir)).isDirectory()) walk(join(args.source, dir));
    } catch {}
  }
  files.push(join(args.source, 'CMakeLists.txt'));
  return files;
}

for (const file of [...markdownFiles(), ...sourceFiles()]) {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, index) => {
    const cited = /shared\/(reference|seeds)\/|\b(formats|anchors)\.md`?\s*§/.exec(line);
    check(!cited, `${relative(args.source, file)}:${index + 1}: cites '${cited?.[0]}', which is not in the repository`);
  });
}

for (const failure of failures) console.log(failure);
console.log(`${passed} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
