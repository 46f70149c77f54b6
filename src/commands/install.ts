/**
 * `ralf install`: installs /execute-plan and /execute-phase, the workflows and a copy of
 * the runtime into OpenCode and/or Claude Code (global config dir or project-local).
 * Read → pure plan (src/install/plan-install.ts) → apply. `--render` prints one shipped
 * file rendered for the running runtime (plugin mode and subagents use it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { printJson, printText, writeStdout } from '../cli/output.js';
import { RalfError, usageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { hosts } from '../hosts/host.js';
import { applyInstall } from '../install/apply.js';
import { desiredFiles } from '../install/desired.js';
import { resultsJson, resultsText } from '../install/format.js';
import { readManifest } from '../install/manifest.js';
import { INSTALL_USAGE, parseInstallArgs } from '../install/options.js';
import { orderManifest, pathsToInspect, planInstall } from '../install/plan-install.js';
import { planSettingsInstall, planSettingsUninstall, type SettingsHooksRecord } from '../install/settings-hooks.js';
import { readTextIfExists } from '../fs/read-if-exists.js';
import { leftoverPlaceholders, renderCommand, renderWorkflow, runtimeInvocation } from '../install/render.js';
import { absPath, snapshot } from '../install/snapshot.js';
import { findRenderSource, readPackageSources, runtimeEntry } from '../install/sources.js';
import { BACKUPS_REL, MANIFEST_REL, type FileAction, type InstallPlan, type Manifest } from '../install/types.js';

declare const RALF_VERSION: string | undefined;

export async function run(argv: string[]): Promise<number> {
  const args = parseInstallArgs(argv, 'install');
  if (args.render !== undefined) return render(args.render, args.hostFlags);

  const targets = args.targets();
  const sources = readPackageSources(runtimeEntry());
  const version = typeof RALF_VERSION === 'string' ? RALF_VERSION : packageVersion(sources.root);
  const now = new Date().toISOString();

  // Plan every target before writing anything: a conflict in one host aborts them all.
  const plans: Array<{ plan: InstallPlan; commands: string[] }> = targets.map((target) => {
    const set = desiredFiles(target, sources, process.execPath, { hooks: args.hooks });
    const manifest = readManifest(absPath(target.root, MANIFEST_REL));
    if (manifest && manifest.host !== target.host.name) {
      throw new RalfError('install_conflict', `${target.root} holds a ralf-lite install for ${hosts[manifest.host].label}, not ${target.host.label}`, {
        problems: [{ file: absPath(target.root, MANIFEST_REL), message: `manifest host is "${manifest.host}"`, hint: `check --config-dir, or run \`ralf uninstall --${manifest.host} --config-dir ${target.root}\` first` }],
      });
    }
    const paths = snapshot(target.root, pathsToInspect(set.files, manifest, now));
    const plan = planInstall({ target, version, runtime: set.runtime, now, desired: set.files, paths, manifest, missingRootParents: missingParents(target.root) });
    withSettingsHooks(plan, manifest, args.hooks ? `${set.runtime} hook stop` : null);
    return { plan, commands: set.commands };
  });

  const results = plans.map(({ plan, commands }) => applyInstall(plan, { dryRun: args.dryRun, commands }));
  if (args.json) printJson(resultsJson(results, args.dryRun, 'install'));
  else printText(resultsText(results, args.dryRun, 'install'));
  return ExitCode.ok;
}

/** Prints a shipped workflow or command rendered with the running runtime as `{{RALF}}`. */
function render(name: string, hostFlags: string[]): number {
  if (!/^(workflows|commands)\/[A-Za-z0-9._-]+\.md$/.test(name)) {
    throw usageError(`--render takes workflows/<name>.md or commands/<name>.md, got "${name}"`, `usage: ${INSTALL_USAGE}`);
  }
  const entry = runtimeEntry();
  const file = findRenderSource(entry, name);
  if (!file) throw new RalfError('not_found', `${name} not found beside the ralf runtime ${entry}`, { problems: [{ file: entry, message: `no ${name} next to it or in its package`, hint: 'reinstall with `ralf install`' }] });
  const text = readFileSync(file, 'utf8');
  const runtime = runtimeInvocation(process.execPath, entry);
  const host = hosts[hostFlags[0] === 'opencode' ? 'opencode' : 'claude'];
  const out = name.startsWith('workflows/') ? renderWorkflow(text, runtime) : renderCommand(text, host, runtime);
  const left = leftoverPlaceholders(out);
  if (left.length > 0 && name.startsWith('workflows/')) throw new RalfError('internal', `rendering ${name} left placeholders: ${left.join(', ')}`, { exitCode: 1 });
  writeStdout(out);
  return ExitCode.ok;
}

/**
 * Claude Code: ralf's Stop/SubagentStop entries in the settings file, merged into the plan
 * (written after the files, recorded in the manifest and its journal). `command` null
 * (--no-hooks) takes out entries an earlier install made.
 */
function withSettingsHooks(plan: InstallPlan, old: Manifest | null, command: string | null): void {
  const hook = plan.target.host.stopHook;
  if (hook.kind !== 'settings') return;
  const rel = plan.target.scope === 'local' ? hook.localRel : hook.globalRel;
  const path = absPath(plan.target.root, rel);
  const current = readTextIfExists(path);
  const prev = old?.settings_hooks ?? null;
  let record: SettingsHooksRecord | null = prev;
  let op: { action: FileAction; note?: string | undefined } | null = null;
  if (command !== null) {
    const s = planSettingsInstall({ rel, path, current, command, old: prev && prev.rel === rel ? prev : null });
    if (s.text !== null) plan.settings = { rel, text: s.text, remove: false };
    record = s.record;
    op = { action: s.action };
  } else if (prev) {
    const s = planSettingsUninstall({ path: absPath(plan.target.root, prev.rel), current: readTextIfExists(absPath(plan.target.root, prev.rel)), record: prev });
    if (s.text !== null || s.remove) plan.settings = { rel: prev.rel, text: s.text, remove: s.remove };
    record = null;
    op = { action: s.action, note: s.note };
  }
  if (op) plan.files.push({ rel: plan.settings?.rel ?? rel, kind: 'settings', action: op.action, ...(op.note ? { note: op.note } : {}) });
  if (JSON.stringify(record ?? null) === JSON.stringify(prev ?? null)) return;
  const { settings_hooks: _drop, ...rest } = plan.manifest;
  plan.manifest = orderManifest(record ? { ...rest, settings_hooks: record } : rest);
  plan.manifestChanged = true;
  // The journal must know the entries before the settings file changes (an install killed
  // in between is then still undone by uninstall).
  const journalBase = plan.journal ?? plan.manifest;
  const { settings_hooks: _j, ...journalRest } = journalBase;
  plan.journal = orderManifest({ ...journalRest, ...(record ?? prev ? { settings_hooks: (record ?? prev)! } : {}) });
}

/** Ancestors of `dir` that do not exist, outermost first. */
function missingParents(dir: string): string[] {
  const out: string[] = [];
  for (let p = dirname(dir); p !== dirname(p) && !existsSync(p); p = dirname(p)) out.unshift(p);
  return out;
}

function packageVersion(root: string): string {
  try {
    return (JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
export { INSTALL_USAGE as USAGE } from '../install/options.js';
