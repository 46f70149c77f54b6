import assert from 'node:assert/strict';
import { median } from '../src/stats.mjs';

assert.equal(median([3, 1, 2]), 2);
assert.equal(median([10, 1, 3, 2]), 2.5);
const input = [3, 1, 2];
median(input);
assert.deepEqual(input, [3, 1, 2], 'median must not sort the caller\'s array');
assert.ok(Number.isNaN(median([])));
console.log('ok median');
