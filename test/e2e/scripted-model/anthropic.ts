/**
 * Anthropic Messages API (`POST /v1/messages`) wire format: request → Conversation,
 * and a reply (text or one tool call) → SSE events or a JSON message.
 */
import { commandOf, textOf, type Conversation, type ConversationEvent } from './conversation.js';
import type { Reply } from './agent.js';

interface AnthropicBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

interface AnthropicRequest {
  model?: string;
  stream?: boolean;
  system?: unknown;
  tools?: Array<{ name?: string }>;
  messages?: Array<{ role: string; content: string | AnthropicBlock[] }>;
}

export function parseAnthropic(body: AnthropicRequest): Conversation {
  const shell = (body.tools ?? []).find((t) => t.name === 'Bash');
  const events: ConversationEvent[] = [];
  for (const msg of body.messages ?? []) {
    const blocks: AnthropicBlock[] = typeof msg.content === 'string' ? [{ type: 'text', text: msg.content }] : msg.content;
    if (msg.role === 'user') {
      const texts: string[] = [];
      for (const b of blocks) {
        if (b.type === 'tool_result') events.push({ type: 'result', id: b.tool_use_id ?? '', text: textOf(b.content), isError: b.is_error === true });
        else if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
      }
      // Claude Code adds system reminders (dates, attached @files) to user turns; they are
      // context, not something the human said, so a reply-waiting step skips them.
      const said = texts.filter((t) => !/^\s*<system-reminder>[\s\S]*<\/system-reminder>\s*$/.test(t));
      if (texts.length > 0) events.push({ type: 'user', text: texts.join('\n'), reminderOnly: said.length === 0 });
    } else if (msg.role === 'assistant') {
      for (const b of blocks) {
        if (b.type === 'tool_use') events.push({ type: 'call', id: b.id ?? '', command: b.name === 'Bash' ? commandOf(b.input) : `<${b.name}>` });
        else if (b.type === 'text' && b.text) events.push({ type: 'say', text: b.text });
      }
    }
  }
  return { dialect: 'anthropic', shellTool: shell ? 'Bash' : null, system: textOf(body.system), events };
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The reply as a complete SSE stream (the minimal event sequence Claude Code accepts). */
export function anthropicStream(reply: Reply, model: string, callId: string): string {
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = { id: `msg_${callId}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage };
  let out = sse('message_start', { type: 'message_start', message });
  const blocks: Array<{ name: string; input: unknown } | { text: string }> =
    'agents' in reply
      ? reply.agents.map((a) => ({ name: 'Agent', input: { description: a.description, prompt: a.prompt, subagent_type: 'general-purpose' } }))
      : 'bash' in reply
        ? [{ name: 'Bash', input: { command: reply.bash, description: reply.description ?? 'scripted step' } }]
        : [{ text: reply.say }];
  blocks.forEach((block, index) => {
    if ('name' in block) {
      out += sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_${callId}${index ? `_${index}` : ''}`, name: block.name, input: {} } });
      out += sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    } else {
      out += sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      out += sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    }
    out += sse('content_block_stop', { type: 'content_block_stop', index });
  });
  out += sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'say' in reply ? 'end_turn' : 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } });
  out += sse('message_stop', { type: 'message_stop' });
  return out;
}

/** The reply as a non-streaming JSON message. */
export function anthropicJson(reply: Reply, model: string, callId: string): unknown {
  const content =
    'agents' in reply
      ? reply.agents.map((a, index) => ({ type: 'tool_use', id: `toolu_${callId}${index ? `_${index}` : ''}`, name: 'Agent', input: { description: a.description, prompt: a.prompt, subagent_type: 'general-purpose' } }))
      : 'bash' in reply
        ? [{ type: 'tool_use', id: `toolu_${callId}`, name: 'Bash', input: { command: reply.bash, description: reply.description ?? 'scripted step' } }]
        : [{ type: 'text', text: reply.say }];
  return {
    id: `msg_${callId}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: 'say' in reply ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}
