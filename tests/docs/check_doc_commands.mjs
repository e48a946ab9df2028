#!/usr/bin/env node
// Runs every animconv command that README.md and docs/ show, as a reader would type it, so the
// docs and the tool cannot drift apart (issue "silent wrong results", item 12).
//
//   node check_doc_commands.mjs --animconv BIN --source REPO --shared SHARED_DATA [--work DIR]
//
// What is run: in every fenced block of a page (```sh, ```bash, ```console or plain), each line
// that starts with `animconv ` (or `$ animconv ` in a block of prompts) — not synopses such as
// `animconv [-v|-q] COMMAND`. Lines that use shell variables or GNU parallel's `{}` belong to a
// script around them and are listed as not run. A page's commands run in order, in one fresh
// folder of its own, through `sh -c` with `animconv` on PATH, so a later command may read what an
// earlier one wrote.
//
// Inputs: a file name a command reads that the folder does not hold yet is looked up in FIXTURES
// below (the sample the docs stand for) and copied in under that name; `data/...` paths are the
// repository's own. A name with no fixture fails the check: add one, or fix the page. In a block
// of prompts, `$ cat FILE` followed by lines writes those lines to FILE (how a page shows a map
// file), and the lines after an animconv command are its expected output: each one must appear
// in what the command printed (spaces folded), unless the command's comment ends with ':' (a
// description, not literal output) or the line is '…'.
//
// Every command must exit 0, unless its comment says `# exit N`.
// Prints one line per failure and "N passed, N failed"; exit 1 on failure, 2 on usage errors.

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync,
         statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
if (!args.animconv || !args.source || !args.shared) {
  console.error('usage: check_doc_commands.mjs --animconv BIN --source REPO --shared SHARED_DATA [--work DIR]');
  process.exit(2);
}

// The file names the docs use, and the samples they stand for. "R:" = this repository, "S:" = the
// shared sample data. A folder entry copies every file of `files`.
const FIXTURES = {
  'anim.csv': 'R:data/unity/anim.csv',
  'walk.csv': 'R:data/unity/walk.csv',
  'avatar.vrm': 'S:vrm/vrmaddon_debug_robot.vrm',       // a VRM 1.0 humanoid
  'avatar.glb': 'S:vrm/vrmaddon_debug_robot.vrm',       // a humanoid glTF model
  // A body-only humanoid VRMA: three-vrm_test.vrma's expression and lookAt tracks have no place
  // in a --skeleton clip, a partial output (docs/cli.md) that needs --allow-partial.
  'Walk.vrma': 'S:vrm/vrmaddon_nop.vrma',
  'walk.bvh': 'R:data/bvh/cmu_walk_hips_at_origin.bvh', // CMU-style: OFFSET 0, units ~2.3 cm
  'pirouette.bvh': 'S:bvh/threejs_pirouette.bvh',        // spins on the spot (--root-yaw)
  'dance.fbx': 'R:data/fbx/mixamo_wave.fbx',
  'Fox.glb': 'S:skeletal/khronos_Fox.glb',
  'AnimatedMorphCube.gltf': ['S:morph/khronos_AnimatedMorphCube/glTF/AnimatedMorphCube.gltf',
                             'S:morph/khronos_AnimatedMorphCube/glTF/AnimatedMorphCube.bin'],
  'RobotExpressive.glb': 'S:morph/threejs_RobotExpressive.glb',
  'Horse.glb': 'S:morph/threejs_Horse.glb',
  'model.glb': 'S:morph/threejs_SittingBox.glb',          // one morph animation
  'facecap.glb': 'S:morph/threejs_facecap_meshopt.glb',  // ARKit blendshapes (face_capture_vrma.md)
  'model.gltf': 'R:data/gltf/morph_cube.gltf',
  'mocap/': { files: ['R:data/bvh/cmu_walk.bvh', 'R:data/bvh/mixamo_wave.bvh', 'R:data/bvh/daz_genesis8_walk.bvh'] },
  'extra/': { files: ['R:data/bvh/cmu_walk_hips_at_origin.bvh'] },
  // A clip with VRM 1.0 thumb names but no Metacarpal track (rename-bones.md, the thumb trap).
  'clip.json': { text: JSON.stringify({
    name: 'thumbs', duration: 1,
    tracks: ['hips', 'spine', 'chest', 'neck', 'head', 'leftUpperArm', 'leftLowerArm', 'leftHand',
             'leftThumbProximal', 'leftThumbDistal'].map((bone) => ({
      name: `${bone}.quaternion`, type: 'quaternion', times: [0, 1], values: [0, 0, 0, 1, 0, 0, 0, 1],
    })),
  }) },
};
const INPUT_EXTENSIONS = /\.(csv|json|glb|gltf|vrm|vrma|bvh|fbx|dae|map|txt)$/i;
// Options whose value is written, not read.
const OUTPUT_OPTIONS = new Set(['-o', '--output', '--report']);

const source = args.source;
const resolveFixture = (spec) => (spec.startsWith('R:') ? join(source, spec.slice(2)) : join(args.shared, spec.slice(2)));

function markdownFiles() {
  const files = [join(source, 'README.md')];
  const walk = (dir) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.md')) files.push(path);
    }
  };
  walk(join(source, 'docs'));
  return files;
}

// The commands of one page: {line, command, comment, expected: [lines], writes: {file, text}}.
function commandsOf(text) {
  const steps = [];
  const lines = text.split('\n');
  let inBlock = false;
  let lang = '';
  let block = [];
  const flush = () => {
    const prompts = block.some((entry) => /^\s*\$ /.test(entry.text));
    let current = null;
    for (const { text: raw, line } of block) {
      const text = raw.trim();
      if (prompts) {
        if (text.startsWith('$ ')) {
          current = null;
          const command = text.slice(2);
          const cat = /^cat (\S+)$/.exec(command);
          if (cat) {
            current = { line, writes: { file: cat[1], text: '' } };
            steps.push(current);
          } else if (command.startsWith('animconv ')) {
            current = { line, ...splitComment(command), expected: [] };
            steps.push(current);
          }
        } else if (current?.writes) {
          current.writes.text += `${text}\n`;
        } else if (current?.expected) {
          current.expected.push(text);
        }
      } else if (text.startsWith('animconv ') && !/^animconv \[/.test(text)) {
        steps.push({ line, ...splitComment(text), expected: [] });
      }
    }
  };
  lines.forEach((raw, index) => {
    const fence = /^\s*```(\w*)/.exec(raw);
    if (fence) {
      if (inBlock) {
        if (['', 'sh', 'bash', 'console', 'shell'].includes(lang)) flush();
        inBlock = false;
        block = [];
      } else {
        inBlock = true;
        lang = fence[1];
      }
      return;
    }
    if (inBlock) block.push({ text: raw, line: index + 1 });
  });
  return steps;
}

function splitComment(text) {
  // A '#' after a space starts a comment (names in the docs hold no ' #').
  const at = text.search(/\s#\s?/);
  return at < 0 ? { command: text, comment: '' } : { command: text.slice(0, at).trim(), comment: text.slice(at).replace(/^\s*#\s?/, '') };
}

function provide(folder, name, problems) {
  const target = join(folder, name);
  if (existsSync(target)) return;
  if (name.startsWith('data/')) return;  // the repository's own, linked into every folder
  const spec = FIXTURES[name] ?? FIXTURES[basename(name)];
  if (spec === undefined) {
    problems.push(`no fixture for '${name}' (add one to FIXTURES in tests/docs/check_doc_commands.mjs, or fix the page)`);
    return;
  }
  mkdirSync(dirname(target), { recursive: true });
  if (typeof spec === 'string') {
    copyFileSync(resolveFixture(spec), target);
  } else if (Array.isArray(spec)) {
    copyFileSync(resolveFixture(spec[0]), target);
    for (const side of spec.slice(1)) copyFileSync(resolveFixture(side), join(dirname(target), basename(side)));
  } else if (spec.text !== undefined) {
    writeFileSync(target, spec.text);
  } else {
    mkdirSync(target, { recursive: true });
    for (const file of spec.files) copyFileSync(resolveFixture(file), join(target, basename(file)));
  }
}

// The files a command reads: arguments that look like input files or folders, not option values
// that are outputs.
function inputsOf(command) {
  const words = command.split(/\s+/).slice(1);
  const inputs = [];
  for (let i = 0; i < words.length; ++i) {
    const word = words[i].replace(/^["']|["']$/g, '');
    if (OUTPUT_OPTIONS.has(word)) { ++i; continue; }
    if (word.startsWith('-')) continue;
    if (word.endsWith('/')) inputs.push(word);
    else if (/\*/.test(word)) inputs.push(`${dirname(word)}/`);
    else if (INPUT_EXTENSIONS.test(word)) inputs.push(word);
  }
  return inputs;
}

const fold = (text) => text.replace(/\s+/g, ' ').trim();
const binDir = dirname(args.animconv);
const work = args.work ?? mkdtempSync(join(tmpdir(), 'animconv-docs-'));
let passed = 0;
let failed = 0;
const notRun = [];
const fail = (where, message) => { ++failed; console.log(`FAIL ${where}: ${message}`); };

for (const page of markdownFiles()) {
  const steps = commandsOf(readFileSync(page, 'utf8'));
  if (steps.length === 0) continue;
  const name = relative(source, page);
  const folder = join(work, name.replace(/[/.]/g, '_'));
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  symlinkSync(join(source, 'data'), join(folder, 'data'));
  for (const step of steps) {
    const where = `${name}:${step.line}`;
    if (step.writes) {
      writeFileSync(join(folder, step.writes.file), step.writes.text);
      continue;
    }
    if (/\$|\{\}/.test(step.command)) {
      notRun.push(`${where}: ${step.command}`);
      continue;
    }
    const problems = [];
    for (const input of inputsOf(step.command)) provide(folder, input, problems);
    if (problems.length > 0) {
      for (const problem of problems) fail(where, problem);
      continue;
    }
    const run = spawnSync('sh', ['-c', step.command], {
      cwd: folder, encoding: 'utf8', env: { ...process.env, PATH: `${binDir}:${process.env.PATH}` },
    });
    const expectedExit = Number(/exit (\d+)/.exec(step.comment)?.[1] ?? 0);
    const printed = `${run.stdout}${run.stderr}`;
    if (run.status !== expectedExit) {
      fail(where, `\`${step.command}\` exited ${run.status}, expected ${expectedExit}: ${printed.trim().split('\n').slice(-3).join(' | ')}`);
      continue;
    }
    const literal = !step.comment.trim().endsWith(':');
    const shown = literal ? step.expected.filter((line) => line !== '' && line !== '…') : [];
    const missing = shown.filter((line) => !fold(printed).includes(fold(line)));
    if (missing.length > 0) {
      fail(where, `\`${step.command}\` did not print what the page shows: ${missing.slice(0, 3).join(' | ')}`);
      continue;
    }
    ++passed;
  }
}
for (const line of notRun) console.log(`not run (part of a shell script): ${line}`);
if (!args.work) rmSync(work, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
