/**
 * The files one target should end up with (pure): host-specific command files, the
 * workflows and the runtime copy, all pointing at the runtime by absolute path.
 */
import { join } from 'node:path';
import { RalfError } from '../errors.js';
import { leftoverPlaceholders, renderCommand, renderOpencodePlugin, renderWorkflow, runtimeInvocation } from './render.js';
import type { PackageSources } from './sources.js';
import { RALF_DIR, RUNTIME_ENTRY_REL, type DesiredFile, type InstallTarget } from './types.js';

export interface DesiredSet {
  files: DesiredFile[];
  /** The command line the installed files run ralf with. */
  runtime: string;
  /** How the user invokes the installed commands. */
  commands: string[];
}

const PLUGIN_BUILD = 'opencode-plugin.mjs';

export function desiredFiles(target: InstallTarget, sources: PackageSources, nodePath: string, options: { hooks: boolean } = { hooks: true }): DesiredSet {
  const entryPath = join(target.root, ...RUNTIME_ENTRY_REL.split('/'));
  const runtime = runtimeInvocation(nodePath, entryPath);
  const files: DesiredFile[] = [];
  const text = (s: string) => Buffer.from(s, 'utf8');
  for (const c of sources.commands) {
    const rel = `${target.host.commandsSubdir}/${c.name}.md`;
    files.push({ rel, kind: 'command', content: text(checked(rel, renderCommand(c.text, target.host, runtime))), executable: false });
  }
  for (const w of sources.workflows) {
    const rel = `${RALF_DIR}/workflows/${w.name}.md`;
    files.push({ rel, kind: 'workflow', content: text(checked(rel, renderWorkflow(w.text, runtime))), executable: false });
  }
  for (const r of sources.runtime) {
    files.push({ rel: `${RALF_DIR}/${r.rel}`, kind: 'runtime', content: r.bytes, executable: `${RALF_DIR}/${r.rel}` === RUNTIME_ENTRY_REL || r.executable });
  }
  const hook = target.host.stopHook;
  if (options.hooks && hook.kind === 'plugin') {
    const built = sources.runtime.find((r) => r.rel === PLUGIN_BUILD);
    if (!built) throw new RalfError('internal', `the runtime has no ${PLUGIN_BUILD} (rebuild with npm run build)`, { exitCode: 1 });
    files.push({ rel: hook.rel, kind: 'plugin', content: text(renderOpencodePlugin(Buffer.from(built.bytes).toString('utf8'), nodePath, entryPath)), executable: false });
  }
  return { files, runtime, commands: sources.commands.map((c) => target.host.commandInvocation(c.name)) };
}

function checked(rel: string, rendered: string): string {
  const left = leftoverPlaceholders(rendered);
  if (left.length > 0) {
    throw new RalfError('internal', `rendering ${rel} left placeholders: ${left.join(', ')}`, { exitCode: 1 });
  }
  return rendered;
}
