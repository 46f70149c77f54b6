import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const executables = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/executables');

/** A shell command running one fixture executable with node. */
export function fixture(name: string, ...args: string[]): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return [process.execPath, join(executables, name), ...args].map(quote).join(' ');
}

/** True while `pid` is a live process (a zombie waiting to be reaped counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

/** Polls until `pid` is gone or `ms` passed; returns whether it is gone. */
export async function waitGone(pid: number, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

export function pidFrom(output: string, key: string): number {
  const m = new RegExp(`${key}=(\\d+)`).exec(output);
  if (!m) throw new Error(`no ${key}= in output: ${output}`);
  return Number(m[1]);
}
