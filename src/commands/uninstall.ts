/**
 * `ralf uninstall`: removes exactly what `ralf install` recorded in its manifest. Files
 * you edited since are kept (and listed); files ralf moved aside are put back; the
 * directories ralf created are removed when empty. Read → pure plan → apply.
 */
import { printJson, printText } from '../cli/output.js';
import { ExitCode } from '../exit-codes.js';
import { applyUninstall } from '../install/apply.js';
import { resultsJson, resultsText } from '../install/format.js';
import { readManifest } from '../install/manifest.js';
import { parseInstallArgs } from '../install/options.js';
import { planUninstall, uninstallPathsToInspect } from '../install/plan-uninstall.js';
import { absPath, snapshot } from '../install/snapshot.js';
import { MANIFEST_REL, type TargetResult } from '../install/types.js';
import { planSettingsUninstall } from '../install/settings-hooks.js';
import { readTextIfExists } from '../fs/read-if-exists.js';

export async function run(argv: string[]): Promise<number> {
  const args = parseInstallArgs(argv, 'uninstall');
  const results: TargetResult[] = [];
  const plans = args.targets().map((target) => {
    const manifest = readManifest(absPath(target.root, MANIFEST_REL));
    if (!manifest) return { target, plan: null };
    const plan = planUninstall({ target, manifest, paths: snapshot(target.root, uninstallPathsToInspect(manifest)) });
    const record = manifest.settings_hooks;
    if (record) {
      const path = absPath(target.root, record.rel);
      const s = planSettingsUninstall({ path, current: readTextIfExists(path), record });
      if (s.text !== null || s.remove) plan.settings = { rel: record.rel, text: s.text, remove: s.remove };
      plan.files.push({ rel: record.rel, kind: 'settings', action: s.action, ...(s.note ? { note: s.note } : {}) });
    }
    return { target, plan };
  });
  for (const { target, plan } of plans) {
    if (!plan) {
      results.push({ target, mode: 'uninstall', files: [], dirs: [], manifest: { rel: MANIFEST_REL, action: 'none' }, runtime: null, commands: [], warnings: ['ralf-lite is not installed here (no manifest)'] });
      continue;
    }
    results.push(applyUninstall(plan, { dryRun: args.dryRun, commands: [] }));
  }
  if (args.json) printJson(resultsJson(results, args.dryRun, 'uninstall'));
  else printText(resultsText(results, args.dryRun, 'uninstall'));
  return ExitCode.ok;
}
export { UNINSTALL_USAGE as USAGE } from '../install/options.js';
