import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actions, fakeGsdClaude, fakeGsdOpencode, sandbox, treeListing, writeFile } from './helpers.js';

const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version as string;

describe('ralf install / uninstall (global)', () => {
  it('installs into every host whose config dir exists, and the installed runtime runs', async () => {
    const s = sandbox();
    mkdirSync(s.claudeDir);
    mkdirSync(s.opencodeDir, { recursive: true });
    const r = await s.json(['install']);
    expect(r.targets.map((t) => [t.host, t.scope, t.root])).toEqual([
      ['opencode', 'global', s.opencodeDir],
      ['claude', 'global', s.claudeDir],
    ]);
    expect(actions(r, 'claude')['commands/execute-plan.md']).toBe('created');
    expect(actions(r, 'opencode')['command/execute-plan.md']).toBe('created');

    const claudeCmd = readFileSync(join(s.claudeDir, 'commands/execute-plan.md'), 'utf8');
    const ocCmd = readFileSync(join(s.opencodeDir, 'command/execute-plan.md'), 'utf8');
    const claudeRuntime = `"${process.execPath}" "${s.claudeDir}/ralf-lite/ralf.js"`;
    // Claude Code keeps its frontmatter; OpenCode's drops the keys it does not know.
    expect(claudeCmd).toMatch(/^---\ndescription: .+\nargument-hint: .+\nallowed-tools:\n {2}- Read/);
    expect(ocCmd).toMatch(/^---\ndescription: .+\n---\n/);
    expect(ocCmd).not.toMatch(/allowed-tools|argument-hint/);
    // Absolute node + runtime, in the injections and the rendered workflow.
    // The arguments reach the runtime in a quoted here-document, never on the shell line (#16 item 5).
    expect(claudeCmd).toContain(`!\`${claudeRuntime} plan --arguments-stdin --json 2>&1 <<'!RALF_ARGUMENTS'`);
    expect(claudeCmd).toContain("\n$ARGUMENTS\n!RALF_ARGUMENTS`");
    expect(claudeCmd).not.toMatch(/!`[^`\n]*\$ARGUMENTS/);
    expect(claudeCmd).toContain(`!\`${claudeRuntime} install --render workflows/execute-plan.md\``);
    for (const text of [claudeCmd, ocCmd, readFileSync(join(s.claudeDir, 'ralf-lite/workflows/execute-plan.md'), 'utf8')]) {
      expect(text).not.toMatch(/CLAUDE_PLUGIN_ROOT|\{\{RALF\}\}/);
    }
    expect(readFileSync(join(s.claudeDir, 'ralf-lite/workflows/execute-plan.md'), 'utf8')).toContain(`${claudeRuntime} task verify PLAN N --json`);

    for (const dir of [s.claudeDir, s.opencodeDir]) {
      const out = execFileSync(process.execPath, [join(dir, 'ralf-lite/ralf.js'), '--version'], { encoding: 'utf8' });
      expect(out.trim()).toBe(version);
      const rendered = execFileSync(process.execPath, [join(dir, 'ralf-lite/ralf.js'), 'install', '--render', 'workflows/execute-plan.md'], { encoding: 'utf8' });
      expect(rendered).toBe(readFileSync(join(dir, 'ralf-lite/workflows/execute-plan.md'), 'utf8'));
      const manifest = JSON.parse(readFileSync(join(dir, 'ralf-lite/manifest.json'), 'utf8'));
      expect(manifest).toMatchObject({ tool: 'ralf-lite', schema_version: 1, version, root: dir });
      expect(Object.values(manifest.files as Record<string, { sha256: string }>).every((f) => /^[0-9a-f]{64}$/.test(f.sha256))).toBe(true);
    }
  });

  it('asks for a host when no config dir exists', async () => {
    const s = sandbox();
    const r = await s.ralf(['install']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--opencode --claude/);
    expect(treeListing(s.home)).toEqual({});
  });

  it('resolves config dirs like the hosts do (env vars, --config-dir)', async () => {
    const s = sandbox();
    const claudeDir = join(s.base, 'claude-cfg');
    const ocDir = join(s.base, 'oc-cfg');
    const xdg = join(s.base, 'xdg');
    let r = await s.json(['install', '--claude', '--opencode', '--dry-run']);
    expect(r.targets.map((t) => [t.root, t.root_source])).toEqual([
      [s.opencodeDir, 'default'],
      [s.claudeDir, 'default'],
    ]);
    const withEnv = async (env: Record<string, string>) => {
      const res = await s.ralf(['install', '--claude', '--opencode', '--dry-run', '--json'], env);
      return (JSON.parse(String(res.stdout)) as typeof r).targets.map((t) => [t.root, t.root_source]);
    };
    expect(await withEnv({ CLAUDE_CONFIG_DIR: claudeDir, OPENCODE_CONFIG_DIR: ocDir })).toEqual([
      [ocDir, 'OPENCODE_CONFIG_DIR'],
      [claudeDir, 'CLAUDE_CONFIG_DIR'],
    ]);
    expect(await withEnv({ XDG_CONFIG_HOME: xdg, OPENCODE_CONFIG: join(ocDir, 'opencode.json') })).toEqual([
      [ocDir, 'OPENCODE_CONFIG'],
      [s.claudeDir, 'default'],
    ]);
    expect(await withEnv({ XDG_CONFIG_HOME: xdg })).toEqual([
      [join(xdg, 'opencode'), 'XDG_CONFIG_HOME'],
      [s.claudeDir, 'default'],
    ]);
    r = await s.json(['install', '--claude', '--config-dir', claudeDir]);
    expect(r.targets[0]).toMatchObject({ root: claudeDir, root_source: '--config-dir' });
    expect(existsSync(join(claudeDir, 'commands/execute-plan.md'))).toBe(true);

    const both = await s.ralf(['install', '--claude', '--opencode', '--config-dir', claudeDir]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toMatch(/exactly one of --opencode or --claude/);
  });

  it('creates missing parents of the config dir (~/.config) and removes them again', async () => {
    const s = sandbox();
    const r = await s.json(['install', '--opencode']);
    expect(r.targets[0]!.dirs.map((d) => d.rel).slice(0, 2)).toEqual(['..', '.']);
    expect(existsSync(join(s.opencodeDir, 'command/execute-plan.md'))).toBe(true);
    await s.json(['uninstall', '--opencode']);
    expect(treeListing(s.home)).toEqual({});
  });

  it('is idempotent: a second install changes nothing', async () => {
    const s = sandbox();
    await s.json(['install', '--claude', '--opencode']);
    const before = treeListing(s.home);
    const r = await s.json(['install', '--claude', '--opencode']);
    expect(r.targets.every((t) => !t.changed && t.manifest.action === 'unchanged')).toBe(true);
    expect(new Set(Object.values(actions(r)))).toEqual(new Set(['unchanged']));
    expect(treeListing(s.home)).toEqual(before);
  });

  it('never overwrites an edited file silently: backs it up, says so, and uninstall keeps the backup', async () => {
    const s = sandbox();
    await s.json(['install', '--claude']);
    const cmd = join(s.claudeDir, 'commands/execute-plan.md');
    const edited = `${readFileSync(cmd, 'utf8')}\nMy own note.\n`;
    writeFileSync(cmd, edited);

    const text = await s.ralf(['install', '--claude']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/backed-up\s+commands\/execute-plan\.md\s+→ ralf-lite\/backups\/[^/]+\/commands\/execute-plan\.md \(you had edited it/);
    const r = await s.json(['install', '--claude']);
    expect(actions(r)['commands/execute-plan.md']).toBe('unchanged');
    const manifest = JSON.parse(readFileSync(join(s.claudeDir, 'ralf-lite/manifest.json'), 'utf8'));
    expect(manifest.backups).toHaveLength(1);
    const backup = join(s.claudeDir, manifest.backups[0].rel);
    expect(readFileSync(backup, 'utf8')).toBe(edited);
    expect(readFileSync(cmd, 'utf8')).not.toContain('My own note.');

    const u = await s.json(['uninstall', '--claude']);
    expect(actions(u)[manifest.backups[0].rel]).toBe('kept');
    expect(existsSync(backup)).toBe(true);
    expect(existsSync(cmd)).toBe(false);
  });

  it('uninstall keeps a file edited after install and removes the rest', async () => {
    const s = sandbox();
    await s.json(['install', '--opencode']);
    const cmd = join(s.opencodeDir, 'command/execute-phase.md');
    writeFileSync(cmd, 'mine\n');
    const u = await s.ralf(['uninstall', '--opencode']);
    expect(u.exitCode).toBe(0);
    expect(u.stdout).toMatch(/kept\s+command\/execute-phase\.md\s+you edited it/);
    expect(treeListing(s.home)).toEqual({
      '.config/': 'dir',
      '.config/opencode/': 'dir',
      '.config/opencode/command/': 'dir',
      '.config/opencode/command/execute-phase.md': expect.stringMatching(/^644 /),
    });
  });

  it('moves a file it did not install aside and puts it back on uninstall', async () => {
    const s = sandbox();
    writeFile(join(s.claudeDir, 'commands/execute-plan.md'), 'a command of my own\n');
    const before = treeListing(s.home);
    const r = await s.json(['install', '--claude']);
    const f = r.targets[0]!.files.find((x) => x.rel === 'commands/execute-plan.md')!;
    expect(f.action).toBe('replaced');
    expect(readFileSync(f.backup!, 'utf8')).toBe('a command of my own\n');
    const u = await s.json(['uninstall', '--claude']);
    expect(actions(u)['commands/execute-plan.md']).toBe('restored');
    expect(treeListing(s.home)).toEqual(before);
  });

  it('coexists with GSD: its files stay byte-identical, and uninstall restores the tree exactly', async () => {
    const s = sandbox();
    fakeGsdClaude(s.claudeDir);
    fakeGsdOpencode(s.opencodeDir);
    const before = treeListing(s.home);
    const r = await s.json(['install']);
    expect(r.targets).toHaveLength(2);
    const after = treeListing(s.home);
    for (const [path, hash] of Object.entries(before)) expect(after[path], path).toBe(hash);
    // Nothing ralf wrote lands in GSD's directories.
    const written = r.targets.flatMap((t) => t.files.map((x) => x.rel));
    expect(written.filter((p) => /^(get-shit-done|agents|commands\/gsd)\//.test(p) || /^command\/gsd-/.test(p))).toEqual([]);
    // GSD's {"type":"commonjs"} package.json must not break the ESM/CJS runtime copy.
    for (const dir of [s.claudeDir, s.opencodeDir]) {
      expect(execFileSync(process.execPath, [join(dir, 'ralf-lite/ralf.js'), '--version'], { encoding: 'utf8' }).trim()).toBe(version);
    }
    // ralf reads GSD's global defaults from the installed location.
    const cfg = await s.ralf(['config', '--host', 'claude', '--json']);
    expect(cfg.exitCode, String(cfg.stderr)).toBe(0);
    expect(JSON.parse(String(cfg.stdout)).config.max_iterations).toBe(4);

    const u = await s.json(['uninstall']);
    expect(u.targets.map((t) => t.host).sort()).toEqual(['claude', 'opencode']);
    expect(treeListing(s.home)).toEqual(before);
  });

  it('--dry-run writes nothing', async () => {
    const s = sandbox();
    mkdirSync(s.claudeDir);
    const r = await s.ralf(['install', '--claude', '--opencode', '--dry-run']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/dry run: nothing was written/);
    expect(r.stdout).toMatch(/created\s+commands\/execute-plan\.md/);
    expect(treeListing(s.home)).toEqual({ '.claude/': 'dir' });

    await s.json(['install', '--claude']);
    const installed = treeListing(s.home);
    const u = await s.json(['uninstall', '--claude', '--dry-run']);
    expect(u.dry_run).toBe(true);
    expect(actions(u)['commands/execute-plan.md']).toBe('removed');
    expect(u.targets[0]!.dirs).toContainEqual({ path: expect.any(String), rel: 'ralf-lite', action: 'removed' });
    expect(treeListing(s.home)).toEqual(installed);
  });

  it('uninstall with nothing installed is a no-op', async () => {
    const s = sandbox();
    const r = await s.ralf(['uninstall']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/Nothing to uninstall/);
    const c = await s.json(['uninstall', '--claude']);
    expect(c.targets[0]!.warnings[0]).toMatch(/not installed here/);
  });
});

describe('ralf install --local', () => {
  it('installs into the project for both hosts, leaves the global dirs alone, and uninstalls exactly', async () => {
    const s = sandbox();
    fakeGsdClaude(join(s.project, '.claude'));
    mkdirSync(join(s.project, '.opencode'));
    const homeBefore = treeListing(s.home);
    const projectBefore = treeListing(s.project);

    const r = await s.json(['install', '--local']);
    expect(r.targets.map((t) => [t.host, t.scope, t.root])).toEqual([
      ['opencode', 'local', join(s.project, '.opencode')],
      ['claude', 'local', join(s.project, '.claude')],
    ]);
    expect(existsSync(join(s.project, '.opencode/command/execute-plan.md'))).toBe(true);
    expect(existsSync(join(s.project, '.claude/commands/execute-phase.md'))).toBe(true);
    expect(readFileSync(join(s.project, '.claude/commands/execute-plan.md'), 'utf8')).toContain(`"${s.project}/.claude/ralf-lite/ralf.js" plan`);
    expect(treeListing(s.home)).toEqual(homeBefore);

    const again = await s.json(['install', '--local', '--cwd', s.project]);
    expect(again.targets.every((t) => !t.changed)).toBe(true);

    await s.json(['uninstall', '--local']);
    expect(treeListing(s.project)).toEqual(projectBefore);
  });

  it('creates the project dir for an explicit host and removes it again', async () => {
    const s = sandbox();
    await s.json(['install', '--local', '--opencode', '--claude']);
    expect(existsSync(join(s.project, '.opencode/ralf-lite/ralf.js'))).toBe(true);
    const u = await s.json(['uninstall', '--local']);
    expect(u.targets.flatMap((t) => t.dirs.filter((d) => d.rel === '.').map((d) => d.action))).toEqual(['removed', 'removed']);
    expect(treeListing(s.project)).toEqual({});
  });

  it('rejects --global with --local, and --config-dir with --local', async () => {
    const s = sandbox();
    expect((await s.ralf(['install', '--global', '--local', '--claude'])).exitCode).toBe(2);
    expect((await s.ralf(['install', '--local', '--claude', '--config-dir', s.base])).exitCode).toBe(2);
  });
});
