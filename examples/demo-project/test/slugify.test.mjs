import { strictEqual } from 'node:assert/strict';
import { slugify } from '../src/slugify.js';

const cases = [
  ['Hello World', 'hello-world'],
  ['  Hello,   World! ', 'hello-world'],
  ['GSD: Get Shit Done', 'gsd-get-shit-done'],
];
for (const [input, expected] of cases) {
  const actual = slugify(input);
  strictEqual(actual, expected, `slugify(${JSON.stringify(input)}) should be ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}
console.log(`slugify: ${cases.length} cases pass`);
