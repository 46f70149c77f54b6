#!/usr/bin/env node
// A scripted agent for `ralf run` scenarios: `node step-agent.mjs <steps.json> {prompt}`. Each
// call applies the next step of the file (an agent's edit: files to write, files to remove,
// symlinks to make), then claims it is done, as a real agent would; a step may instead say
// it is blocked, or work for a while first (`sleep_ms`, for an interrupt to land mid-work).
// Real agents use git: a step's `git` commands run (in bash, in the project) before its edits,
// its `gitAfter` commands after them; a command that fails is passed over, as an agent would.
// The call count is kept beside the steps file.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const stepsFile = process.argv[2];
const counter = `${stepsFile}.calls`;
const call = existsSync(counter) ? Number(readFileSync(counter, 'utf8')) : 0;
writeFileSync(counter, String(call + 1));
const step = JSON.parse(readFileSync(stepsFile, 'utf8'))[call];
const shell = (commands) => {
  for (const command of commands ?? []) spawnSync('bash', ['-c', command], { stdio: 'ignore' });
};
if (step) {
  shell(step.git);
  for (const path of step.remove ?? []) rmSync(path, { force: true });
  for (const [path, content] of Object.entries(step.write ?? {})) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  for (const [path, target] of Object.entries(step.symlink ?? {})) {
    rmSync(path, { force: true, recursive: true }); // a file, a link (not followed) or a directory
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(target, path);
  }
  shell(step.gitAfter);
  // Its edits are made: a scenario waiting to interrupt it mid-work may now.
  if (step.sleep_ms) {
    writeFileSync(`${stepsFile}.working`, String(call + 1));
    await new Promise((r) => setTimeout(r, step.sleep_ms));
  }
}
if (step?.blocked) process.stdout.write(`I cannot go on.\n<ralph>BLOCKED</ralph> ${step.blocked}\n`);
else if (step?.silent) process.stdout.write(`edited the code (step ${call + 1}).\n`);
else process.stdout.write(`edited the code (step ${call + 1}); all tests pass now.\n<ralph>TASK_DONE</ralph>\n`);
