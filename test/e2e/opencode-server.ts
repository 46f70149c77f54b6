/**
 * The real OpenCode as a long-lived server (`opencode serve`, what the TUI and the SDK talk
 * to), so sessions behave as in interactive use: a session that goes idle can be prompted
 * again by a plugin. (`opencode run` stops listening at the first idle and exits, so a
 * plugin's follow-up prompt never runs there.) One server per test file; loopback only.
 */
import { execa, type ResultPromise } from 'execa';
import { opencodeBin, opencodeEnv, type Sandbox } from './hosts.js';

export interface OpencodeServer {
  url: string;
  /** POST/GET a JSON endpoint of the server. */
  call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<any>;
  /** Creates a session and runs a slash command in it (returns when the first turn ends). */
  command(sessionId: string, command: string, args: string): Promise<void>;
  message(sessionId: string, text: string): Promise<void>;
  newSession(): Promise<string>;
  /** Waits until the session has been idle for `quietMs` (a plugin's follow-up turns included). */
  settle(sessionId: string, quietMs?: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startOpencodeServer(sb: Sandbox, modelUrl: string, extraEnv: Record<string, string> = {}): Promise<OpencodeServer> {
  const env = { ...opencodeEnv(sb, modelUrl), PWD: sb.project, ...extraEnv };
  const child: ResultPromise = execa(opencodeBin, ['serve', '--port', '0', '--hostname', '127.0.0.1'], { cwd: sb.project, env, extendEnv: false, reject: false, stdin: 'ignore', buffer: false, forceKillAfterDelay: 2000 });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`opencode serve did not start:\n${seen}`)), 60_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const m = /https?:\/\/127\.0\.0\.1:\d+/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void child.then(() => reject(new Error(`opencode serve exited:\n${seen}`)));
  });
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const busy = async (id: string) => {
    const status = (await call('GET', '/session/status')) as Record<string, { type: string }>;
    return status[id] !== undefined && status[id].type !== 'idle';
  };
  return {
    url,
    call,
    newSession: async () => (await call('POST', '/session', {})).id as string,
    command: async (id, command, args) => {
      await call('POST', `/session/${id}/command`, { command, arguments: args });
    },
    message: async (id, text) => {
      await call('POST', `/session/${id}/message`, { parts: [{ type: 'text', text }] });
    },
    settle: async (id, quietMs = 2500, timeoutMs = 90_000) => {
      const end = Date.now() + timeoutMs;
      let idleSince = Date.now();
      while (Date.now() < end) {
        if (await busy(id)) idleSince = Date.now();
        else if (Date.now() - idleSince >= quietMs) return;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`session ${id} still busy after ${timeoutMs} ms`);
    },
    close: async () => {
      child.kill('SIGTERM');
      await child;
    },
  };
}
