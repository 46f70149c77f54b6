// Every regular-expression literal in src/ against adversarial 2,000-character lines (the
// fingerprint keeps 2,000 characters of a line): the slowest single call. A regex that
// backtracks in quadratic or cubic time costs seconds on one such line (a banner regex took
// 12 s, a heading regex 2.4 s); a linear one stays well under a millisecond. Run alone with
// `node bench/regex-stress.mjs [dir ...]` (prints every call over 2 ms), or as a row of `npm run bench`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Lines that make backtracking regexes explode: long runs of one class, and mixes of two. */
const INPUTS = {
  'x×2000': 'x'.repeat(2000),
  'spaces then x': `${' '.repeat(1999)}x`,
  '= then x': `${'='.repeat(1999)}x`,
  '- then x': `${'-'.repeat(1999)}x`,
  'a ×1000': 'a '.repeat(1000),
  'a: ×1000': 'a:'.repeat(1000),
  'a/ ×1000': 'a/'.repeat(1000),
  'a. ×1000': 'a.'.repeat(1000),
  '1. ×1000': '1.'.repeat(1000),
  'digits': '1'.repeat(2000),
  'underscores': '_'.repeat(2000),
  '= ×1000 then x': `${'= '.repeat(1000)}x`,
  '( ×1000 then a': `${'('.repeat(1000)}a`,
  '[a ×1000': '[a'.repeat(1000),
  'a\\t ×1000': 'a\t'.repeat(1000),
  'log line, long tail': `[1] INFO processed /tmp/w/a1/file1.ts in 1ms ${'x'.repeat(1950)}`,
  'x… at line 3': `${'x'.repeat(1988)} at line 3`,
  'minified js': 'a.b(c,d);var e=f[g]+"h";'.repeat(80),
  'json': '{"a":1,"b":[1,2,3],"c":"d e"},'.repeat(65),
  'paths with positions': '/usr/lib/a/b.c:12:3 '.repeat(100),
  'error: ×285': 'error: '.repeat(285),
};

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

function regexLiterals(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = node.text;
      const slash = text.lastIndexOf('/');
      try {
        // Without g/y: each call starts at 0, as a fresh .test() would.
        found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text, re: new RegExp(text.slice(1, slash), text.slice(slash + 1).replace(/[gy]/g, '')) });
      } catch {
        /* a literal this Node cannot compile is not ours to judge */
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every call over `reportMs` and the slowest one; each pair is timed as the best of 3 (noise only adds). */
export function stressRegexes({ dirs = [join(root, 'src')], reportMs = 2 } = {}) {
  let count = 0;
  let slowest = null;
  const slow = [];
  for (const dir of dirs) {
    for (const file of sourceFiles(dir)) {
      for (const lit of regexLiterals(file)) {
        count++;
        for (const [input, text] of Object.entries(INPUTS)) {
          let best = Infinity;
          for (let i = 0; i < 3 && best > 0.05; i++) {
            const t0 = performance.now();
            lit.re.test(text);
            best = Math.min(best, performance.now() - t0);
            if (best > 1000) break; // one catastrophic call is enough to know
          }
          const hit = { ms: +best.toFixed(2), where: `${relative(root, file)}:${lit.line}`, input, regex: lit.text.length > 90 ? `${lit.text.slice(0, 89)}…` : lit.text };
          if (slowest === null || hit.ms > slowest.ms) slowest = hit;
          if (best > reportMs) slow.push(hit);
        }
      }
    }
  }
  return { regexes: count, inputs: Object.keys(INPUTS).length, slowest, slow: slow.sort((a, b) => b.ms - a.ms) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dirs = process.argv.slice(2).map((d) => resolve(d));
  const r = stressRegexes(dirs.length > 0 ? { dirs } : {});
  console.log(`${r.regexes} regex literals x ${r.inputs} adversarial lines; slowest call ${r.slowest?.ms} ms (${r.slowest?.where}, ${r.slowest?.input})`);
  for (const s of r.slow) console.log(`${String(s.ms).padStart(9)} ms  ${s.where}  [${s.input}]  ${s.regex}`);
}
