#!/usr/bin/env node
// A scripted agent for `ralf run` scenarios: `node step-agent.mjs <steps.json> {prompt}`. Each
// call applies the next step of the file (an agent's edit: files to write, files to remove),
// then claims it is done, as a real agent would. The call count is kept beside the steps file.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const stepsFile = process.argv[2];
const counter = `${stepsFile}.calls`;
const call = existsSync(counter) ? Number(readFileSync(counter, 'utf8')) : 0;
writeFileSync(counter, String(call + 1));
const step = JSON.parse(readFileSync(stepsFile, 'utf8'))[call];
if (step) {
  for (const path of step.remove) rmSync(path, { force: true });
  for (const [path, content] of Object.entries(step.write)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}
process.stdout.write(`edited the code (step ${call + 1}); all tests pass now.\n<ralph>TASK_DONE</ralph>\n`);
