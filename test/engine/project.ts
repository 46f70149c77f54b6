/**
 * Scripted scenarios: a temp GSD project (a real git repo) with a PLAN.md whose tasks run
 * real commands; tests edit files between verifies like an agent would.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa, type Options } from 'execa';
import { afterAll } from 'vitest';
import { cleanEnv, repoRoot, tempDir } from '../helpers/cli.js';

let cliCopy: string | null = null;
const created: string[] = [];
// Temp projects and the dist copy go away after each test file.
afterAll(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
  cliCopy = null;
});

/**
 * A private copy of dist/, taken once per test file: other work in the same checkout may
 * rebuild dist/ (it is deleted first) while these subprocess-heavy tests run.
 */
export function cliPath(): string {
  // Files share a worker (vitest.config.ts: isolate false): a copy whose file is done is gone.
  if (cliCopy && existsSync(cliCopy)) return cliCopy;
  for (let attempt = 0; attempt < 50; attempt++) {
    const dir = tempDir('ralf-dist-');
    try {
      cpSync(join(repoRoot, 'dist'), dir, { recursive: true });
      const probe = spawnSync(process.execPath, [join(dir, 'ralf.js'), 'task'], { encoding: 'utf8' });
      const status = spawnSync(process.execPath, [join(dir, 'ralf.js'), 'status', '--cwd', dir], { encoding: 'utf8' });
      if (probe.status === 2 && /missing subcommand/.test(probe.stderr) && status.status === 2 && /no .planning/.test(status.stderr)) {
        created.push(dir);
        cliCopy = join(dir, 'ralf.js');
        return cliCopy;
      }
    } catch {
      /* dist/ is being rebuilt: try again */
    }
    rmSync(dir, { recursive: true, force: true });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  throw new Error('dist/ is not built (npm run build)');
}

/** Runs the CLI copy as a real child process; never rejects on exit code. */
export function runRalf(args: string[], options: Options & { env?: Record<string, string | undefined> } = {}) {
  return execa(process.execPath, [cliPath(), ...args], { reject: false, extendEnv: false, stdin: 'ignore', ...options, env: options.env ?? cleanEnv() } as Options);
}

export interface ProjectOptions {
  /** The `<task>` elements (XML) inside `<tasks>`. */
  tasks: string;
  /** `ralf_lite` overrides in .planning/config.json. */
  config?: Record<string, unknown>;
  files?: Record<string, string>;
  git?: boolean;
  autonomous?: boolean;
  /** Extra plan body after </tasks> (e.g. a <verification> block). */
  after?: string;
  planName?: string;
}

export const PLAN_REL = '.planning/phases/01-demo/01-01-PLAN.md';

export function autoTask(opts: { name: string; files?: string[]; verify: string; done?: string; type?: string }): string {
  return [
    `<task type="${opts.type ?? 'auto'}">`,
    `  <name>${opts.name}</name>`,
    `  <files>${(opts.files ?? ['src/a.js']).join(', ')}</files>`,
    '  <action>Do it.</action>',
    `  <verify>\`${opts.verify}\`</verify>`,
    ...(opts.done === undefined ? [] : [`  <done>${opts.done}</done>`]),
    '</task>',
  ].join('\n');
}

export const checkpointTask = [
  '<task type="checkpoint:human-verify" gate="blocking">',
  '  <what-built>The page</what-built>',
  '  <how-to-verify>Open http://localhost:3000 and look.</how-to-verify>',
  '  <resume-signal>Type "approved"</resume-signal>',
  '</task>',
].join('\n');

/**
 * A temp project directory with its own HOME (`.home/`, ignored): the files, git and the
 * environment every scripted project needs (Project here, test/scenarios' Scenario).
 */
export class TempRepo {
  readonly dir: string;
  readonly home: string;

  constructor(prefix: string) {
    this.dir = tempDir(prefix);
    this.home = join(this.dir, '.home');
    mkdirSync(this.home, { recursive: true });
  }

  /** The environment the CLI and the checks run in: this HOME, no host or ralf variables. */
  env(extra: Record<string, string> = {}): Record<string, string | undefined> {
    return cleanEnv({ HOME: this.home, XDG_CONFIG_HOME: join(this.home, '.config'), ...extra });
  }

  git(...args: string[]): string {
    return execFileSync('git', args, {
      cwd: this.dir,
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', HOME: this.home },
    });
  }

  /** `git init` and one commit of everything not ignored. */
  commitAll(): void {
    this.git('init', '-q');
    this.git('add', '-A');
    this.git('commit', '-qm', 'init');
  }

  write(path: string, content: string): void {
    const abs = join(this.dir, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }

  read(path: string): string {
    return readFileSync(join(this.dir, path), 'utf8');
  }

  exists(path: string): boolean {
    return existsSync(join(this.dir, path));
  }

  remove(path: string): void {
    rmSync(join(this.dir, path), { force: true, recursive: true });
  }
}

export class Project extends TempRepo {
  readonly plan: string;

  constructor(opts: ProjectOptions) {
    super('ralf-engine-');
    created.push(this.dir);
    this.plan = join(this.dir, opts.planName ?? PLAN_REL);
    mkdirSync(dirname(this.plan), { recursive: true });
    writeFileSync(join(this.dir, '.planning', 'config.json'), `${JSON.stringify({ mode: 'yolo', ralf_lite: { check_timeout_seconds: 20, ...opts.config } }, null, 2)}\n`);
    const frontmatter = ['---', 'phase: 01-demo', 'plan: 01', 'type: execute', 'wave: 1', 'depends_on: []', 'files_modified: [src/a.js]', `autonomous: ${opts.autonomous ?? true}`, '---'].join('\n');
    writeFileSync(this.plan, `${frontmatter}\n\n<objective>\nDemo plan for the loop engine.\n</objective>\n\n<tasks>\n${opts.tasks}\n</tasks>\n${opts.after ?? ''}\n`);
    writeFileSync(join(this.dir, '.gitignore'), '.home/\n');
    for (const [path, content] of Object.entries(opts.files ?? {})) this.write(path, content);
    if (opts.git !== false) this.commitAll();
  }

  run(args: string[], options: Options = {}) {
    return runRalf(args, { cwd: this.dir, env: this.env(), ...options });
  }

  async verify(task: number, ...flags: string[]) {
    const r = await this.run(['task', 'verify', PLAN_REL, String(task), '--json', ...flags]);
    return { code: r.exitCode, json: parseJson(String(r.stdout)), stderr: String(r.stderr), stdout: String(r.stdout) };
  }

  state(): any {
    return JSON.parse(this.read('.planning/ralf/01-01.json'));
  }

  log(): any[] {
    if (!this.exists('.planning/ralf/01-01.jsonl')) return [];
    return this.read('.planning/ralf/01-01.jsonl')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l));
  }
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A check script: fails with `Error: <message>` unless src/a.js exports the wanted value. */
export const VALUE_CHECK = `const v = require('./src/a.js');
if (v !== 'fixed') { console.error('Error: expected fixed, got ' + v); process.exit(1); }
console.log('ok');
`;
