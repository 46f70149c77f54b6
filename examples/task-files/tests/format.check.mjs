import assert from 'node:assert/strict';
import { formatDuration, parseDuration } from '../src/duration.mjs';

assert.equal(formatDuration(5400), '1h30m');
assert.equal(formatDuration(59), '59s');
assert.equal(formatDuration(0), '0s');
assert.equal(formatDuration(7510), '2h5m10s');
for (const s of [1, 61, 3600, 3661, 86399]) assert.equal(parseDuration(formatDuration(s)), s);
console.log('ok formatDuration');
