/**
 * TAP (node --test's default, tape, Perl's prove, bats): `not ok 3 - name` (TODO/SKIP are no
 * failures), and Test::More / Test2 diagnostics `#   Failed test 'name'` that follow it.
 */
import { basename } from '../normalize.js';
import { cleanName, type RunnerExtractor } from './contract.js';

export const tap: RunnerExtractor = {
  name: 'tap',
  header(t) {
    if (!t.includes('not ok') && !t.includes('Failed test')) return null;
    const m = /^\s*not ok\s+\d+(?:\s+-)?\s*(.*?)\s*$/.exec(t);
    if (m) return /#\s*(?:TODO|SKIP)\b/i.test(m[1]!) ? null : cleanName(m[1]!.replace(/\s+#.*$/, '')) || '(unnamed)';
    const d = /^\s*#\s+Failed test (?:'(.*)'|(?:at|in) (\S+) line \d+)/.exec(t);
    return d ? (d[1] ?? `${basename(d[2]!)} (unnamed)`) : null;
  },
};
