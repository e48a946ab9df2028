// Shared by the Node benchmarks (bench/*.mjs): a process's wall clock and CPU time, and medians.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
export const ms = (s) => `${(s * 1000).toFixed(0)} ms`;

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// Runs `command` to its end: its wall clock, and its CPU time (user + system, from GNU time,
// written to `timeFile`). On a loaded machine the wall clock measures the other sessions as much
// as the program, the CPU time much less.
export function timedProcess(command, commandArgs, what, timeFile) {
  const start = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, command, ...commandArgs], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const time = seconds(start);
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${what} failed (${result.status}): ${result.stderr}`);
  const [user, system] = fs.readFileSync(timeFile, 'utf8').trim().split(/\s+/).map(Number);
  return { time, cpu: user + system };
}
