/**
 * OpenAI chat completions (`POST /v1/chat/completions`) wire format, as OpenCode's
 * `@ai-sdk/openai-compatible` provider speaks it: request → Conversation, reply → SSE chunks.
 */
import { commandOf, textOf, type Conversation, type ConversationEvent } from './conversation.js';
import type { Reply } from './agent.js';

interface OpenAiMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

interface OpenAiRequest {
  model?: string;
  stream?: boolean;
  tools?: Array<{ function?: { name?: string } }>;
  messages?: OpenAiMessage[];
}

export function parseOpenAi(body: OpenAiRequest): Conversation {
  const shell = (body.tools ?? []).find((t) => t.function?.name === 'bash');
  const events: ConversationEvent[] = [];
  const system: string[] = [];
  for (const msg of body.messages ?? []) {
    if (msg.role === 'system') system.push(textOf(msg.content));
    else if (msg.role === 'user') {
      const text = textOf(msg.content);
      if (text) events.push({ type: 'user', text });
    } else if (msg.role === 'assistant') {
      const text = textOf(msg.content);
      if (text) events.push({ type: 'say', text });
      for (const call of msg.tool_calls ?? []) {
        events.push({ type: 'call', id: call.id, command: call.function.name === 'bash' ? commandOf(call.function.arguments) : `<${call.function.name}>` });
      }
    } else if (msg.role === 'tool') {
      events.push({ type: 'result', id: msg.tool_call_id ?? '', text: textOf(msg.content), isError: false });
    }
  }
  return { dialect: 'openai', shellTool: shell ? 'bash' : null, system: system.join('\n'), events };
}

function chunk(model: string, id: string, delta: unknown, finish: string | null, usage?: unknown): string {
  const data: Record<string, unknown> = { id: `chatcmpl-${id}`, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] };
  if (usage) data.usage = usage;
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** Subagent calls are scripted for Claude Code's Agent tool only. */
function plain(reply: Reply): Exclude<Reply, { agents: unknown }> {
  return 'agents' in reply ? { say: 'SCRIPTED: subagents are scripted for Claude Code only' } : reply;
}

export function openAiStream(given: Reply, model: string, callId: string): string {
  const reply = plain(given);
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  let out: string;
  if ('bash' in reply) {
    const args = JSON.stringify({ command: reply.bash, description: reply.description ?? 'scripted step' });
    out = chunk(model, callId, { role: 'assistant', content: null, tool_calls: [{ index: 0, id: `call_${callId}`, type: 'function', function: { name: 'bash', arguments: args } }] }, null);
    out += chunk(model, callId, {}, 'tool_calls', usage);
  } else {
    out = chunk(model, callId, { role: 'assistant', content: reply.say }, null);
    out += chunk(model, callId, {}, 'stop', usage);
  }
  return `${out}data: [DONE]\n\n`;
}

export function openAiJson(given: Reply, model: string, callId: string): unknown {
  const reply = plain(given);
  const message =
    'bash' in reply
      ? { role: 'assistant', content: null, tool_calls: [{ id: `call_${callId}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: reply.bash, description: reply.description ?? 'scripted step' }) } }] }
      : { role: 'assistant', content: reply.say };
  return {
    id: `chatcmpl-${callId}`,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message, finish_reason: 'bash' in reply ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}
