/**
 * Exhaustive crash points of an install, in-process and deterministic: the install's
 * writes are replayed up to every possible point (as a kill -9 would leave them), then
 * the next install must end exactly like an uninterrupted one and uninstall must put the
 * config dir back byte-for-byte. Covers a fresh install that moves the user's own
 * command aside, and an update from an older ralf (files updated and removed).
 * The real CLI under kill -9 is in crash-install.test.ts; this pins down every point.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/fs/atomic-write.js';
import { hosts } from '../../src/hosts/host.js';
import { applyInstall, applyUninstall } from '../../src/install/apply.js';
import { desiredFiles } from '../../src/install/desired.js';
import { readManifest, serializeManifest } from '../../src/install/manifest.js';
import { pathsToInspect, planInstall } from '../../src/install/plan-install.js';
import { planUninstall, uninstallPathsToInspect } from '../../src/install/plan-uninstall.js';
import { absPath, snapshot } from '../../src/install/snapshot.js';
import { readPackageSources } from '../../src/install/sources.js';
import { BACKUPS_REL, MANIFEST_REL, RALF_DIR, type InstallPlan, type InstallTarget } from '../../src/install/types.js';
import { repoRoot } from '../helpers/cli.js';
import { cleanupTempDirs, scratch, treeListing } from './helpers.js';

afterAll(cleanupTempDirs);

/** A small package (the real commands and workflows, a tiny runtime) so every replay is fast. */
function fakePackage(version: string, runtime: Record<string, string>): string {
  const root = scratch('ralf-rel-pkg-');
  for (const sub of ['commands', 'workflows']) {
    mkdirSync(join(root, sub));
    for (const name of ['execute-plan.md', 'execute-phase.md']) copyFileSync(join(repoRoot, sub, name), join(root, sub, name));
  }
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'ralf-lite', version, type: 'module' }));
  for (const [rel, text] of Object.entries(runtime)) {
    mkdirSync(dirname(join(root, 'dist', rel)), { recursive: true });
    writeFileSync(join(root, 'dist', rel), text);
  }
  return join(root, 'dist', 'ralf.js');
}

const V1 = fakePackage('0.0.1', { 'ralf.js': 'v1 entry', 'cmd/task.js': 'v1 task', 'cmd/old.js': 'v1 only' });
const V2 = fakePackage('0.0.2', { 'ralf.js': 'v2 entry', 'cmd/task.js': 'v2 task', 'cmd/new.js': 'v2 only' });

/** What `ralf install` does before applying (src/commands/install.ts), for one target. */
function plan(target: InstallTarget, entry: string, now: string): InstallPlan {
  const set = desiredFiles(target, readPackageSources(entry), '/usr/bin/node');
  const manifest = readManifest(absPath(target.root, MANIFEST_REL));
  return planInstall({ target, version: '0', runtime: set.runtime, now, desired: set.files, paths: snapshot(target.root, pathsToInspect(set.files, manifest, now)), manifest, missingRootParents: [] });
}

function uninstall(target: InstallTarget): void {
  const manifest = readManifest(absPath(target.root, MANIFEST_REL))!;
  applyUninstall(planUninstall({ target, manifest, paths: snapshot(target.root, uninstallPathsToInspect(manifest)) }), { dryRun: false, commands: [] });
}

/**
 * The install's writes in apply order (src/install/apply.ts), each a point a kill can
 * fall after: ralf's own dir, the journal, the other dirs, then per file its backup,
 * its removal or restore, its content; the final manifest last. A killed atomic write
 * leaves its temp file behind.
 */
function steps(p: InstallPlan): Array<() => void> {
  const root = p.target.root;
  const out: Array<() => void> = [];
  const own = (rel: string) => rel === '.' || rel === RALF_DIR;
  for (const rel of p.mkdirs.filter(own)) out.push(() => mkdirSync(absPath(root, rel), { recursive: true }));
  if (p.journal) {
    const journal = p.journal;
    out.push(() => writeFileSync(join(root, RALF_DIR, `.manifest.json.999999.x.tmp`), 'partial'));
    out.push(() => writeFileAtomic(absPath(root, MANIFEST_REL), serializeManifest(journal)));
  }
  for (const rel of p.mkdirs.filter((r) => !own(r))) out.push(() => mkdirSync(absPath(root, rel)));
  for (const f of p.files) {
    const full = absPath(root, f.rel);
    if (f.action === 'backed-up' || f.action === 'replaced') out.push(() => writeFileAtomic(absPath(root, f.backup!), readFileSync(full)));
    if (f.action === 'removed') out.push(() => rmSync(full, { force: true }));
    if (f.content && f.action !== 'unchanged' && f.action !== 'kept') {
      const content = f.content;
      out.push(() => writeFileSync(join(dirname(full), `.${f.rel.split('/').pop()}.999999.x.tmp`), content.subarray(0, 3)));
      out.push(() => writeFileAtomic(full, content, { mode: f.executable ? 0o755 : 0o644 }));
    }
  }
  return out;
}

const GSD: Record<string, string> = {
  'commands/gsd/execute-phase.md': '---\nname: gsd:execute-phase\n---\nGSD\n',
  'get-shit-done/config.json': '{}\n',
  'commands/execute-plan.md': '---\ndescription: my own execute-plan\n---\nmine\n',
};

function seed(root: string): void {
  rmSync(root, { recursive: true, force: true });
  for (const [rel, text] of Object.entries(GSD)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

const norm = (tree: Record<string, string>) => Object.fromEntries(Object.entries(tree).map(([k, v]) => [k.replace(/backups\/[^/]+/, 'backups/<time>'), v]));
/** The manifest minus times (created_dirs as a set: a killed run's backup folder stays recorded for removal). */
function shape(root: string): unknown {
  const m = readManifest(absPath(root, MANIFEST_REL))!;
  const text = JSON.stringify({ ...m, installed_at: '', updated_at: '', backups: m.backups.map((b) => ({ ...b, at: '' })) }).replace(/backups\/[^/"]+/g, 'backups/<time>');
  const s = JSON.parse(text);
  return { ...s, created_dirs: [...new Set(s.created_dirs)].sort() };
}
const withoutManifest = (tree: Record<string, string>) => Object.fromEntries(Object.entries(tree).filter(([k]) => k !== MANIFEST_REL));

describe('an install killed at any point is finished by the next install and undone by uninstall', () => {
  const T1 = '2026-01-01T00:00:00.000Z';
  const T2 = '2026-01-02T00:00:00.000Z';
  const T3 = '2026-01-03T00:00:00.000Z';

  for (const scenario of ['fresh install over the user\'s own command', 'update from an older version'] as const) {
    it(scenario, () => {
      const root = join(scratch('ralf-rel-recover-'), 'claude');
      const target: InstallTarget = { host: hosts.claude, scope: 'global', root, rootSource: '--config-dir' };
      const entry = scenario.startsWith('fresh') ? V1 : V2;
      const prepare = () => {
        seed(root);
        if (scenario.startsWith('update')) applyInstall(plan(target, V1, T1), { dryRun: false, commands: [] });
      };

      seed(root);
      const pristine = treeListing(root);
      // The reference: uninterrupted.
      prepare();
      const ref = plan(target, entry, T2);
      applyInstall(ref, { dryRun: false, commands: [] });
      const after = norm(treeListing(root));
      const refShape = shape(root);
      if (scenario.startsWith('fresh')) expect(ref.files.find((f) => f.rel === 'commands/execute-plan.md')?.action).toBe('replaced');
      else expect(ref.files.filter((f) => f.action === 'updated' || f.action === 'removed').map((f) => `${f.action} ${f.rel}`).sort()).toEqual(['removed ralf-lite/cmd/old.js', 'updated ralf-lite/cmd/task.js', 'updated ralf-lite/ralf.js']);

      const total = steps(ref).length;
      expect(total).toBeGreaterThan(5);
      for (let k = 0; k <= total; k++) {
        prepare();
        const p = plan(target, entry, T2);
        for (const step of steps(p).slice(0, k)) step();
        // The next install finishes the job exactly.
        const again = plan(target, entry, T3);
        applyInstall(again, { dryRun: false, commands: [] });
        expect(withoutManifest(norm(treeListing(root, (rel) => /^ralf-lite\/backups\/.*\.tmp$/.test(rel)))), `killed after step ${k}`).toEqual(withoutManifest(after));
        expect(shape(root), `killed after step ${k}`).toEqual(refShape);
        // A second install has nothing left to do.
        expect(plan(target, entry, T3).journal, `killed after step ${k}`).toBeNull();
        // Uninstall returns to the config dir as it was before any ralf (the user's command back in place).
        uninstall(target);
        expect(treeListing(root), `killed after step ${k}`).toEqual(pristine);
      }
    });
  }
});
