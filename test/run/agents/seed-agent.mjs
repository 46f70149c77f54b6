#!/usr/bin/env node
// A scripted agent for the seed-system tests: `node seed-agent.mjs {prompt}` (or the prompt on
// stdin). It reads the task's `<name>` line from the prompt and writes "ok" into every `x.txt`
// named there in backticks, then says TASK_DONE. Environment:
//   SEED_AGENT_FAIL=c.txt     writes a wrong line into that file instead (a failing item)
//   SEED_AGENT_BLOCK=c.txt    says BLOCKED for an item naming that file
//   SEED_AGENT_DENIED=c.txt   fails like a hard environment error ("Permission denied", exit 1)
//   SEED_AGENT_MARK=prd.md    marks its own item [x] in that checklist (copilot_ralf's agents do)
//   SEED_AGENT_SILENT=1       never says TASK_DONE
// Every call appends its prompt to $AGENT_LOG_DIR/<n>.txt and its argv (and RALF_MODEL,
// RALF_REASONING, MAX_THINKING_TOKENS) to <n>.argv.json. Started as `claude -p <prompt> ...`
// (a `claude` on PATH that execs this file) it answers in Claude Code's stream-json.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const prompt = args.find((a) => a.includes('You are one iteration') || a.includes('You are planning work')) ?? readFileSync(0, 'utf8');
const logDir = process.env.AGENT_LOG_DIR;
let call = 1;
if (logDir) {
  mkdirSync(logDir, { recursive: true });
  call = readdirSync(logDir).filter((f) => /^\d+\.txt$/.test(f)).length + 1;
  writeFileSync(join(logDir, `${call}.txt`), prompt);
  const seen = { argv: args.filter((a) => a !== prompt), model: process.env.RALF_MODEL ?? null, reasoning: process.env.RALF_REASONING ?? null, thinking: process.env.MAX_THINKING_TOKENS ?? null };
  writeFileSync(join(logDir, `${call}.argv.json`), JSON.stringify(seen));
}
// `ralf plan-prd`: write a two-task PRD where the prompt says (or print it with SEED_AGENT_PRINT=1).
const planTo = /Write it to the file (\S+) \(/.exec(prompt)?.[1];
if (prompt.includes('You are planning work') && planTo) {
  const prd = ['# PRD: Files', '', '> Files that say ok', '', '## Tasks', '', ...['a.txt', 'b.txt'].flatMap((f, i) => [`- [ ] **Task ${i + 1}: Make \`${f}\` say ok** [effort: low]`, `  - Description: Write ok into ${f}.`, `  - Files: ${f}`, '  - Acceptance: `node gate.mjs` exits with code 0', '']), '## Notes', '', 'None.', ''].join('\n');
  if (process.env.SEED_AGENT_PRINT) process.stdout.write(`Here is the plan:\n\n${prd}`);
  else {
    mkdirSync(planTo.replace(/\/[^/]*$/, '') || '.', { recursive: true });
    writeFileSync(planTo, prd);
  }
  process.exit(0);
}
const name = /<name>(.*)<\/name>/.exec(prompt)?.[1] ?? '';
const files = [...name.matchAll(/`([\w./-]+\.txt)`/g)].map((m) => m[1]);
const asClaude = args[0] === '-p';
const said = [];
const say = (s) => (asClaude ? said.push(s) : process.stdout.write(`${s}\n`));
process.on('exit', () => {
  if (asClaude) process.stdout.write(`${JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: said.join('\n'), usage: { input_tokens: 1000, output_tokens: 10 } })}\n`);
});
const env = process.env;

if (env.SEED_AGENT_DENIED && files.includes(env.SEED_AGENT_DENIED)) {
  process.stderr.write(`bash: ./deploy.sh: Permission denied\n`);
  process.exit(1);
}
if (env.SEED_AGENT_BLOCK && files.includes(env.SEED_AGENT_BLOCK)) {
  writeFileSync(env.SEED_AGENT_BLOCK, 'half done\n');
  say('<ralph>BLOCKED</ralph> needs a decision from the product owner');
  process.exit(0);
}
// SEED_AGENT_FAIL_CALLS=N: the failing file fails only in the first N calls (an agent that learns).
const failing = env.SEED_AGENT_FAIL && (!env.SEED_AGENT_FAIL_CALLS || call <= Number(env.SEED_AGENT_FAIL_CALLS)) ? env.SEED_AGENT_FAIL : null;
for (const f of files) writeFileSync(f, f === failing ? `wrong ${call}\n` : 'ok\n');
if (env.SEED_AGENT_MARK && existsSync(env.SEED_AGENT_MARK) && !files.includes(failing)) {
  const text = readFileSync(env.SEED_AGENT_MARK, 'utf8');
  const line = text.split('\n').find((l) => l.includes('- [ ]') && files.some((f) => l.includes(f)));
  if (line) writeFileSync(env.SEED_AGENT_MARK, text.replace(line, line.replace('- [ ]', '- [x]')));
}
say(`wrote ${files.join(', ') || 'nothing'}`);
if (!env.SEED_AGENT_SILENT) say('<ralph>TASK_DONE</ralph>');
