// The command line of the web checks and benchmarks (web/test, web/app/test, bench/*.mjs):
// `--name value` pairs. optionReader('parity') returns option(name, fallback): the value after
// `name`, else `fallback`, else an error naming the script and the missing option.
export function optionReader(script, argv = process.argv.slice(2)) {
  return (name, fallback) => {
    const i = argv.indexOf(name);
    if (i >= 0 && i + 1 < argv.length) return argv[i + 1];
    if (fallback !== undefined) return fallback;
    throw new Error(`${script}: ${name} is required`);
  };
}
