/**
 * A cache of the resolved plan + effective config, so repeated verifies of an unchanged
 * plan skip loading the config layers (zod) and parsing the PLAN.md (YAML): the verify
 * runs between every agent iteration and must cost little more than starting node.
 *
 * `.planning/ralf/.cache-<plan-id>.json` holds the resolved data and what it was derived
 * from: the size/mtime/inode of the PLAN.md and of every config file consulted (present or
 * not), the environment that selects the host/config dir, the flags, and the ralf build. Any difference is a miss; a corrupt or unreadable cache is a miss. It is a
 * pure optimisation: deleting it is always safe.
 */
import { statSync } from 'node:fs';
import { readRegularFile } from '../../fs/read-regular-file.js';
import { ensureStateDir } from '../../fs/inside-project.js';
import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { hostSelectingEnvKeys } from '../../hosts/select-host.js';
import type { Plan } from '../../plan/model.js';
import type { EffectiveConfigLike } from './deps.js';
import { STATE_DIR } from './paths.js';

declare const RALF_VERSION: string | undefined;
declare const __filename: string | undefined;

const FORMAT = 2;

export interface CachedPlan {
  effective: EffectiveConfigLike;
  plan: Plan;
  checkTimeoutSeconds: number;
}

interface CacheFile extends CachedPlan {
  format: number;
  key: string;
  /** Files the data was derived from, with their stat signature when cached. */
  files: Array<{ path: string; sig: string }>;
}

export interface CacheInputs {
  host?: string | undefined;
  configDir?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
}

export function cachePath(projectRoot: string, planId: string): string {
  return join(projectRoot, STATE_DIR, `.cache-${planId}.json`);
}

function sig(path: string): string {
  try {
    const s = statSync(path);
    return `${s.size}:${s.mtimeMs}:${s.ino}:${s.ctimeMs}`;
  } catch {
    return 'missing';
  }
}

let buildId: string | null = null;
function build(): string {
  if (buildId === null) {
    const version = typeof RALF_VERSION === 'string' ? RALF_VERSION : 'dev';
    // The bundle's own mtime: a rebuilt ralf with the same version never reads old results.
    buildId = `${version}:${typeof __filename === 'string' ? sig(__filename) : 'src'}`;
  }
  return buildId;
}

/**
 * Everything besides files that decides the config: the env vars that select the host and
 * its config dir (paths and flags, never secrets), the flags, the ralf build.
 */
function keyOf(inputs: CacheInputs): string {
  const env = inputs.env ?? process.env;
  const selecting = hostSelectingEnvKeys().map((k) => [k, env[k] ?? null]);
  return JSON.stringify([FORMAT, build(), inputs.host ?? null, inputs.configDir ?? null, selecting]);
}

export function readPlanCache(projectRoot: string, planId: string, planPath: string, inputs: CacheInputs): CachedPlan | null {
  let data: CacheFile;
  try {
    // Bounded and regular files only: a FIFO or device here is just a miss.
    data = JSON.parse(readRegularFile(cachePath(projectRoot, planId), { maxBytes: 16 * 1024 * 1024, what: 'plan cache' })?.toString('utf8') ?? 'null') as CacheFile;
  } catch {
    return null;
  }
  if (data?.format !== FORMAT || data.key !== keyOf(inputs) || data.plan?.path !== planPath || !Array.isArray(data.files)) return null;
  for (const f of data.files) if (sig(f.path) !== f.sig) return null;
  return { effective: data.effective, plan: data.plan, checkTimeoutSeconds: data.checkTimeoutSeconds };
}

/** Files modified this recently may change again within the same timestamp tick (git's "racy" files). */
const RACY_MS = 2000;

/**
 * Writes the cache when the config reports which files it read (otherwise it cannot be
 * validated). `loadStartedMs` is when reading began: a file modified after (or just before)
 * it might have changed while we read it, so nothing is cached then.
 */
export function writePlanCache(projectRoot: string, planId: string, value: CachedPlan, configFiles: string[] | undefined, inputs: CacheInputs, loadStartedMs: number): void {
  if (!configFiles) return;
  const paths = [value.plan.path, ...configFiles];
  for (const path of paths) {
    try {
      if (statSync(path).mtimeMs >= loadStartedMs - RACY_MS) return;
    } catch {
      /* missing: its absence is part of the key */
    }
  }
  const files = paths.map((path) => ({ path, sig: sig(path) }));
  // Element texts are large and the loop never reads them.
  const plan: Plan = { ...value.plan, tasks: value.plan.tasks.map((t) => ({ ...t, elements: {} })) };
  const file: CacheFile = { format: FORMAT, key: keyOf(inputs), files, effective: value.effective, plan, checkTimeoutSeconds: value.checkTimeoutSeconds };
  try {
    ensureStateDir(projectRoot);
    writeFileAtomic(cachePath(projectRoot, planId), JSON.stringify(file));
  } catch {
    /* a cache that cannot be written is just a miss next time */
  }
}
