/**
 * The scripted model server: Anthropic Messages (`POST /v1/messages`, also `count_tokens`)
 * and OpenAI chat completions (`POST /v1/chat/completions`, `GET /v1/models`) on
 * 127.0.0.1, port 0. Every request is answered by replaying the current AgentScript
 * against the conversation in the request (see agent.ts); requests that offer no shell
 * tool (OpenCode's title request) get plain text. Every request is logged in memory
 * (and to `logFile` as JSONL when given) so tests can assert what reached the model.
 */
import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decide, type AgentScript, type Reply } from './agent.js';
import { anthropicJson, anthropicStream, parseAnthropic } from './anthropic.js';
import type { Conversation } from './conversation.js';
import { openAiJson, openAiStream, parseOpenAi } from './openai.js';

export interface LoggedRequest {
  seq: number;
  path: string;
  dialect: Conversation['dialect'];
  shellTool: string | null;
  /** All user-message text in the request (the expanded command body lives here). */
  userText: string;
  /** The text of the conversation's last event when it is a tool result (what the reply answers). */
  lastResult: string | null;
  reply: Reply;
  step: number;
  divergences: string[];
}

export interface ScriptedModel {
  url: string;
  port: number;
  /** Replace the agent that answers subsequent requests. */
  setAgent(agent: AgentScript): void;
  requests: LoggedRequest[];
  close(): Promise<void>;
}

const TITLE_REPLY = 'Scripted session';

export async function startScriptedModel(options: { agent?: AgentScript; logFile?: string } = {}): Promise<ScriptedModel> {
  let agent: AgentScript | undefined = options.agent;
  const requests: LoggedRequest[] = [];
  let seq = 0;

  const answer = (path: string, conv: Conversation): { reply: Reply; step: number; divergences: string[] } => {
    if (!conv.shellTool) return { reply: { say: TITLE_REPLY }, step: -1, divergences: [] };
    if (!agent) return { reply: { say: 'SCRIPTED: no agent set' }, step: -1, divergences: [] };
    return decide(agent, conv);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (req.method === 'HEAD' || (req.method === 'GET' && path === '/')) {
      res.writeHead(200).end();
      return;
    }
    if (req.method === 'GET' && path === '/v1/models') {
      json(res, { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'scripted' }] });
      return;
    }
    if (req.method !== 'POST') {
      json(res, { error: { type: 'not_found', message: `${req.method} ${path}` } }, 404);
      return;
    }
    const body = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
    if (path === '/v1/messages/count_tokens') {
      json(res, { input_tokens: 100 });
      return;
    }
    let conv: Conversation;
    if (path === '/v1/messages') conv = parseAnthropic(body);
    else if (path === '/v1/chat/completions') conv = parseOpenAi(body);
    else {
      json(res, { error: { type: 'not_found', message: path } }, 404);
      return;
    }
    const n = ++seq;
    const { reply, step, divergences } = answer(path, conv);
    const entry: LoggedRequest = {
      seq: n,
      path,
      dialect: conv.dialect,
      shellTool: conv.shellTool,
      userText: conv.events.filter((e) => e.type === 'user').map((e) => (e as { text: string }).text).join('\n'),
      lastResult: conv.events.at(-1)?.type === 'result' ? (conv.events.at(-1) as { text: string }).text : null,
      reply,
      step,
      divergences,
    };
    requests.push(entry);
    if (options.logFile) appendFileSync(options.logFile, `${JSON.stringify({ ...entry, events: conv.events })}\n`);
    const model = typeof body.model === 'string' ? body.model : 'fake-model';
    const id = `${n}`;
    if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
      res.end(conv.dialect === 'anthropic' ? anthropicStream(reply, model, id) : openAiStream(reply, model, id));
    } else {
      json(res, conv.dialect === 'anthropic' ? anthropicJson(reply, model, id) : openAiJson(reply, model, id));
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) json(res, { error: { type: 'scripted_model_error', message: String(err) } }, 500);
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    setAgent(next) {
      agent = next;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, value: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
