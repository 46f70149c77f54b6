/**
 * Shared machinery for the reliability suite: a private copy of the built package, real
 * child processes with their pids, temp GSD projects, exact tree snapshots and a
 * process-leak detector. Everything runs the real CLI bundle (dist/), never src/.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { cleanEnv, repoRoot, tempDir } from '../helpers/cli.js';
import { alive } from '../helpers/processes.js';

export { alive };

const made: string[] = [];

/**
 * The CLI's environment: clean (no host variables, isolated config), plus
 * RALF_NO_CODE_CACHE when the outer environment sets it (to run the suite without the V8
 * code cache); by default the suite runs exactly what users run.
 */
export function testEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  // TMPDIR: what the CLI puts in the OS temp dir (the V8 code cache, restore's temp index) goes
  // where cleanupTempDirs() removes it, including what a killed run leaves behind.
  if (tmp === null || !existsSync(tmp)) tmp = scratch('ralf-rel-tmp-');
  return cleanEnv({ TMPDIR: tmp, ...(process.env.RALF_NO_CODE_CACHE ? { RALF_NO_CODE_CACHE: process.env.RALF_NO_CODE_CACHE } : {}), ...extra });
}
let tmp: string | null = null;

/** A temp dir removed by `cleanupTempDirs()` (call it from afterAll). */
export function scratch(prefix = 'ralf-rel-'): string {
  const dir = tempDir(prefix);
  made.push(dir);
  return dir;
}

export function cleanupTempDirs(): void {
  tmp = null;
  for (const dir of made.splice(0)) {
    spawnSync('chattr', ['-R', '-i', dir], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
}

let pkg: { root: string; cli: string } | null = null;

/**
 * A private copy of the package (dist/, commands/, workflows/, schemas/, package.json),
 * taken once per test file: other engineers rebuild dist/ (deleting it first) while this
 * suite runs, and `ralf install` copies the runtime from the package it runs from.
 * Every bundle the suite uses is loaded once to prove the copy is whole. Files share a worker
 * (vitest.config.ts: isolate false), so a copy whose file is done (removed with its temp dirs) is taken again.
 */
export function pkgCopy(): { root: string; cli: string } {
  if (pkg && existsSync(pkg.cli)) return pkg;
  for (let attempt = 0; attempt < 50; attempt++) {
    const root = scratch('ralf-pkg-');
    try {
      for (const part of ['dist', 'commands', 'workflows', 'schemas', 'package.json']) cpSync(join(repoRoot, part), join(root, part), { recursive: true });
      const cli = join(root, 'dist', 'ralf.js');
      const ok = ['task', 'status', 'report', 'install', 'uninstall', 'plan'].every((c) => spawnSync(process.execPath, [cli, c, '--help'], { encoding: 'utf8' }).status === 0);
      if (ok) return (pkg = { root, cli });
    } catch {
      /* dist/ is being rebuilt: try again */
    }
    rmSync(root, { recursive: true, force: true });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  throw new Error('dist/ is not built (npm run build)');
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Running {
  pid: number;
  done: Promise<Exit>;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * Starts the CLI copy as a real child process (its pid is known at once). With `group`, it
 * leads its own process group and `kill` signals the whole group (ralf and its git
 * children, as a harness's timeout or a terminal would).
 */
export function start(args: string[], opts: { cwd: string; env?: Record<string, string | undefined>; group?: boolean }): Running {
  const child = spawn(process.execPath, [pkgCopy().cli, ...args], { cwd: opts.cwd, env: (opts.env ?? testEnv()) as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: opts.group === true });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  const done = new Promise<Exit>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
  if (child.pid === undefined) throw new Error('could not start node');
  const pid = child.pid;
  const kill = (signal: NodeJS.Signals = 'SIGKILL') => {
    if (!opts.group) return void child.kill(signal);
    try {
      process.kill(-pid, signal);
    } catch {
      /* the group is gone */
    }
  };
  return { pid, done, kill };
}

/** Runs the CLI copy to the end. */
export function ralf(args: string[], opts: { cwd: string; env?: Record<string, string | undefined> }): Promise<Exit> {
  return start(args, opts).done;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `cond` every 10 ms for at most `ms`; returns whether it became true. */
export async function waitUntil(cond: () => boolean, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await sleep(10);
  }
  return cond();
}

/**
 * Live processes whose working directory is `dir` or inside it: every check runs with the
 * project root as its cwd (and daemons keep it), so this finds anything a check left
 * behind, whatever process group or session it moved to. `[pid, command line]`.
 */
export function processesIn(dir: string): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    try {
      const cwd = readlinkSync(`/proc/${name}/cwd`);
      if ((cwd === dir || cwd.startsWith(`${dir}/`)) && alive(pid)) out.push([pid, readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim()]);
    } catch {
      /* gone meanwhile, or not ours to read */
    }
  }
  return out;
}

/** Kills whatever `processesIn(dir)` finds (cleanup after an assertion failed). */
export function killAllIn(dir: string): void {
  for (const [pid] of processesIn(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/**
 * Every path under `dir` → `dir`, `link -> target`, or the file's mode + sha256. Symlinks
 * are not followed. Compares trees exactly (a write shows up as a changed hash).
 */
export function treeListing(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(d, e.name);
      const rel = relative(dir, full).split(sep).join('/');
      if (skip(rel)) continue;
      const st = lstatSync(full);
      if (st.isSymbolicLink()) out[rel] = `link -> ${readlinkSync(full)}`;
      else if (st.isDirectory()) {
        out[`${rel}/`] = `dir ${(st.mode & 0o7777).toString(8)}`;
        walk(full);
      } else if (st.isFile()) out[rel] = `${(st.mode & 0o7777).toString(8)} ${sha256(readFileSync(full))}`;
      else out[rel] = `special ${(st.mode & 0o7777).toString(8)}`; // a FIFO or socket: never read it
    }
  };
  walk(dir);
  return out;
}

export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Delays spread evenly over [0, lifetime), each nudged by a deterministic jitter. */
export function spreadDelays(lifetimeMs: number, count: number, seed = 1): number[] {
  let x = seed;
  const rand = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  return Array.from({ length: count }, (_, i) => Math.max(0, Math.round(((i + rand()) / count) * lifetimeMs)));
}

// ---------------------------------------------------------------------------------------
// A GSD project in a temp dir (a real git repo) whose PLAN.md tasks run real commands.

export const PLAN_REL = '.planning/phases/01-demo/01-01-PLAN.md';
export const SUMMARY_REL = '.planning/phases/01-demo/01-01-SUMMARY.md';
export const STATE_REL = '.planning/ralf/01-01.json';
export const LOG_REL = '.planning/ralf/01-01.jsonl';

export function task(name: string, verify: string, files = ['src/a.js']): string {
  return [`<task type="auto">`, `  <name>${name}</name>`, `  <files>${files.join(', ')}</files>`, '  <action>Do it.</action>', `  <verify>\`${verify}\`</verify>`, '</task>'].join('\n');
}

/** Limits that never stop the loop: every failing verify is one more iteration. */
export const ENDLESS = { max_iterations: 100, error_fingerprint_repeats: 100, no_progress_repeats: 100 };

export class Project {
  readonly dir: string;
  readonly home: string;

  constructor(opts: { tasks: string[]; config?: Record<string, unknown>; files?: Record<string, string>; git?: boolean }) {
    this.dir = scratch('ralf-rel-proj-');
    this.home = join(this.dir, '.home');
    mkdirSync(this.home);
    this.write('.planning/config.json', `${JSON.stringify({ mode: 'yolo', ralf_lite: { check_timeout_seconds: 20, ...opts.config } }, null, 2)}\n`);
    const fm = ['---', 'phase: 01-demo', 'plan: 01', 'type: execute', 'wave: 1', 'depends_on: []', 'files_modified: [src/a.js]', 'autonomous: true', '---'].join('\n');
    this.write(PLAN_REL, `${fm}\n\n<objective>\nReliability plan.\n</objective>\n\n<tasks>\n${opts.tasks.join('\n')}\n</tasks>\n`);
    this.write('.gitignore', '.home/\nrun/\n');
    this.write('src/a.js', 'module.exports = 1;\n');
    for (const [path, content] of Object.entries(opts.files ?? {})) this.write(path, content);
    // Age the plan and config: the plan cache ignores files modified in the last 2 s, and a
    // steady run time (cache hit from the 2nd run on) is what timed kills are spread over.
    const old = new Date(Date.now() - 3600_000);
    for (const rel of [PLAN_REL, '.planning/config.json']) utimesSync(this.path(rel), old, old);
    if (opts.git !== false) {
      const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', HOME: this.home };
      for (const args of [['init', '-q'], ['add', '-A'], ['commit', '-qm', 'init']]) {
        const r = spawnSync('git', args, { cwd: this.dir, env, encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
      }
    }
  }

  git(...args: string[]): { status: number | null; stdout: string } {
    const r = spawnSync('git', args, { cwd: this.dir, encoding: 'utf8', env: { ...process.env, HOME: this.home } });
    return { status: r.status, stdout: r.stdout };
  }

  env(extra: Record<string, string> = {}): Record<string, string | undefined> {
    return testEnv({ HOME: this.home, XDG_CONFIG_HOME: join(this.home, '.config'), ...extra });
  }

  path(rel: string): string {
    return join(this.dir, rel);
  }

  write(rel: string, content: string | Uint8Array): void {
    mkdirSync(dirname(this.path(rel)), { recursive: true });
    writeFileSync(this.path(rel), content);
  }

  exists(rel: string): boolean {
    return existsSync(this.path(rel));
  }

  start(args: string[], group = false): Running {
    return start(args, { cwd: this.dir, env: this.env(), group });
  }

  run(args: string[]): Promise<Exit> {
    return this.start(args).done;
  }

  async verify(n: number): Promise<{ code: number | null; json: any; stderr: string }> {
    const r = await this.run(['task', 'verify', PLAN_REL, String(n), '--json']);
    let json: any = null;
    try {
      json = JSON.parse(r.stdout);
    } catch {
      /* not JSON: the assertion on it will say so */
    }
    return { code: r.code, json, stderr: r.stderr };
  }

  /** The state file parsed (throws when it does not parse), or null when absent. */
  state(): any {
    return this.exists(STATE_REL) ? JSON.parse(readFileSync(this.path(STATE_REL), 'utf8')) : null;
  }

  /** Iterations recorded for task n (0 without state). */
  iterations(n: number): number {
    // State keys task loops by identity (`name:<slug>`, `id:<id>`): find task n's by its number.
    const loops = Object.values((this.state()?.tasks ?? {}) as Record<string, { task_number: number; iterations: unknown[] }>);
    return loops.find((l) => l.task_number === n)?.iterations.length ?? 0;
  }

  /**
   * The log: `entries` are the newline-terminated lines that parse, `bad` those that do not
   * (a torn line fenced off by a later append), `torn` an unterminated last line.
   */
  log(): { entries: any[]; bad: string[]; torn: string | null } {
    if (!this.exists(LOG_REL)) return { entries: [], bad: [], torn: null };
    const lines = readFileSync(this.path(LOG_REL), 'utf8').split('\n');
    const last = lines.pop()!;
    const entries: any[] = [];
    const bad: string[] = [];
    for (const l of lines) {
      if (l === '') continue;
      try {
        entries.push(JSON.parse(l));
      } catch {
        bad.push(l);
      }
    }
    return { entries, bad, torn: last === '' ? null : last };
  }
}
