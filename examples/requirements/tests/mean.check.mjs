import assert from 'node:assert/strict';
import { mean } from '../src/stats.mjs';

assert.equal(mean([1, 2, 3, 10]), 4);
assert.ok(Number.isNaN(mean([])));
console.log('ok mean');
