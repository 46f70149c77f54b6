/**
 * ralf-lite's OpenCode plugin: the OpenCode side of the Stop hook. Written against the
 * plugin API of OpenCode 1.18 (a module whose default export is `{ id, server }`, where
 * `server(input)` returns the hooks); a 2.x `Plugin.define({ id, setup })` export is one
 * more object in this file. Two hooks:
 * - `shell.env`: puts the session id into the environment of the agent's shell commands
 *   (OPENCODE_SESSION_ID), so `ralf task start`/`verify` record which session runs a loop;
 * - `event` on `session.idle`: runs `ralf hook stop` (the same rule, caps and reason text as
 *   Claude Code's Stop hook) and, when it says block, prompts the session to continue with
 *   the reason. The next idle after such a prompt is `stop_hook_active`, as in Claude Code.
 * Subagent (child) sessions are left alone: their result already went to the parent.
 *
 * Built to dist/opencode-plugin.mjs: the npm package's export (`"plugin": ["ralf-lite"]`
 * in opencode.json, runtime = `node` + the package's dist/ralf.js) and, rendered with the
 * absolute runtime by `ralf install --opencode`, the file `<config>/plugin/ralf-lite.js`.
 * Anything that goes wrong allows the stop: the plugin must never trap a session.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Replaced by `ralf install --opencode` with the absolute node and runtime paths. */
const INSTALLED_RUNTIME: string[] | null = null;

interface SessionApi {
  get(args: { path: { id: string } }): Promise<{ data?: { parentID?: string; directory?: string } | undefined }>;
  messages(args: { path: { id: string } }): Promise<{ data?: Array<{ info?: { role?: string }; parts?: Array<{ type?: string; text?: string }> }> | undefined }>;
  promptAsync(args: { path: { id: string }; body: { parts: Array<{ type: 'text'; text: string }> } }): Promise<{ error?: unknown }>;
}

interface PluginInput {
  client: { session: SessionApi };
  directory: string;
}

interface OpenCodeEvent {
  type: string;
  properties?: { sessionID?: string; status?: { type?: string } };
}

function runtimeCommand(): string[] {
  if (INSTALLED_RUNTIME) return INSTALLED_RUNTIME;
  return ['node', fileURLToPath(new URL('./ralf.js', import.meta.url))];
}

/** `ralf hook stop` with the hook JSON on stdin; resolves to the block reason, or null to allow. */
function askStopHook(input: Record<string, unknown>, cwd: string): Promise<string | null> {
  const [cmd, ...args] = runtimeCommand();
  return new Promise((resolve) => {
    let out = '';
    let settled = false;
    const done = (reason: string | null) => {
      if (!settled) resolve(reason);
      settled = true;
    };
    try {
      const child = spawn(cmd!, [...args, 'hook', 'stop'], { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        done(null);
      }, 20_000);
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      child.on('error', () => done(null));
      child.on('close', () => {
        clearTimeout(timer);
        try {
          const answer = out.trim() ? (JSON.parse(out) as { decision?: string; reason?: string }) : null;
          done(answer?.decision === 'block' && typeof answer.reason === 'string' ? answer.reason : null);
        } catch {
          done(null);
        }
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(JSON.stringify(input));
    } catch {
      done(null);
    }
  });
}

function lastAssistantText(messages: Array<{ info?: { role?: string }; parts?: Array<{ type?: string; text?: string }> }> | undefined): string | null {
  const last = [...(messages ?? [])].reverse().find((m) => m.info?.role === 'assistant');
  const text = (last?.parts ?? []).filter((p) => p.type === 'text' && typeof p.text === 'string').map((p) => p.text).join('\n');
  return text || null;
}

async function ralfLiteServer({ client, directory }: PluginInput) {
  // Per session: a continuation prompt is on its way ('pending', until the session is busy
  // again), or the session is running one ('continued': its next idle is stop_hook_active).
  const held = new Map<string, 'pending' | 'continued'>();
  const deciding = new Set<string>();

  async function onIdle(sessionID: string): Promise<void> {
    const mark = held.get(sessionID);
    // OpenCode repeats session.idle; one decision per idle.
    if (mark === 'pending' || deciding.has(sessionID)) return;
    deciding.add(sessionID);
    try {
      held.delete(sessionID);
      const session = (await client.session.get({ path: { id: sessionID } })).data;
      if (session?.parentID) return;
      const messages = (await client.session.messages({ path: { id: sessionID } })).data;
      const cwd = session?.directory ?? directory;
      const reason = await askStopHook(
        { session_id: sessionID, cwd, hook_event_name: 'session.idle', stop_hook_active: mark === 'continued', last_assistant_message: lastAssistantText(messages) },
        cwd,
      );
      if (reason === null) return;
      held.set(sessionID, 'pending');
      const sent = await client.session.promptAsync({ path: { id: sessionID }, body: { parts: [{ type: 'text', text: reason }] } });
      if (sent.error) held.delete(sessionID);
    } catch {
      held.delete(sessionID);
    } finally {
      deciding.delete(sessionID);
    }
  }

  return {
    'shell.env': async (input: { sessionID?: string }, output: { env: Record<string, string> }) => {
      if (input.sessionID) output.env.OPENCODE_SESSION_ID = input.sessionID;
    },
    event: async ({ event }: { event: OpenCodeEvent }) => {
      const id = event.properties?.sessionID;
      if (!id) return;
      if (event.type === 'session.status' && event.properties?.status?.type === 'busy' && held.get(id) === 'pending') held.set(id, 'continued');
      if (event.type === 'session.idle') void onIdle(id);
    },
  };
}

export default { id: 'ralf-lite', server: ralfLiteServer };
