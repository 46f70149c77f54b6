#!/usr/bin/env node
/**
 * The scripted agent `ralf demo` drives in place of a model: a real, deterministic
 * process started by `ralf run --agent "node scripted-agent.mjs {prompt}"` (the generic
 * command agent, the same path a Claude Code or OpenCode wrapper takes). Like a fresh
 * model process in a Ralph loop it remembers nothing: it reads the prompt and the files,
 * edits files, and says what it did, ending with a promise string.
 *
 * Its playbook for the demo project (chosen by the task's <files>):
 *   src/slugify.js  fixes one bug per iteration (lower case, then the trailing dash):
 *                   passes on iteration 2; claims TASK_DONE only after the second fix
 *   src/price.js    stuck: the locale lives in a service it cannot reach, so it keeps
 *                   reshuffling the same code, and claims TASK_DONE anyway (a lying DONE)
 *   src/index.js    creates the entry point in one go
 * It finishes with a Claude-style `result` JSON line carrying token usage, so the run's
 * token accounting has something to count (input ≈ prompt length / 4).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const prompt = process.argv[2] ?? readFileSync(0, 'utf8');
const task = /^Task (\d+) of (\d+): (.*)$/m.exec(prompt);
const iteration = Number(/^Iteration (\d+) of (\d+)$/m.exec(prompt)?.[1] ?? 1);
const files = (/<files>(.*)<\/files>/.exec(prompt)?.[1] ?? '').split(',').map((f) => f.trim());

const said = [];
const say = (line) => {
  said.push(line);
  process.stdout.write(`${line}\n`);
};

say(`[scripted agent] ${task ? `task ${task[1]}: ${task[3]}` : 'no task in the prompt'} (iteration ${iteration})`);

if (files.includes('src/slugify.js')) {
  const path = 'src/slugify.js';
  let src = readFileSync(path, 'utf8');
  if (!src.includes('toLowerCase()')) {
    src = src.replace("title.trim().replace(/[^A-Za-z0-9]+/g, '-')", "title.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-')");
    writeFileSync(path, src);
    say('Read src/slugify.js: the slug keeps upper case. Lower-cased it before replacing separators.');
    say('I have not checked the trailing-dash case yet; leaving that for verification to tell me.');
  } else if (!src.includes('/^-+|-+$/g')) {
    src = src.replace(".replace(/[^a-z0-9]+/g, '-')", ".replace(/[^a-z0-9]+/g, '-')\n    .replace(/^-+|-+$/g, '')");
    writeFileSync(path, src);
    say('The last verification failed on "  Hello,   World! " -> "hello-world-": trailing punctuation left a dash.');
    say('Strip leading and trailing dashes after replacing separators.');
    say('<ralph>TASK_DONE</ralph>');
  } else {
    say('slugify already lower-cases and trims dashes.');
    say('<ralph>TASK_DONE</ralph>');
  }
} else if (files.includes('src/price.js')) {
  // Stuck: every attempt produces the same wrong output, so the failure fingerprint repeats.
  const path = 'src/price.js';
  const variants = [
    'const euros = (cents / 100).toFixed(2);\n  return `${euros} EUR`;',
    'const [whole, part] = (cents / 100).toFixed(2).split(\'.\');\n  return `${whole}.${part} EUR`;',
    'return [(cents / 100).toFixed(2), \'EUR\'].join(\' \');',
  ];
  const body = variants[(iteration - 1) % variants.length];
  writeFileSync(
    path,
    `/** Formats a price in cents for the shop's locale: 1999 → "19,99 €". */\nexport function formatPrice(cents) {\n  // attempt ${iteration}: the tenant locale is not available here; keep the current format\n  ${body}\n}\n`,
  );
  say('The tenant locale comes from the billing service, which I cannot reach from here.');
  say(`Rewrote formatPrice (attempt ${iteration}); it should be fine now.`);
  say('<ralph>TASK_DONE</ralph>');
} else if (files.includes('src/index.js')) {
  if (!existsSync('src/index.js')) writeFileSync('src/index.js', "export { slugify } from './slugify.js';\nexport { formatPrice } from './price.js';\n");
  say('Created src/index.js re-exporting slugify and formatPrice.');
  say('<ralph>TASK_DONE</ralph>');
} else {
  say('Nothing in my playbook for this task.');
  say('<ralph>BLOCKED</ralph> the scripted agent only knows the demo project');
}

const text = said.join('\n');
const usage = { input_tokens: Math.ceil(prompt.length / 4), output_tokens: 40 + Math.ceil(text.length / 4) };
process.stdout.write(`${JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: text, usage })}\n`);
