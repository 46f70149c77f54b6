import { describe, expect, it } from 'vitest';
import { claudeAgent, claudeParser } from '../../src/run/agents/claude.js';
import { commandParser } from '../../src/run/agents/command.js';
import { opencodeAgent, opencodeParser } from '../../src/run/agents/opencode.js';
import { selectAgent } from '../../src/run/agents/select.js';
import { classifyAgentRun } from '../../src/run/classify.js';

// Lines as Claude Code 2.1.197 prints them with `-p --output-format stream-json --verbose`
// (captured against the scripted model; long fields shortened).
const CLAUDE_OK = [
  '{"type":"system","subtype":"init","cwd":"/tmp/p","session_id":"s","tools":["Bash"],"model":"claude-opus-4-8","permissionMode":"default"}',
  '{"type":"assistant","message":{"id":"msg_a","type":"message","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"echo fixed > fixed.txt"}}],"usage":{"input_tokens":1200,"output_tokens":1}},"session_id":"s"}',
  '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"(Bash completed with no output)","is_error":false}]},"session_id":"s"}',
  '{"type":"assistant","message":{"id":"msg_b","type":"message","role":"assistant","content":[{"type":"text","text":"All done.\\n<ralph>TASK_DONE</ralph>"}],"usage":{"input_tokens":1200,"output_tokens":1}},"session_id":"s"}',
  '{"type":"result","subtype":"success","is_error":false,"api_error_status":null,"duration_ms":141,"num_turns":2,"result":"All done.\\n<ralph>TASK_DONE</ralph>","total_cost_usd":0.0137,"usage":{"input_tokens":2400,"cache_creation_input_tokens":100,"cache_read_input_tokens":5000,"output_tokens":68}}',
];
const CLAUDE_429 = [
  '{"type":"assistant","message":{"id":"x","model":"<synthetic>","role":"assistant","type":"message","usage":{"input_tokens":0,"output_tokens":0},"content":[{"type":"text","text":"API Error: Request rejected (429) · Rate limited: 429 too many requests"}]},"error":"rate_limit"}',
  '{"type":"result","subtype":"success","is_error":true,"api_error_status":429,"duration_ms":118,"num_turns":1,"result":"API Error: Request rejected (429) · Rate limited: 429 too many requests","total_cost_usd":0,"usage":{"input_tokens":0,"output_tokens":0}}',
];
// OpenCode 1.18.33 `run --format json`.
const OPENCODE_OK = [
  '{"type":"step_start","timestamp":1,"sessionID":"s","part":{"type":"step-start"}}',
  '{"type":"tool_use","timestamp":2,"sessionID":"s","part":{"type":"tool","tool":"bash","state":{"status":"completed","input":{"command":"echo fixed > fixed.txt"},"output":"(no output)"}}}',
  '{"type":"step_finish","timestamp":3,"sessionID":"s","part":{"reason":"tool-calls","type":"step-finish","tokens":{"total":1234,"input":1200,"output":34,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}}',
  '{"type":"text","timestamp":4,"sessionID":"s","part":{"type":"text","text":"All done.\\n<ralph>TASK_DONE</ralph>"}}',
  '{"type":"step_finish","timestamp":5,"sessionID":"s","part":{"reason":"stop","type":"step-finish","tokens":{"total":1244,"input":1200,"output":34,"reasoning":10,"cache":{"write":5,"read":700}},"cost":0.001}}',
];
const OPENCODE_429 = '{"type":"error","timestamp":1,"sessionID":"s","error":{"name":"APIError","data":{"message":"Rate limit reached: 429 too many requests","statusCode":429,"isRetryable":true}}}';

function feed(parser: ReturnType<typeof claudeParser>, lines: string[]) {
  const ticks: number[] = [];
  for (const l of lines) {
    parser.feed(l);
    ticks.push(parser.tokensSoFar());
  }
  return { result: parser.finish(lines.join('\n')), ticks };
}

describe('Claude Code stream-json', () => {
  it('reads the text, the run totals from `result`, and live counts from `assistant` messages', () => {
    const { result, ticks } = feed(claudeParser(), CLAUDE_OK);
    expect(result.text).toBe('All done.\n<ralph>TASK_DONE</ralph>');
    expect(result.usage).toEqual({ input: 2400, output: 68, cache_read: 5000, cache_write: 100, total: 2568, cost_usd: 0.0137 });
    expect(result.hostError).toBeNull();
    expect(ticks.slice(0, 4)).toEqual([0, 1201, 1201, 2402]);
  });
  it('turns an API error inside the stream into a host error the classifier retries', () => {
    const { result } = feed(claudeParser(), CLAUDE_429);
    expect(result.hostError).toEqual({ status: 429, message: 'API Error: Request rejected (429) · Rate limited: 429 too many requests' });
    const c = classifyAgentRun({ exitCode: 1, signal: null, timedOut: false, spawnErrorCode: null, stdoutTail: '', stderrTail: '', hostError: result.hostError });
    expect(c).toMatchObject({ kind: 'transient', reason: 'rate_limit' });
  });
  it('falls back to the raw output when there is no stream', () => {
    expect(feed(claudeParser(), ['plain text <ralph>BLOCKED</ralph>']).result).toMatchObject({ text: 'plain text <ralph>BLOCKED</ralph>', usage: null });
  });
  it('passes the prompt as one argv element with stream-json and allowed tools', () => {
    const inv = claudeAgent(['--model', 'x']).invocation('fix "it" $HOME', '/p');
    expect(inv.file).toBe('claude');
    expect(inv.args.slice(0, 6)).toEqual(['-p', 'fix "it" $HOME', '--output-format', 'stream-json', '--verbose', '--allowedTools']);
    expect(inv.args.slice(-2)).toEqual(['--model', 'x']);
    expect(inv.stdin).toBeNull();
    expect(claudeAgent().invocation('x'.repeat(200_000), '/p')).toMatchObject({ stdin: 'x'.repeat(200_000) });
  });
});

describe('OpenCode --format json', () => {
  it('sums step_finish tokens and collects text parts', () => {
    const { result } = feed(opencodeParser(), OPENCODE_OK);
    expect(result.text).toBe('All done.\n<ralph>TASK_DONE</ralph>');
    expect(result.usage).toEqual({ input: 2400, output: 78, cache_read: 700, cache_write: 5, total: 2483, cost_usd: 0.001 });
  });
  it('reads error events', () => {
    expect(feed(opencodeParser(), [OPENCODE_429]).result.hostError).toEqual({ status: 429, message: 'Rate limit reached: 429 too many requests' });
  });
  it('sends the prompt on stdin (argv would be re-quoted) and sets PWD to the project', () => {
    const inv = opencodeAgent().invocation('/not-a-command "x"', '/proj');
    expect(inv).toMatchObject({ file: 'opencode', args: ['run', '--format', 'json'], stdin: '/not-a-command "x"', env: { PWD: '/proj' } });
  });
});

describe('any command', () => {
  it('counts tokens when a wrapper prints either host\'s events; the text is all of stdout', () => {
    const { result } = feed(commandParser(), ['working', ...CLAUDE_OK]);
    expect(result.usage?.total).toBe(2568);
    expect(result.text).toContain('working');
    expect(feed(commandParser(), ['no events here']).result.usage).toBeNull();
  });
  it('selects adapters from --agent', () => {
    expect(selectAgent('claude').kind).toBe('claude');
    expect(selectAgent(' opencode ').kind).toBe('opencode');
    const cmd = selectAgent('node "my agent.mjs" {prompt}');
    expect(cmd.invocation('P', '/proj')).toMatchObject({ file: 'node', args: ['my agent.mjs', 'P'], stdin: null });
    expect(selectAgent('my-agent --stdin').invocation('P', '/proj')).toMatchObject({ file: 'my-agent', args: ['--stdin'], stdin: 'P' });
    expect(() => selectAgent('node "oops')).toThrow(/unterminated/);
  });
});
