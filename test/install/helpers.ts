import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { cleanEnv, runCli, tempDir } from '../helpers/cli.js';

/** Every path under `dir` → `dir` or the file's mode + sha256: compares trees exactly. */
export function treeListing(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      const rel = relative(dir, full).split(sep).join('/');
      if (e.isDirectory()) {
        out[`${rel}/`] = 'dir';
        walk(full);
      } else {
        const mode = (statSync(full).mode & 0o777).toString(8);
        out[rel] = `${mode} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`;
      }
    }
  };
  walk(dir);
  return out;
}

export function writeFile(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** The files a GSD install leaves in a config dir (get-shit-done-cc layout, GSD-FORMATS 5.3). */
export function fakeGsdClaude(configDir: string): void {
  writeFile(join(configDir, 'commands/gsd/execute-phase.md'), '---\nname: gsd:execute-phase\ndescription: Execute all plans in a phase\n---\n<objective>GSD</objective>\n');
  writeFile(join(configDir, 'agents/gsd-executor.md'), '---\nname: gsd-executor\ntools: Read, Write, Edit, Bash\n---\nexecutor\n');
  writeFile(join(configDir, 'get-shit-done/config.json'), '{\n  "ralf_lite": { "max_iterations": 4 }\n}\n');
  writeFile(join(configDir, 'get-shit-done/workflows/execute-plan.md'), '# GSD execute-plan workflow\n');
  writeFile(join(configDir, 'gsd-file-manifest.json'), '{"version":"1.20.5","files":{}}\n');
  // GSD forces CommonJS for its tools; ralf's runtime copy must still run beside it.
  writeFile(join(configDir, 'package.json'), '{"type":"commonjs"}');
}

export function fakeGsdOpencode(configDir: string): void {
  writeFile(join(configDir, 'command/gsd-execute-phase.md'), '---\ndescription: Execute all plans in a phase\ntools:\n  read: true\n---\nGSD\n');
  writeFile(join(configDir, 'agents/gsd-executor.md'), '---\nmode: subagent\n---\nexecutor\n');
  writeFile(join(configDir, 'get-shit-done/config.json'), '{}\n');
  writeFile(join(configDir, 'package.json'), '{"type":"commonjs"}');
}

/** A temp HOME (with nothing in it) and the env the CLI runs with. */
export function sandbox(extra: Record<string, string | undefined> = {}) {
  const base = tempDir('ralf-install-');
  const home = join(base, 'home');
  const project = join(base, 'project');
  mkdirSync(home);
  mkdirSync(project);
  const env = cleanEnv({ HOME: home, ...extra });
  const claudeDir = join(home, '.claude');
  const opencodeDir = join(home, '.config', 'opencode');
  const ralf = (args: string[], more: Record<string, string | undefined> = {}) => runCli(args, { env: { ...env, ...more }, cwd: project });
  const json = async (args: string[]) => {
    const r = await ralf([...args, '--json']);
    if (r.exitCode !== 0) throw new Error(`ralf ${args.join(' ')} exited ${r.exitCode}: ${r.stderr}\n${r.stdout}`);
    return JSON.parse(String(r.stdout)) as InstallJson;
  };
  return { base, home, project, env, claudeDir, opencodeDir, ralf, json };
}

export interface InstallJson {
  action: string;
  dry_run: boolean;
  targets: Array<{
    host: string;
    scope: string;
    root: string;
    root_source: string;
    runtime: string | null;
    commands: string[];
    changed: boolean;
    manifest: { path: string; action: string };
    files: Array<{ path: string; rel: string; kind: string; action: string; backup?: string; note?: string }>;
    dirs: Array<{ rel: string; action: string }>;
    warnings: string[];
  }>;
}

export function actions(result: InstallJson, host?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of result.targets) if (!host || t.host === host) for (const f of t.files) out[f.rel] = f.action;
  return out;
}
