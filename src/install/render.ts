/**
 * Turns the shipped sources into installed files (pure). The sources are written so
 * they also work unchanged as a Claude Code plugin: the runtime is
 * `node "${CLAUDE_PLUGIN_ROOT}/dist/ralf.js"` in commands (Claude Code substitutes the
 * variable in plugin command files) and `{{RALF}}` in workflows (filled in by
 * `ralf install --render`, which the commands call). Installing replaces both with the
 * absolute node + runtime path, so the installed files need no plugin, PATH or npx.
 */
import type { Host } from '../hosts/host.js';

export const PLUGIN_RUNTIME = 'node "${CLAUDE_PLUGIN_ROOT}/dist/ralf.js"';
export const WORKFLOW_RUNTIME_TOKEN = '{{RALF}}';

/** Quotes a path for a POSIX shell: double quotes when that is safe (readable), else single quotes. */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_@%+=:,./ ~-]+$/.test(value)) return `"${value}"`;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The command line installed files use: absolute node, then the runtime file. */
export function runtimeInvocation(nodePath: string, runtimePath: string): string {
  return `${shellQuote(nodePath)} ${shellQuote(runtimePath)}`;
}

export function renderWorkflow(source: string, runtime: string): string {
  return source.split(WORKFLOW_RUNTIME_TOKEN).join(runtime);
}

export function renderCommand(source: string, host: Host, runtime: string): string {
  const body = source.split(PLUGIN_RUNTIME).join(runtime);
  return dropFrontmatterKeys(body, host.commandFrontmatterDrop);
}

/** Placeholders left after rendering (a source that uses the variable in another form). */
export function leftoverPlaceholders(text: string): string[] {
  return [...new Set(text.match(/\$\{CLAUDE_PLUGIN_ROOT\}|\{\{RALF\}\}/g) ?? [])];
}

/**
 * Removes top-level frontmatter keys with their values (continuation lines are the
 * indented or `- ` lines under a key). Everything else stays byte-for-byte.
 */
export function dropFrontmatterKeys(text: string, keys: readonly string[]): string {
  if (keys.length === 0) return text;
  const match = /^---\r?\n([\s\S]*?)\r?\n---(\r?\n|$)/.exec(text);
  if (!match) return text;
  const lines = match[1]!.split('\n');
  const kept: string[] = [];
  let dropping = false;
  for (const line of lines) {
    const key = /^([A-Za-z0-9_-]+)\s*:/.exec(line)?.[1];
    if (key !== undefined) dropping = keys.includes(key);
    if (!dropping) kept.push(line);
  }
  const newline = match[2] ?? '\n';
  return `---\n${kept.join('\n')}\n---${newline}${text.slice(match[0].length)}`;
}

/** The built OpenCode plugin (dist/opencode-plugin.mjs) with the absolute runtime filled in. */
export function renderOpencodePlugin(source: string, nodePath: string, runtimePath: string): string {
  const line = /^var INSTALLED_RUNTIME = null;$/m;
  if (!line.test(source)) throw new Error('the built OpenCode plugin has no INSTALLED_RUNTIME line to fill in');
  return source.replace(line, `var INSTALLED_RUNTIME = ${JSON.stringify([nodePath, runtimePath])};`);
}
