#!/usr/bin/env node
// `npx animconv ...`: the native CLI's commands, options, messages and exit codes (docs/cli.md),
// run by the WebAssembly module (docs/web.md, "The npm CLI"). The grammar and help texts are the
// native CLI's own (help.json, options.mjs); the work, the checks and the texts printed are the
// C++ code's (web/src/api.cpp); this file only dispatches, prints and handles signals.
import fs from 'node:fs';
import path from 'node:path';
import {Worker} from 'node:worker_threads';

import {modulePath} from './host_fs.mjs';
import {optionsFromHelp, parseArgs, UsageError} from './options.mjs';
import {printBatch} from './batch_output.mjs';
import {Logger} from './logger.mjs';

const EXIT = {usage: 1, internal: 4};
const here = path.dirname(new URL(import.meta.url).pathname);

function loadHelp() {
  const file = path.join(here, 'help.json');
  if (!fs.existsSync(file)) {
    throw new Error('this package was built without the native help texts (web/cli/help.json): ' +
                    'build it with scripts/web.sh');
  }
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

// What each command takes besides its options (cli/*_command.cpp): its positionals, its required
// options (Boost's notify), and the usage line its own errors quote.
const COMMANDS = {
  convert: {positionals: 1, required: ['output'], usage: 'animconv convert INPUT -o OUTPUT [options]'},
  info: {positionals: 1, required: [], usage: 'animconv info INPUT [--json] [options]'},
  bake: {positionals: 1, required: ['output'], usage: 'animconv bake INPUT -o OUTPUT [options]'},
  batch: {positionals: Infinity, required: ['output', 'to']},
  bones: {positionals: Infinity, required: []},
  diff: {positionals: 2, required: [],
         usage: 'animconv diff A B [--clip NAME|INDEX] [--json] [options]'},
  preview: {positionals: 1, required: ['output'],
            usage: 'animconv preview INPUT -o PAGE.html [--model MODEL] [options]'},
};

// Options the command line turns into request fields rather than library options.
const OWN = {
  convert: ['help', 'output', 'to'],
  info: ['help', 'json'],
  bake: ['help', 'output'],
  batch: ['help', 'output', 'to', 'jobs', 'report', 'overwrite', 'skip-existing'],
  diff: ['help', 'json', 'top'],
  preview: ['help', 'output', 'to', 'model', 'viewer'],
};

class Session {
  constructor(logger) {
    this.logger = logger;
    this.stopBuffer = new SharedArrayBuffer(4);
    this.worker = null;
    this.pending = null;
    this.outputs = [];  // [{folder, name|null, before: Set}]: whose temporaries Ctrl-C removes
  }

  start() {
    if (this.worker) return;
    this.worker = new Worker(new URL('./worker.mjs', import.meta.url),
                             {workerData: {cwd: process.cwd(), stopBuffer: this.stopBuffer}});
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (message) => {
        if (message.ready) resolve();
        else if (message.progress) this.onProgress?.(JSON.parse(message.progress));
        else if (message.reply) this.pending?.resolve(JSON.parse(message.reply));
      });
      this.worker.on('error', (error) => (this.pending ?? {reject}).reject(error));
    });
  }

  async run(request) {
    this.start();
    await this.ready;
    return new Promise((resolve, reject) => {
      this.pending = {resolve, reject};
      this.worker.postMessage(request);
    });
  }

  // The C++ code's EscapeForTerminal, the one the native CLI applies to every message.
  async escape(texts) {
    if (texts.length === 0) return [];
    return (await this.run({command: 'escape', texts})).result.texts;
  }

  close() {
    this.worker?.terminate();
  }
}

// The temporaries an interrupted write leaves (libconvert/io.cpp: ".NAME.XXXXXXXX.tmp"), in
// `folder` and below it when `name` is null (a batch's output tree).
const TEMPORARY = /^\..+\.[0-9a-f]{8}\.tmp$/;
function temporariesIn(folder, name, found = new Set()) {
  let entries;
  try {
    entries = fs.readdirSync(folder, {withFileTypes: true});
  } catch {
    return found;
  }
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory() && name === null) temporariesIn(full, null, found);
    else if (TEMPORARY.test(entry.name) &&
             (name === null || entry.name.startsWith(`.${name}.`))) found.add(full);
  }
  return found;
}

function watchOutput(session, outputPath, tree) {
  const folder = tree ? outputPath : path.dirname(outputPath);
  const name = tree ? null : path.basename(outputPath);
  session.outputs.push({folder, name, before: temporariesIn(folder, name)});
}

// Ctrl-C, SIGTERM, SIGHUP: the native CLI removes its temporary files and dies by the signal
// (cli/interrupt.cpp); a batch first finishes the files in flight and starts no new one.
function handleSignals(session, {batch}) {
  let stopping = false;
  const onSignal = (signal) => {
    if (batch && !stopping) {
      stopping = true;
      Atomics.store(new Int32Array(session.stopBuffer), 0, 1);
      return;
    }
    session.close();
    for (const {folder, name, before} of session.outputs) {
      for (const file of temporariesIn(folder, name)) {
        if (!before.has(file)) fs.rmSync(file, {force: true});
      }
    }
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.removeAllListeners(s);
    process.kill(process.pid, signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onSignal);
}

// The parsed options as the library's option object: every value as typed (the C++ side reads
// it as Boost reads it), switches as true.
function libraryOptions(values, command, cwd) {
  const options = {};
  for (const [name, value] of values) {
    if (OWN[command].includes(name)) continue;
    const isPath = ['bones', 'bone-map', 'skeleton', 'source-rig'].includes(name);
    options[name] = isPath ? modulePath(value, cwd) : value;
  }
  return options;
}

async function main(argv) {
  const logger = new Logger();
  let args = argv;
  while (args.length > 0 && ['-v', '--verbose', '-q', '--quiet'].includes(args[0])) {
    logger.level = args[0] === '-v' || args[0] === '--verbose' ? 'debug' : 'error';
    args = args.slice(1);
  }
  const help = loadHelp();
  if (args.length === 0 || ['-h', '--help', 'help'].includes(args[0])) {
    process.stdout.write(help.usage);
    return args.length === 0 ? 1 : 0;
  }
  if (args[0] === '--version') {
    process.stdout.write(help.version + '\n');
    return 0;
  }
  const [command, ...rest] = args;
  const session = new Session(logger);
  try {
    return await runCommand(session, help, command, rest);
  } catch (error) {
    if (error instanceof UsageError) {
      await logger.print(session, 'error', [error.message]);
      return EXIT.usage;
    }
    await logger.print(session, 'error', [`internal error: ${error.message}`]);
    return EXIT.internal;
  } finally {
    session.close();
  }
}

async function runCommand(session, help, command, args) {
  const cwd = process.cwd();
  if (command === 'formats') {
    if (args.length > 0 && args[0] !== '--help' && args[0] !== '-h') {
      throw new UsageError('formats takes no arguments');
    }
    return finish(session, await session.run({command: 'formats'}), (result) => {
      process.stdout.write(result.text);
    });
  }
  const spec = COMMANDS[command];
  if (!spec) throw new UsageError(`unknown command '${command}'; see animconv --help`);
  const {values, positionals} =
      parseArgs(args, optionsFromHelp(help.commands[command]), spec.positionals);
  const options = command === 'bones' ? {} : libraryOptions(values, command, cwd);
  // Boost reads each value as it stores it, before --help, the required options and the inputs
  // are looked at: an invalid number is the first error.
  if (command !== 'bones') {
    const checked = await session.run({command: 'check-options', set: command, options});
    if (!checked.ok) return finish(session, checked, () => {});
  }
  if (values.has('help')) {
    process.stdout.write(help.commands[command]);
    return 0;
  }
  for (const name of spec.required) {
    if (!values.has(name)) throw new UsageError(`the option '--${name}' is required but missing`);
  }
  if (spec.positionals === 1 && positionals.length === 0) {
    throw new UsageError(`missing input; usage: ${spec.usage}`);
  }
  if (command === 'diff' && positionals.length !== 2) {
    throw new UsageError(`diff needs two inputs; usage: ${spec.usage}`);
  }
  const paths = positionals.map((p) => modulePath(p, cwd));
  switch (command) {
    case 'convert': {
      const output = values.get('output');
      watchOutput(session, output, false);
      handleSignals(session, {batch: false});
      const request = {command, input: paths[0], output: modulePath(output, cwd), options};
      if (values.has('to')) request.to = values.get('to');
      return finish(session, await session.run(request), (result) => [
        `${positionals[0]} (${result.input_format}, ${result.input_bytes} bytes) -> ${output} ` +
            `(${result.output_format}, ${result.output_bytes} bytes)`,
      ]);
    }
    case 'bake': {
      const output = values.get('output');
      watchOutput(session, output, false);
      handleSignals(session, {batch: false});
      const request = {command, input: paths[0], output: modulePath(output, cwd), options};
      return finish(session, await session.run(request), (result) => [
        `${positionals[0]}: clip '${result.clip}', node '${result.node}': ${result.frames} ` +
            `frames of ${result.vertices} vertices -> ${output}`,
      ]);
    }
    case 'preview': {
      const output = values.get('output');
      watchOutput(session, output, false);
      handleSignals(session, {batch: false});
      // The template the package carries (web/CMakeLists.txt), as the native CLI finds its own
      // beside the binary.
      const viewer = values.get('viewer') ?? path.join(here, '..', 'dist', 'animconv_viewer.html');
      const request = {command, input: paths[0], output: modulePath(output, cwd),
                       viewer: modulePath(viewer, cwd), options};
      if (values.has('model')) request.model = modulePath(values.get('model'), cwd);
      if (values.has('to')) request.to = values.get('to');
      return finish(session, await session.run(request), (result) => [
        `${positionals[0]} (${result.input_format}) -> ${result.output_name} ` +
            `(${result.output_format}, ${result.show}) in ${output} (${result.page_bytes} bytes)`,
      ]);
    }
    case 'info':
    case 'diff': {
      const request = command === 'info' ? {command, input: paths[0], options}
                                          : {command, inputs: paths, options};
      if (values.has('top')) request.top = values.get('top');
      return finish(session, await session.run(request), (result) => {
        process.stdout.write(values.has('json') ? result.report_text + '\n' : result.text);
      });
    }
    case 'bones': {
      const request = {command, names: positionals};
      if (values.has('from')) request.from = values.get('from');
      if (values.has('to')) request.to = values.get('to');
      return finish(session, await session.run(request), (result) => {
        process.stdout.write(result.text);
      });
    }
    case 'batch': {
      const output = values.get('output');
      watchOutput(session, output, true);
      handleSignals(session, {batch: true});
      const request = {
        command, inputs: paths, output_dir: modulePath(output, cwd), to: values.get('to'),
        overwrite: values.has('overwrite'), skip_existing: values.has('skip-existing'), options,
      };
      if (values.has('jobs')) request.jobs = values.get('jobs');
      if (values.has('report')) request.report = modulePath(values.get('report'), cwd);
      return printBatch(session, request);
    }
  }
  throw new UsageError(`unknown command '${command}'; see animconv --help`);
}

// Prints the diagnostics (before the error, when there is one), then the command's own output:
// `done(result)` writes to stdout itself or returns info lines to log.
async function finish(session, reply, done) {
  const {logger} = session;
  await logger.printDiagnostics(session, reply.diagnostics);
  if (!reply.ok) {
    await logger.print(session, 'error', [reply.error.text], {escaped: true});
    return reply.error.exit_code;
  }
  const lines = done(reply.result);
  if (Array.isArray(lines)) await logger.print(session, 'info', lines);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
