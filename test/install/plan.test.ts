import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeHost, opencodeHost } from '../../src/hosts/host.js';
import { planInstall, sha256 } from '../../src/install/plan-install.js';
import { planUninstall } from '../../src/install/plan-uninstall.js';
import { dropFrontmatterKeys, leftoverPlaceholders, PLUGIN_RUNTIME, renderCommand, renderWorkflow, shellQuote } from '../../src/install/render.js';
import type { DesiredFile, InstallTarget, Manifest, PathState } from '../../src/install/types.js';
import { repoRoot } from '../helpers/cli.js';

const target: InstallTarget = { host: claudeHost, scope: 'global', root: '/h/.claude', rootSource: 'default' };
const now = '2026-01-02T03:04:05.678Z';
const file = (rel: string, text: string): DesiredFile => ({ rel, kind: rel.startsWith('commands/') ? 'command' : 'runtime', content: Buffer.from(text), executable: false });
const fileState = (text: string): PathState => ({ kind: 'file', sha256: sha256(text) });
const dir: PathState = { kind: 'dir' };

function install(desired: DesiredFile[], paths: Record<string, PathState>, manifest: Manifest | null = null) {
  return planInstall({ target, version: '1.0.0', runtime: '"/n" "/h/.claude/ralf-lite/ralf.js"', now, desired, paths, manifest });
}

describe('planInstall (pure)', () => {
  const desired = [file('commands/a.md', 'A2'), file('ralf-lite/ralf.js', 'R2')];

  it('creates missing files and the directories they need, parents first', () => {
    const p = install(desired, { '.': dir });
    expect(p.mkdirs).toEqual(['commands', 'ralf-lite']);
    expect(p.files.map((f) => [f.rel, f.action])).toEqual([
      ['commands/a.md', 'created'],
      ['ralf-lite/ralf.js', 'created'],
    ]);
    expect(p.manifest.created_dirs).toEqual(['commands', 'ralf-lite']);
    expect(p.manifest.installed_at).toBe(now);
  });

  it('table: what happens to an existing file', () => {
    const old: Manifest = install([file('commands/a.md', 'A1')], {}).manifest;
    const cases: Array<[string, PathState, Manifest | null, string]> = [
      ['same content', fileState('A2'), old, 'unchanged'],
      ['installed by ralf, untouched', fileState('A1'), old, 'updated'],
      ['installed by ralf, edited', fileState('A1 + my edit'), old, 'backed-up'],
      ['not installed by ralf', fileState('theirs'), null, 'replaced'],
    ];
    for (const [name, st, manifest, action] of cases) {
      const p = install([file('commands/a.md', 'A2')], { '.': dir, commands: dir, 'commands/a.md': st }, manifest);
      expect(p.files[0]!.action, name).toBe(action);
      if (action === 'backed-up' || action === 'replaced') {
        expect(p.files[0]!.backup).toBe('ralf-lite/backups/2026-01-02T03-04-05-678Z/commands/a.md');
        expect(p.mkdirs).toContain('ralf-lite/backups/2026-01-02T03-04-05-678Z/commands');
      }
      if (action === 'replaced') expect(p.manifest.files['commands/a.md']!.replaced).toBe(p.files[0]!.backup);
    }
  });

  it('a re-install with nothing to do leaves the manifest as it was', () => {
    const first = install(desired, { '.': dir });
    const paths = { '.': dir, commands: dir, 'ralf-lite': dir, 'commands/a.md': fileState('A2'), 'ralf-lite/ralf.js': fileState('R2') };
    const later = planInstall({ target, version: '1.0.0', runtime: first.manifest.runtime, now: '2027-01-01T00:00:00.000Z', desired, paths, manifest: first.manifest });
    expect(later.manifestChanged).toBe(false);
    expect(later.mkdirs).toEqual([]);
    expect(later.manifest).toEqual(first.manifest);
  });

  it('removes files an older version installed (unless edited)', () => {
    const old = install([...desired, file('commands/old.md', 'O'), file('commands/old2.md', 'O2')], {}).manifest;
    const p = install(desired, { '.': dir, commands: dir, 'commands/old.md': fileState('O'), 'commands/old2.md': fileState('edited') }, old);
    expect(p.files.filter((f) => f.rel.includes('old')).map((f) => [f.rel, f.action])).toEqual([
      ['commands/old.md', 'removed'],
      ['commands/old2.md', 'kept'],
    ]);
    expect(Object.keys(p.manifest.files)).not.toContain('commands/old.md');
    // The old install created the root and both dirs; that record survives the update.
    expect(p.manifest.created_dirs).toEqual(['.', 'commands', 'ralf-lite']);
  });

  it('refuses to write over a directory', () => {
    expect(() => install(desired, { '.': dir, commands: dir, 'commands/a.md': dir })).toThrow(/in the way/);
  });
});

describe('planUninstall (pure)', () => {
  it('removes untouched files, restores replaced ones, keeps edits, and lists created dirs deepest first', () => {
    const m = install([file('commands/a.md', 'A'), file('commands/b.md', 'B'), file('ralf-lite/ralf.js', 'R')], { '.': dir, commands: dir, 'commands/b.md': fileState('theirs') }).manifest;
    const backupB = m.files['commands/b.md']!.replaced!;
    const p = planUninstall({
      target,
      manifest: m,
      paths: { 'commands/a.md': fileState('A edited'), 'commands/b.md': fileState('B'), [backupB]: fileState('theirs'), 'ralf-lite/ralf.js': fileState('R') },
    });
    expect(p.files.map((f) => [f.rel, f.action])).toEqual([
      ['commands/a.md', 'kept'],
      ['commands/b.md', 'restored'],
      ['ralf-lite/ralf.js', 'removed'],
    ]);
    expect(p.rmdirs).toEqual(['ralf-lite/backups/2026-01-02T03-04-05-678Z/commands', 'ralf-lite/backups/2026-01-02T03-04-05-678Z', 'ralf-lite/backups', 'ralf-lite']);
    expect(p.warnings.join('\n')).toMatch(/commands\/a\.md: kept because you edited it/);
  });
});

describe('rendering the shipped sources', () => {
  const read = (d: string) => readdirSync(join(repoRoot, d)).map((f) => ({ f, text: readFileSync(join(repoRoot, d, f), 'utf8') }));

  it('commands use only the plugin runtime form; workflows only {{RALF}}; rendering leaves no placeholder', () => {
    for (const { f, text } of read('commands')) {
      const stripped = text.split(PLUGIN_RUNTIME).join('');
      expect(stripped, f).not.toMatch(/CLAUDE_PLUGIN_ROOT|\{\{/);
      for (const host of [claudeHost, opencodeHost]) expect(leftoverPlaceholders(renderCommand(text, host, '"/n" "/r.js"')), f).toEqual([]);
      // Both hosts only expand !`cmd` at a line start or after whitespace.
      for (const m of text.matchAll(/!`/g)) expect(/\s/.test(text[m.index! - 1] ?? '\n'), f).toBe(true);
    }
    for (const { f, text } of read('workflows')) {
      expect(text, f).toContain('{{RALF}}');
      expect(leftoverPlaceholders(renderWorkflow(text, '"/n" "/r.js"')), f).toEqual([]);
    }
  });

  it('OpenCode frontmatter drops Claude-only keys, keeps the rest byte for byte', () => {
    const src = '---\nname: x\ndescription: d\nargument-hint: "<p>"\nallowed-tools:\n  - Read\n  - Bash\nagent: build\n---\nbody $ARGUMENTS\n';
    expect(dropFrontmatterKeys(src, opencodeHost.commandFrontmatterDrop)).toBe('---\ndescription: d\nagent: build\n---\nbody $ARGUMENTS\n');
    expect(dropFrontmatterKeys(src, claudeHost.commandFrontmatterDrop)).toBe(src);
    expect(dropFrontmatterKeys('no frontmatter\n', ['a'])).toBe('no frontmatter\n');
  });

  it('quotes paths for the shell', () => {
    expect(shellQuote('/usr/bin/node')).toBe('"/usr/bin/node"');
    expect(shellQuote('/home/a b/.claude')).toBe('"/home/a b/.claude"');
    expect(shellQuote('/x/$HOME/it\'s')).toBe(`'/x/$HOME/it'\\''s'`);
  });
});
