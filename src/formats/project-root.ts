/**
 * The project root of a run target: where the agent and the checks run and where the engine
 * keeps `.planning/ralf/`. Rule, for every kind:
 *   1. the nearest directory at or above the source's directory that holds `.planning/`
 *      (searched up to the git root; the engine's own rule, src/engine/paths.ts);
 *   2. GSD targets: else the git root, else the plan's directory;
 *      other targets: else the nearest directory that looks like a project (`.git`, or a
 *      package manifest such as package.json), so a docs/PRD.md runs at the repository root
 *      and examples/<format>/ (each with its own package.json) runs in the example;
 *   3. else the source file's directory (for a directory of task files: its parent).
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { findProjectRoot } from '../engine/shell/paths.js';
import type { RunTargetKind } from './target.js';

export const PROJECT_MARKERS = ['.git', 'package.json', 'pyproject.toml', 'Cargo.toml', 'go.mod'] as const;

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function ancestors(start: string): string[] {
  const out: string[] = [];
  let dir = resolve(start);
  for (;;) {
    out.push(dir);
    const parent = dirname(dir);
    if (parent === dir) return out;
    dir = parent;
  }
}

export function projectRootFor(kind: RunTargetKind, source: string): string {
  const abs = resolve(source);
  const sourceIsDir = isDirectory(abs);
  const start = sourceIsDir ? abs : dirname(abs);
  const planning = findProjectRoot(start);
  if (planning) return planning;
  const gsd = kind === 'gsd-plan' || kind === 'gsd-phase';
  const markers: readonly string[] = gsd ? ['.git'] : PROJECT_MARKERS;
  for (const dir of ancestors(start)) {
    if (markers.some((m) => existsSync(join(dir, m)))) return dir;
  }
  return kind === 'task-files' && sourceIsDir ? dirname(abs) : start;
}
