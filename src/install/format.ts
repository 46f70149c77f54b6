/** Readable and JSON output for install/uninstall results. */
import { style, table } from '../cli/output.js';
import { absPath } from './snapshot.js';
import type { FileAction, TargetResult } from './types.js';

const ORDER: FileAction[] = ['created', 'updated', 'backed-up', 'replaced', 'restored', 'removed', 'kept', 'missing', 'unchanged'];

export function resultsJson(results: TargetResult[], dryRun: boolean, mode: 'install' | 'uninstall'): unknown {
  return {
    action: mode,
    dry_run: dryRun,
    targets: results.map((r) => ({
      host: r.target.host.name,
      label: r.target.host.label,
      scope: r.target.scope,
      root: r.target.root,
      root_source: r.target.rootSource,
      manifest: { path: absPath(r.target.root, r.manifest.rel), action: r.manifest.action },
      runtime: r.runtime,
      commands: r.commands,
      changed: r.files.some((f) => f.action !== 'unchanged') || r.dirs.length > 0 || (r.manifest.action !== 'unchanged' && r.manifest.action !== 'none'),
      files: r.files.map((f) => ({
        path: absPath(r.target.root, f.rel),
        rel: f.rel,
        kind: f.kind,
        action: f.action,
        ...(f.backup ? { backup: absPath(r.target.root, f.backup) } : {}),
        ...(f.note ? { note: f.note } : {}),
      })),
      dirs: r.dirs.map((d) => ({ path: absPath(r.target.root, d.rel), rel: d.rel, action: d.action, ...(d.note ? { note: d.note } : {}) })),
      warnings: r.warnings,
    })),
  };
}

export function resultsText(results: TargetResult[], dryRun: boolean, mode: 'install' | 'uninstall'): string {
  const s = style();
  const out: string[] = [];
  if (dryRun) out.push(s.yellow('dry run: nothing was written'), '');
  if (results.length === 0) out.push(mode === 'uninstall' ? 'Nothing to uninstall: no ralf-lite manifest found for OpenCode or Claude Code.' : 'Nothing to install.');
  for (const r of results) {
    out.push(s.bold(`${r.target.host.label} (${r.target.scope}): ${r.target.root}`) + s.dim(`  [${r.target.rootSource}]`));
    const rows = [...r.files]
      .sort((a, b) => ORDER.indexOf(a.action) - ORDER.indexOf(b.action) || a.rel.localeCompare(b.rel))
      .map((f) => [f.action, f.rel, f.backup ? `${f.action === 'restored' ? 'from' : '→'} ${f.backup}${f.note ? ` (${f.note})` : ''}` : (f.note ?? '')]);
    if (r.manifest.action !== 'none') rows.push([r.manifest.action, r.manifest.rel, 'manifest']);
    for (const d of r.dirs) rows.push([`dir ${d.action}`, `${d.rel}/`, d.note ?? '']);
    out.push(indent(table(['action', 'path', 'note'], rows)));
    const counts = countActions(r);
    out.push(`  ${counts}`);
    if (mode === 'install' && r.runtime) {
      out.push(`  commands: ${r.commands.join(', ')}    runtime: ${r.runtime}`);
    }
    for (const w of r.warnings) out.push(s.yellow(`  note: ${w}`));
    out.push('');
  }
  if (mode === 'install' && results.length > 0 && !dryRun) {
    out.push('Start a new session of the host to see the commands, e.g. `/execute-plan .planning/phases/01-x/01-01-PLAN.md`.');
  }
  return out.join('\n');
}

function countActions(r: TargetResult): string {
  const counts = new Map<string, number>();
  for (const f of r.files) counts.set(f.action, (counts.get(f.action) ?? 0) + 1);
  return ORDER.filter((a) => counts.has(a))
    .map((a) => `${counts.get(a)} ${a}`)
    .join(', ');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
