import { readdirSync, readFileSync } from 'node:fs';

/** Live processes whose command line contains `text` (from /proc: no procps needed), zombies left out. */
export function processesMatching(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').replace(/^.*\) /, '')[0];
      if (commandLine.includes(text) && state !== 'Z') found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** SIGKILLs every process whose command line contains `text`; returns how many. */
export function killMatching(text: string): number {
  const pids = processesMatching(text);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  return pids.length;
}
