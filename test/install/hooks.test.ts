/**
 * The Stop hook in Claude Code's settings.json and the OpenCode plugin file: install merges
 * and uninstall gives back what was there (byte for byte when nothing else changed it).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { treeListing, writeFile } from './helpers.js';

const ralf = (args: string[]) => runCli(args);
const stopCommands = (settings: any, event: string): string[] =>
  (settings.hooks?.[event] ?? []).flatMap((g: any) => (g.hooks ?? []).map((h: any) => h.command));

// What GSD's installer registers: its own Stop, SubagentStop and PreCompact hooks.
const GSD_SETTINGS = `{
    "model": "opus",
    "hooks": {
        "Stop": [{ "hooks": [{ "type": "command", "command": "node /gsd/hooks/gsd-context-monitor.js", "timeout": 10 }] }],
        "SubagentStop": [{ "hooks": [{ "type": "command", "command": "node /gsd/hooks/gsd-context-monitor.js" }] }],
        "PreCompact": [{ "hooks": [{ "type": "command", "command": "node /gsd/hooks/gsd-context-monitor.js" }] }]
    },
    "statusLine": { "type": "command", "command": "node /gsd/hooks/gsd-statusline.js" }
}
`;

describe('ralf install --claude: the Stop hook in settings.json', () => {
  it('merges beside existing hooks arrays and restores the file byte for byte', async () => {
    const dir = tempDir('ralf-hooks-');
    writeFile(join(dir, 'settings.json'), GSD_SETTINGS);
    const before = treeListing(dir);
    const r = await ralf(['install', '--claude', '--config-dir', dir, '--json']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const settings = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'));
    const ours = `"${process.execPath}" "${join(dir, 'ralf-lite', 'ralf.js')}" hook stop`;
    expect(stopCommands(settings, 'Stop')).toEqual(['node /gsd/hooks/gsd-context-monitor.js', ours]);
    expect(stopCommands(settings, 'SubagentStop')).toEqual(['node /gsd/hooks/gsd-context-monitor.js', ours]);
    expect(stopCommands(settings, 'PreCompact')).toEqual(['node /gsd/hooks/gsd-context-monitor.js']);
    expect(settings.model).toBe('opus');
    expect(settings.statusLine.command).toBe('node /gsd/hooks/gsd-statusline.js');
    // The file keeps its 4-space indentation.
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toContain('\n    "model": "opus"');

    // A second install changes nothing.
    const again = JSON.parse(String((await ralf(['install', '--claude', '--config-dir', dir, '--json'])).stdout));
    expect(again.targets[0].changed).toBe(false);

    expect((await ralf(['uninstall', '--claude', '--config-dir', dir])).exitCode).toBe(0);
    expect(treeListing(dir)).toEqual(before);
  });

  it('a missing settings.json is created, then removed again', async () => {
    const dir = tempDir('ralf-hooks-');
    writeFile(join(dir, 'CLAUDE.md'), 'mine\n');
    const before = treeListing(dir);
    expect((await ralf(['install', '--claude', '--config-dir', dir])).exitCode).toBe(0);
    expect(stopCommands(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')), 'Stop')).toHaveLength(1);
    expect((await ralf(['uninstall', '--claude', '--config-dir', dir])).exitCode).toBe(0);
    expect(treeListing(dir)).toEqual(before);
  });

  it('edited by the user (or GSD) after the install: uninstall removes only ralf\'s entries', async () => {
    const dir = tempDir('ralf-hooks-');
    writeFile(join(dir, 'settings.json'), '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo mine"}]}]}}\n');
    expect((await ralf(['install', '--claude', '--config-dir', dir])).exitCode).toBe(0);
    const edited = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'));
    edited.theme = 'dark';
    edited.hooks.PreCompact = [{ hooks: [{ type: 'command', command: 'echo compact' }] }];
    writeFileSync(join(dir, 'settings.json'), `${JSON.stringify(edited, null, 2)}\n`);
    const u = await ralf(['uninstall', '--claude', '--config-dir', dir, '--json']);
    expect(u.exitCode).toBe(0);
    const after = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'));
    expect(after).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo mine' }] }], PreCompact: [{ hooks: [{ type: 'command', command: 'echo compact' }] }] }, theme: 'dark' });
  });

  it('--no-hooks leaves settings.json alone, and takes out the entries of an earlier install', async () => {
    const dir = tempDir('ralf-hooks-');
    writeFile(join(dir, 'settings.json'), GSD_SETTINGS);
    expect((await ralf(['install', '--claude', '--config-dir', dir, '--no-hooks'])).exitCode).toBe(0);
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe(GSD_SETTINGS);
    expect((await ralf(['install', '--claude', '--config-dir', dir])).exitCode).toBe(0);
    expect(stopCommands(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')), 'Stop')).toHaveLength(2);
    expect((await ralf(['install', '--claude', '--config-dir', dir, '--no-hooks'])).exitCode).toBe(0);
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe(GSD_SETTINGS);
  });

  it('a settings.json that is not JSON (comments) stops the install before anything is written', async () => {
    const dir = tempDir('ralf-hooks-');
    writeFile(join(dir, 'settings.json'), '{\n  // my comment\n  "model": "opus"\n}\n');
    const r = await ralf(['install', '--claude', '--config-dir', dir]);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('settings.json');
    expect(String(r.stderr)).toContain('--no-hooks');
    expect(existsSync(join(dir, 'ralf-lite'))).toBe(false);
  });

  it('--local writes the project\'s settings.local.json, not the shared settings.json', async () => {
    const project = tempDir('ralf-hooks-proj-');
    writeFile(join(project, '.claude', 'settings.json'), '{"permissions": {}}\n');
    const r = await runCli(['install', '--claude', '--local'], { cwd: project });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toBe('{"permissions": {}}\n');
    expect(stopCommands(JSON.parse(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8')), 'Stop')).toHaveLength(1);
  });
});

describe('ralf install --opencode: the plugin file', () => {
  it('installs plugin/ralf-lite.js with the absolute runtime, and uninstall removes it', async () => {
    const dir = tempDir('ralf-oc-');
    writeFile(join(dir, 'opencode.json'), '{"plugin": []}\n');
    const before = treeListing(dir);
    expect((await ralf(['install', '--opencode', '--config-dir', dir])).exitCode).toBe(0);
    const plugin = readFileSync(join(dir, 'plugin', 'ralf-lite.js'), 'utf8');
    expect(plugin).toContain(`var INSTALLED_RUNTIME = ${JSON.stringify([process.execPath, join(dir, 'ralf-lite', 'ralf.js')])};`);
    expect(plugin).toMatch(/export\s*{\s*opencode_plugin_default as default\s*}/);
    expect(readFileSync(join(dir, 'opencode.json'), 'utf8')).toBe('{"plugin": []}\n');
    expect((await ralf(['uninstall', '--opencode', '--config-dir', dir])).exitCode).toBe(0);
    expect(treeListing(dir)).toEqual(before);
    expect((await ralf(['install', '--opencode', '--config-dir', dir, '--no-hooks'])).exitCode).toBe(0);
    expect(existsSync(join(dir, 'plugin', 'ralf-lite.js'))).toBe(false);
  });
});
