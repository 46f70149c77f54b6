import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const executables = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/executables');

/** A shell command running one fixture executable with node. */
export function fixture(name: string, ...args: string[]): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return [process.execPath, join(executables, name), ...args].map(quote).join(' ');
}

export function pidFrom(output: string, key: string): number {
  const m = new RegExp(`${key}=(\\d+)`).exec(output);
  if (!m) throw new Error(`no ${key}= in output: ${output}`);
  return Number(m[1]);
}
