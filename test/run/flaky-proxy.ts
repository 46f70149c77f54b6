/**
 * A loopback proxy in front of the scripted model that answers the next N agent requests
 * (those offering the shell tool) with an API error, the way a rate-limited or overloaded
 * provider does, then forwards everything else unchanged.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FlakyProxy {
  url: string;
  failNext(n: number, status?: number): void;
  failed: number;
  close(): Promise<void>;
}

export async function startFlakyProxy(target: string): Promise<FlakyProxy> {
  const t = new URL(target);
  let remaining = 0;
  let status = 429;
  const state = { failed: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const agentRequest = req.method === 'POST' && /"name":\s*"(Bash|bash)"/.test(body.toString('utf8'));
      if (agentRequest && remaining > 0) {
        remaining--;
        state.failed++;
        const type = status === 529 ? 'overloaded_error' : 'rate_limit_error';
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type, message: status === 529 ? 'Overloaded' : 'Rate limited: too many requests' } }));
        return;
      }
      const fwd = request({ hostname: t.hostname, port: t.port, path: req.url, method: req.method, headers: { ...req.headers, host: t.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      fwd.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      fwd.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failNext(n, s = 429) {
      remaining = n;
      status = s;
    },
    get failed() {
      return state.failed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
