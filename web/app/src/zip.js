// Many outputs download as one zip (fflate, in the worker). Entries keep the outputs' own names;
// two inputs with one stem (walk.csv, walk.bvh → walk.vrma) get the later one numbered.
import {zipSync} from '../vendor/fflate/browser.js';

function uniqueName(name, taken) {
  if (!taken.has(name)) return name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const extension = dot > 0 ? name.slice(dot) : '';
  for (let n = 2; ; ++n) {
    const candidate = `${stem}-${n}${extension}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export function zipOutputs(files) {
  const entries = {};
  const taken = new Set();
  for (const file of files) {
    const name = uniqueName(file.name, taken);
    taken.add(name);
    entries[name] = file.bytes;
  }
  return zipSync(entries, {level: 6});
}
