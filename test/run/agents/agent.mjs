#!/usr/bin/env node
// A scripted agent for ralf run tests: `node agent.mjs <mode> {prompt}` (or the prompt on
// stdin). It works on the files named in the task's <files> (each must come to hold "ok",
// see ../helpers.ts check.mjs). Modes:
//   progress   fixes the next broken file; says TASK_DONE after the last one
//   liar       like progress, but says TASK_DONE every time
//   stuck      writes a different wrong content each time (same failure)
//   cheat      rewrites the plan's checks to `node -e 0`, says TASK_DONE
//   idle       changes nothing
//   hang       writes partial.txt, starts a grandchild, then never exits
//   ratelimit  fails like a rate-limited host for the first $AGENT_FAILS calls, then progress
//   blocked    writes a file, then says BLOCKED with a reason
//   tokens     progress, plus a Claude-style result line with 5000 + 100 tokens
//   bigfile    progress, plus a 2 MB untracked file big.bin (a sparse file)
//   dependency progress, plus a new dependency (left-pad) in package.json: a Rule 4 change
// Every call appends its prompt to $AGENT_LOG_DIR/<n>.txt (n = call number) when set.
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const mode = process.argv[2];
const prompt = process.argv[3] ?? readFileSync(0, 'utf8');
const logDir = process.env.AGENT_LOG_DIR;
let call = 1;
if (logDir) {
  mkdirSync(logDir, { recursive: true });
  call = readdirSync(logDir).filter((f) => f.endsWith('.txt')).length + 1;
  writeFileSync(join(logDir, `${call}.txt`), prompt);
}
// The task's <files>, else the files its `node check.mjs a b` check looks at (seed formats have no <files>).
let files = (/<files>(.*)<\/files>/.exec(prompt)?.[1] ?? '').split(',').map((f) => f.trim()).filter(Boolean);
if (files.length === 0) files = (/node check\.mjs ([\w ]+)/.exec(prompt)?.[1] ?? '').trim().split(/\s+/).filter(Boolean).map((n) => `${n}.txt`);
const say = (s) => process.stdout.write(`${s}\n`);

function progress(alwaysDone) {
  const next = files.find((f) => !existsSync(f) || readFileSync(f, 'utf8').trim() !== 'ok');
  if (next) {
    writeFileSync(next, 'ok\n');
    say(`fixed ${next}`);
  }
  const left = files.filter((f) => !existsSync(f) || readFileSync(f, 'utf8').trim() !== 'ok');
  if (left.length === 0 || alwaysDone) say('<ralph>TASK_DONE</ralph>');
}

switch (mode) {
  case 'progress':
    progress(false);
    break;
  case 'liar':
    progress(true);
    break;
  case 'stuck':
    writeFileSync(files[0], `attempt ${call}\n`);
    say('changed it again; should work now');
    break;
  case 'cheat': {
    // Weakens the plan's checks instead of doing the work, and claims success.
    const plan = /^Plan: (\S+)/m.exec(prompt)?.[1];
    if (plan) writeFileSync(plan, readFileSync(plan, 'utf8').replace(/node check\.mjs [\w ]+/g, 'node -e 0'));
    say('edited the checks; <ralph>TASK_DONE</ralph>');
    break;
  }
  case 'idle':
    say('thinking... nothing to change');
    break;
  case 'hang': {
    writeFileSync('partial.txt', 'half-written\n');
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    if (process.env.AGENT_PIDS) appendFileSync(process.env.AGENT_PIDS, `${child.pid}\n`);
    say('working on it...');
    setInterval(() => {}, 1000);
    break;
  }
  case 'ratelimit': {
    const fails = Number(process.env.AGENT_FAILS ?? 2);
    if (call <= fails) {
      process.stderr.write('Error: 429 Too Many Requests: rate limit exceeded\n');
      process.exit(1);
    }
    progress(false);
    break;
  }
  case 'blocked':
    writeFileSync(files[0], 'half done\n');
    say('The task needs the STRIPE_SECRET_KEY, which only a human can provide.');
    say('<ralph>BLOCKED</ralph> needs STRIPE_SECRET_KEY from the Stripe dashboard');
    break;
  case 'dependency': {
    progress(false);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    pkg.dependencies = { ...pkg.dependencies, 'left-pad': '^1.3.0' };
    writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
    say('added left-pad');
    break;
  }
  case 'tokens':
    progress(false);
    say(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'ok', usage: { input_tokens: 5000, output_tokens: 100 } }));
    break;
  case 'bigfile':
    writeFileSync('big.bin', '');
    truncateSync('big.bin', 2 * 1024 * 1024);
    progress(false);
    break;
  default:
    process.stderr.write(`unknown mode ${mode}\n`);
    process.exit(3);
}
