import assert from 'node:assert/strict';
import { parseDuration } from '../src/duration.mjs';

assert.equal(parseDuration('90s'), 90);
assert.equal(parseDuration('5m'), 300);
assert.equal(parseDuration('1h30m'), 5400);
assert.equal(parseDuration('2h 5m 10s'), 7510);
for (const bad of ['', '5x', '-5m', 'soon']) assert.throws(() => parseDuration(bad), RangeError, JSON.stringify(bad));
console.log('ok parseDuration');
