/**
 * Token usage from the hosts' JSON event streams.
 * - Claude Code `--output-format stream-json`: `assistant` events carry `message.usage` per
 *   API message (repeated per content block, same `message.id`); the final `result` event
 *   carries the run's totals in `usage` and `total_cost_usd`.
 * - OpenCode `run --format json`: each `step_finish` event carries `part.tokens`
 *   (`input`, `output`, `reasoning`, `cache.read`, `cache.write`) and `part.cost`.
 */
import { addUsage, emptyUsage, type TokenUsage } from './types.js';

type Json = Record<string, unknown>;

export function parseJsonLine(line: string): Json | null {
  const t = line.trim();
  if (!t.startsWith('{')) return null;
  try {
    const v = JSON.parse(t) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
  } catch {
    return null;
  }
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Anthropic-style `usage` object → TokenUsage. */
export function anthropicUsage(u: unknown, cost?: unknown): TokenUsage {
  const o = (u ?? {}) as Json;
  const input = num(o.input_tokens);
  const output = num(o.output_tokens);
  const cache_read = num(o.cache_read_input_tokens);
  const cache_write = num(o.cache_creation_input_tokens);
  return { input, output, cache_read, cache_write, total: input + output + cache_write, cost_usd: typeof cost === 'number' ? cost : null };
}

/** OpenCode `part.tokens` → TokenUsage. */
export function opencodeUsage(t: unknown, cost?: unknown): TokenUsage {
  const o = (t ?? {}) as Json;
  const cache = (o.cache ?? {}) as Json;
  const input = num(o.input);
  const output = num(o.output) + num(o.reasoning);
  const cache_read = num(cache.read);
  const cache_write = num(cache.write);
  return { input, output, cache_read, cache_write, total: input + output + cache_write, cost_usd: typeof cost === 'number' ? cost : null };
}

/** Accumulates Claude Code stream-json events. */
export class ClaudeStream {
  private perMessage = new Map<string, TokenUsage>();
  private resultUsage: TokenUsage | null = null;
  private texts: string[] = [];
  resultText: string | null = null;
  hostError: { status: number | null; message: string } | null = null;
  sawEvent = false;

  feed(ev: Json): void {
    if (ev.type === 'assistant' && typeof ev.message === 'object' && ev.message !== null) {
      this.sawEvent = true;
      const msg = ev.message as Json;
      const id = typeof msg.id === 'string' ? msg.id : `#${this.perMessage.size}`;
      if (msg.usage) {
        const u = anthropicUsage(msg.usage);
        const prev = this.perMessage.get(id);
        // A message's usage is repeated (and may grow) per content block: keep the largest.
        if (!prev || u.total >= prev.total) this.perMessage.set(id, u);
      }
      for (const block of Array.isArray(msg.content) ? (msg.content as Json[]) : []) {
        if (block.type === 'text' && typeof block.text === 'string') this.texts.push(block.text);
      }
      if (typeof ev.error === 'string' && ev.error !== '') {
        const text = this.texts.at(-1) ?? ev.error;
        this.hostError = { status: statusFromText(text), message: text };
      }
    } else if (ev.type === 'result') {
      this.sawEvent = true;
      this.resultUsage = anthropicUsage(ev.usage, ev.total_cost_usd);
      if (typeof ev.result === 'string') this.resultText = ev.result;
      if (ev.is_error === true) {
        const message = typeof ev.result === 'string' && ev.result ? ev.result : String(ev.subtype ?? 'error');
        const status = typeof ev.api_error_status === 'number' ? ev.api_error_status : statusFromText(message);
        this.hostError = { status, message };
      } else {
        this.hostError = null;
      }
    }
  }

  usage(): TokenUsage | null {
    if (this.resultUsage) return this.resultUsage;
    if (this.perMessage.size === 0) return null;
    let total = emptyUsage();
    for (const u of this.perMessage.values()) total = addUsage(total, u);
    return total;
  }

  text(): string {
    return this.resultText ?? this.texts.join('\n');
  }
}

/** Accumulates OpenCode `--format json` events. */
export class OpencodeStream {
  private total: TokenUsage | null = null;
  private texts: string[] = [];
  hostError: { status: number | null; message: string } | null = null;
  sawEvent = false;

  feed(ev: Json): void {
    const part = (ev.part ?? {}) as Json;
    if (ev.type === 'step_finish' && part.tokens) {
      this.sawEvent = true;
      this.total = addUsage(this.total ?? emptyUsage(), opencodeUsage(part.tokens, part.cost));
    } else if (ev.type === 'text' && typeof part.text === 'string') {
      this.sawEvent = true;
      this.texts.push(part.text);
    } else if (ev.type === 'error') {
      this.sawEvent = true;
      const err = (ev.error ?? {}) as Json;
      const data = (err.data ?? {}) as Json;
      const message = typeof data.message === 'string' ? data.message : typeof err.name === 'string' ? err.name : 'error';
      const status = typeof data.statusCode === 'number' ? data.statusCode : statusFromText(message);
      this.hostError = { status, message };
    }
  }

  usage(): TokenUsage | null {
    return this.total;
  }

  text(): string {
    return this.texts.join('\n');
  }
}

function statusFromText(text: string): number | null {
  const m = /\((\d{3})\)|\b(?:status|error|http)\b\D{0,12}(\d{3})\b/i.exec(text);
  const v = m ? Number(m[1] ?? m[2]) : NaN;
  return v >= 400 && v < 600 ? v : null;
}

/** What ClaudeStream and OpencodeStream have in common: fed one JSON event at a time. */
export interface AgentEventStream {
  feed(event: unknown): void;
  usage(): TokenUsage | null;
  text(): string;
  sawEvent: boolean;
  hostError: { status: number | null; message: string } | null;
}
