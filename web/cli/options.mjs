// The npm CLI's command-line grammar, read from the native CLI's own help texts (help.json, made
// at build time from `animconv COMMAND --help`), and parsed as Boost.Program_options parses the
// native command line (cli/input_options.cpp): long options with unambiguous prefixes
// ("--out" = "--output"), "--name value" or "--name=value", short "-o value" or "-ovalue",
// switches that take no value, an implicit value ("--reduce-hierarchical" alone), positionals.
// Messages are Boost's, word for word, so a mistake reads the same on both CLIs.

// One option line of a Boost help text: "  -o [ --output ] arg   ...", "  --allow-partial   ...",
// "  --reduce-hierarchical [=arg(=0.1)]   ...", "  --root-motion MODE   ...".
const OPTION_LINE = /^  (?:-([A-Za-z]) \[ --([\w-]+) \]|--([\w-]+))(.*)$/;

// [{name, short, takesValue, implicitValue}] of one command's help text.
export function optionsFromHelp(helpText) {
  const options = [];
  for (const line of helpText.split('\n')) {
    const match = OPTION_LINE.exec(line);
    if (!match) continue;
    const rest = match[4];
    const option = {name: match[2] ?? match[3], short: match[1] ?? null};
    if (rest.startsWith(' [=')) {
      option.takesValue = true;
      option.implicitValue = /\(=([^)]*)\)\]/.exec(rest)?.[1] ?? '';
    } else {
      option.takesValue = /^ \S/.test(rest);
      option.implicitValue = null;
    }
    options.push(option);
  }
  return options;
}

export class UsageError extends Error {}

// "'--a' and '--b'", "'--a', '--b', and '--c'", as Boost lists the matches of an ambiguous
// prefix.
function listMatches(names) {
  const quoted = names.map((name) => `'--${name}'`);
  if (quoted.length <= 2) return quoted.join(' and ');
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted[quoted.length - 1]}`;
}

function findLong(options, typed) {
  const exact = options.find((option) => option.name === typed);
  if (exact) return exact;
  const matches = options.filter((option) => option.name.startsWith(typed));
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) throw new UsageError(`unrecognised option '--${typed}'`);
  throw new UsageError(
      `option '--${typed}' is ambiguous and matches ${listMatches(matches.map((o) => o.name).sort())}`);
}

// Parses `args` (after the command) into {values: Map(name -> string | true), positionals}.
// `maxPositionals`: how many the command takes (Infinity for batch and bones).
export function parseArgs(args, options, maxPositionals) {
  const values = new Map();
  const positionals = [];
  const store = (option, value) => {
    if (values.has(option.name)) {
      throw new UsageError(`option '--${option.name}' cannot be specified more than once`);
    }
    values.set(option.name, value);
  };
  const addPositional = (text) => {
    if (positionals.length >= maxPositionals) {
      throw new UsageError(
          'too many positional options have been specified on the command line');
    }
    positionals.push(text);
  };
  for (let i = 0; i < args.length; ++i) {
    const arg = args[i];
    if (arg === '--') {
      for (const rest of args.slice(i + 1)) addPositional(rest);
      break;
    }
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const typed = equals < 0 ? arg.slice(2) : arg.slice(2, equals);
      const option = findLong(options, typed);
      if (equals >= 0) {
        if (!option.takesValue) {
          throw new UsageError(`option '--${option.name}' does not take any arguments`);
        }
        const value = arg.slice(equals + 1);
        if (value === '') {
          throw new UsageError(
              `the argument for option '--${option.name}' should follow immediately after the ` +
              'equal sign');
        }
        store(option, value);
      } else if (!option.takesValue) {
        store(option, true);
      } else if (option.implicitValue !== null) {
        // Boost takes the next word as the value unless it looks like an option (even when it
        // was meant as the input: "--reduce-hierarchical walk.csv" is an invalid argument).
        const next = args[i + 1];
        if (next !== undefined && !next.startsWith('-')) store(option, args[++i]);
        else store(option, option.implicitValue);
      } else {
        if (i + 1 >= args.length) {
          throw new UsageError(`the required argument for option '--${option.name}' is missing`);
        }
        store(option, args[++i]);
      }
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      const option = options.find((o) => o.short === arg[1]);
      if (!option) throw new UsageError(`unrecognised option '${arg}'`);
      const attached = arg.slice(2);
      if (!option.takesValue) {
        if (attached !== '') throw new UsageError(`unrecognised option '${arg}'`);
        store(option, true);
      } else if (attached !== '') {
        store(option, attached);
      } else {
        if (i + 1 >= args.length) {
          throw new UsageError(`the required argument for option '--${option.name}' is missing`);
        }
        store(option, args[++i]);
      }
      continue;
    }
    addPositional(arg);
  }
  return {values, positionals};
}
