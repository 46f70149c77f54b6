// The acceptance test for ralph.json's task (plain node:assert, no test framework needed).
import assert from 'node:assert/strict';
import { slugify } from '../src/slugify.mjs';

const cases = [
  ['Hello World', 'hello-world'],
  ['  spaces  around  ', 'spaces-around'],
  ['Already-slugged', 'already-slugged'],
  ['Ünïcödé & symbols!', 'n-c-d-symbols'],
  ['---', ''],
  ['v2.0 release', 'v2-0-release'],
];
for (const [input, expected] of cases) assert.equal(slugify(input), expected, `slugify(${JSON.stringify(input)})`);
console.log(`ok ${cases.length} cases`);
