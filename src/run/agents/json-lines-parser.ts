import type { AgentStreamParser } from './types.js';
import { parseJsonLine, type AgentEventStream } from './usage.js';

/**
 * A parser for an agent CLI's JSON-lines output (claude `stream-json`, opencode `--format json`):
 * feeds each line's event to the host's stream reader; without any event (an old CLI, or it
 * died early) the raw output is all there is.
 */
export function jsonLinesParser(stream: AgentEventStream): AgentStreamParser {
  return {
    feed(line) {
      const ev = parseJsonLine(line);
      if (ev) stream.feed(ev);
    },
    tokensSoFar: () => stream.usage()?.total ?? 0,
    finish(stdout) {
      return { text: stream.sawEvent ? stream.text() : stdout, usage: stream.usage(), hostError: stream.hostError };
    },
  };
}
