/**
 * Numbered failure lists (mocha `N failing`, rspec `Failures:`, phpunit `There were N
 * failures:`, minitest): `1) name` inside the list only; mocha continues long titles over
 * indented lines, the last ending with ':'. rspec quotes the failing statement as
 * `Failure/Error: <code>`: the error is what follows it.
 */
import { cleanName, type RunnerExtractor } from './contract.js';

const NUMBERED_SECTION = /^\s*(?:\d+ failing\b|Failures:\s*$|There (?:was|were) \d+ (?:failures?|errors?):?\s*$|\d+ failed\s*$)/;

const QUOTED_STATEMENT = /^\s*Failure\/Error:/;

export const numberedFailures: RunnerExtractor = {
  name: 'numbered-failures',
  section(t, state) {
    if (!NUMBERED_SECTION.test(t)) return false;
    state.numbered = true;
    return true;
  },
  header(t, state) {
    if (!state.numbered || !t.includes(')')) return null;
    const m = /^\s*\d+\)\s+(.+?)\s*$/.exec(t);
    return m ? cleanName(m[1]!.replace(/:$/, '')) : null;
  },
  firstError(lines, from, to) {
    for (let j = from; j < to; j++) {
      if (!QUOTED_STATEMENT.test(lines[j]!.text)) continue;
      for (let k = j + 1; k < to; k++) {
        const t = lines[k]!.text.trim();
        if (t !== '') return { index: k, text: t };
      }
    }
    return null;
  },
  title(lines, i, name) {
    const header = lines[i]!.text;
    if (header.trimEnd().endsWith(':')) return { name, end: i };
    const indent = header.search(/\S/);
    const parts = [name];
    for (let j = i + 1; j < Math.min(lines.length, i + 6); j++) {
      const t = lines[j]!.text;
      if (t.trim() === '' || t.search(/\S/) <= indent) break;
      parts.push(t.trim().replace(/:$/, ''));
      if (t.trimEnd().endsWith(':')) return { name: cleanName(parts.join(' ')), end: j };
    }
    return { name, end: i };
  },
};
