/**
 * Line classification: which lines of verification output can never be the failure
 * signature. Tool-agnostic shapes only (banners, separators, stack frames, source
 * excerpts, summaries and counts, passing tests, progress and npm script headers).
 */

import type { Line } from './lines.js';

export type LineKind =
  | 'blank'
  /** Rules and decorations with no letters or digits (`────`, `^^^^`, `}`). */
  | 'separator'
  /** A rule with a title: `==== FAILURES ====`, `⎯⎯ Failed Tests 2 ⎯⎯`. */
  | 'banner'
  /** Stack frames: JS/Java `at …`, Python `File "…", line N`, Go/Rust/Ruby/PHP frames. */
  | 'frame'
  /** Source excerpts printed under a diagnostic: `  8 | code`, `> 21 | code`, `  --> file`. */
  | 'code'
  /** Totals, counts, timings: `Tests: 1 failed, 3 passed`, `test result: …`, `✖ 1 problem`. */
  | 'summary'
  /** A passing test or file: `✓ name`, `ok 2 - name`, `--- PASS:`, `test x ... ok`. */
  | 'pass'
  /** Banners and progress: runner versions, `Compiling x`, `> pkg@1.0.0 script`, `make: Entering`. */
  | 'progress'
  | 'text';

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** Characters that draw a banner's rules: `==== FAILURES ====`, `--- title ---`, `⎯⎯ Failed Tests ⎯⎯`. */
const RULE_CHARS = new Set('=-_*#~⎯─━═!+<>');

const FRAME = [
  /^\s*(?:at|❯)\s+.*(?:\(.*:\d+(?::\d+)?\)|:\d+(?::\d+)?\)?|\(native\)|\(<anonymous>\)|\(Unknown Source\)|:line \d+|\(internal\/[^)]*\))\s*$/,
  /^\s*File "[^"]+", line \d+/,
  /^\s+\/\S+\.go:\d+(?: \+0x[0-9a-f]+)?$/,
  /^goroutine \d+ \[[^\]]+\]:$/,
  /^(?:created by )?[\w.\/*()[\]-]+\((?:0x[0-9a-f]+|\.\.\.|\{[^}]*\}|[\s,0-9a-fx{}.]*)\)(?: in goroutine \d+)?$/,
  /^\s*from \S+:\d+:in /,
  /^\s*#\d+\s+(?:\/|\{main\}|\S+\(\d+\):|0x)/,
  /^\s+\d+:\s+0x[0-9a-f]+ - /,
  /^\s*(?:\[\s*)?(?:bt|frame) ?#?\d+\]?\s+0x/,
  /^\s*(?:async\s+)?[\w$.<>[\]]+\s+\((?:file:|node:|internal\/|\/)[^)]*\)\s*$/,
  /^\s*(?:async\s+)?node:[\w/:_-]+:\d+(?::\d+)?\)?$/,
  // A frame that ends with its return address (`??:? _Dmain [0x5581f90f24d3]`, D, C backtraces)
  // or with its place in parentheses (`in call from m:f/0 (test/m.erl, line 4)`).
  // or the checker's `at 0x4846828: malloc (in …)` / `by 0x…: main (main.c:9)` (valgrind).
  /^\s*\S+:\S*\s.*\[0x[0-9a-fA-F]+\]$|^\s*(?:in|at|from)\s.{0,300}\((?:[^()]*,\s*)?line \d+\)$|^\s*(?:at|by) 0x[0-9A-Fa-f]+: /,
];

const CODE = [
  // A numbered gutter, also behind a marker or comment sign (`> 9 |`, `>> 6|` ejs, `%    7|` erlc) or an `L`
  // (`L10 |`): the source line, not the message.
  /^\s*(?:(?:>>?|[%#;])\s*)?L?\d+\s*[|│]/,
  /^\s*\d+:\s{2,}\S/,
  // (and the box a report draws around its excerpt: `╭─[ src/main.js:2:22 ]`)
  /^\s*(?:[%#;]\s*)?(?:[|│╭┌]|,-\[)/,
  /^\s*-->\s/,
  /^\s*:::\s/,
  /^\s*=\s*(?:note|help):/,
];

const SUMMARY = [
  // (also the seed a property-based runner reports to replay: `{ seed: -1539615048, path: "0:2", … }`)
  /^\s*\{?\s*(?:Tests?|Test Suites|Test Files|Suites|Snapshots|Time|Duration|Start at|Assertions|Examples|Seed|seed|Random Seed)(?::\s*|\s{2,})\S/,
  /^\s*[#ℹ]\s*(?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms|ok|not ok)\b/,
  /^\s*\d+\.\.\d+(?:\s*#.*)?$/,
  /^\s*(?:running|collected|collecting|Running|Ran|Executed)\s+(?:\d+|all\b)/,
  /^\s*Found \d+ (?:errors?|warnings?|problems?)\b/,
  /^\s*\d+ (?:errors?|warnings?)(?: and \d+ warnings?)?(?: generated)?\.?\s*$/,
  // Where to read more (`For more information about this error, try …`, `… see <url>`).
  /^\s*(?:For more information\b|Some errors have detailed explanations)/,
  // A line that only reports the run's seed (`Running tests with seed 4242`, `Randomized with seed 1234`).
  /^\s*[A-Z][a-z]+(?: [a-z]+){0,3} with seed\b/,
  /^\s*-test\.shuffle \d+/,
  /^\s*(?:OK|FAILED) \((?:failures|errors|tests)[=\d, a-z]*\)\s*$/,
  /^\s*Tests run: \d+/,
  /^\s*[✖×]\s+failing tests:?\s*$/,
  /^\s*(?:ERROR|HEAP|LEAK) SUMMARY:/,
  /^\s*(?:definitely lost|indirectly lost|possibly lost|still reachable|suppressed|in use at exit|total heap usage): /,
];
// Not after a word: `build step 1 failed` is a message, `1 failed, 2 passed`, ` 3 fail` a tally; also a
// share (`3 of 5 tests failed`, `2/4 test failures`) and a count after its word (`FAILED (failures=2, errors=1)`).
const COUNT_PHRASE = /(?<![A-Za-z] )\b\d+(?:(?:\s+of\s+|\/)\d+\s+(?:tests?|examples?|specs?))?\s+(?:passed|failed|passing|failing|pass|fail|errors?|warnings?|problems?|tests?|total|skipped|pending|todo|suites?|files?|failures?|examples?|assertions?|items?|ignored|measured|filtered out|deselected|xfailed|xpassed|rerun|snapshots?|cancelled)\b|\b(?:failures|errors)=\d+\b/gi;

const PASS = [
  /^\s*[✓✔√]\s/,
  /^\s*PASS\s+\S/,
  /^\s*ok\s+\d+\b/,
  /^\s*ok\s+\S+\s+(?:[\d.]+s|\(cached\)|\[no test files\])/,
  /^\s*--- (?:PASS|SKIP):/,
  /^\s*=== (?:RUN|PAUSE|CONT|NAME)\s/,
  /^\s*test \S.* \.\.\. (?:ok|ignored)\s*$/,
  /^\s*\S+\s+[.sxXFE]+\s*\[\s*\d+%\]\s*$/,
  /^\s*\S+\.\w+\s+\.{2,}[.sx]*\s*$/,
  /^\s*PASSED\b/,
  /^\s*\d+\/\d+\s+Test\s+#\d+:\s+\S+\s+\.*\s+Passed\b/,
];

const PROGRESS_VERBS = /^\s*(?:Compiling|Finished|Running|Downloading|Downloaded|Building|Checking|Installing|Collecting|Resolving|Fresh|Updating|Locking|Adding|Blocking|Waiting|Documenting|Packaging|Verifying|Uploading|Fetching|Preparing|Linking|Starting|Started)\s+\S/;
/** A progress-looking line that reports a failure is not progress (`Checking links failed`). */
const FAILURE_WORD = /\b(?:error|errors|failed|failure|fatal|cannot|not found|denied|panic)\b/i;
/** Lines that open with an error are never count summaries (`Error: expected 2 items, got 3 items`). */
const ERROR_HEAD = /^\s*(?:[\w.$]*(?:Error|Exception)|error|fatal|panic|E)\b\s*[:[]|^\s*E\s{2,}/;

const PROGRESS = [
  // (and a build step's counter: ninja's `[3/9] Building x`, `rescript: [4/9] src/Money.d`)
  /^\s*RUN\s+v\d|^\s*(?:[\w.-]+:\s*)?\[\d+\/\d+\]\s+\S/,
  PROGRESS_VERBS,
  /^>\s/,
  /^\s*make(?:\[\d+\])?: (?:Entering|Leaving) directory/,
  /^\s*make(?:\[\d+\])?: Nothing to be done/,
  /^\s*(?:platform \w+ -- Python|rootdir:|configfile:|inifile:|testpaths:|plugins:|cachedir:|benchmark:|hypothesis profile|asyncio: mode)/,
  /^TAP version \d+/,
  /^\s*#\s*Subtest:/,
  /^\s*(?:---|\.\.\.)\s*$/,
  /^\s*(?:duration_ms|location|failureType|type|stack|generatedMessage|operator):\s/,
  /^\s*(?:Node\.js|Deno|Bun) v\d+\.\d+/,
  // Advice, not the failure: `note: run with `RUST_BACKTRACE=1``, `Hint: make sure your test modules…`.
  /^\s*(?:note|hint|help|tip): /i,
  /^\s*npm (?:notice|WARN|warn)\b/,
  /^\s*(?:npm (?:ERR!|error)) (?:A complete log of this run|Log files were not written|You can rerun the command|This is probably not a problem with npm|code ELIFECYCLE|errno \d+|path \/|workspace |location \/|command sh -c|\s*$)/,
  /^\s*(?:npm (?:ERR!|error))\s+\S+@\S+ \S+: `/,
  /^\s*(?:Traceback \(most recent call last\)|stack ?trace(?:back)?|call ?(?:stack|history)|backtrace)\b[^:]{0,40}:?\s*$/i,
  // CTest progress: `Start 2: ring_wrap`, `Test project /path/build`.
  /^\s*Start\s+\d+: \S+$|^Test project \//,
  // Unified diff headers (`git diff`, `diff -u`): which files, not what changed.
  /^(?:diff --git \S+ \S+|index [0-9a-f]{7,}\.\.[0-9a-f]{7,}(?: \d+)?|(?:new|deleted) file mode \d+)$/,
  // Memory-checker banners and hints (valgrind; the `==pid==` prefix is gone already).
  /^\s*(?:Memcheck|Helgrind|DRD|Massif|Cachegrind|Callgrind|DHAT), an? [\w -]+$/,
  /^\s*(?:Copyright \(C\) |Using Valgrind-\d|Command: |Parent PID: |For (?:lists|counts) of detected and suppressed errors|Use --track-origins=yes|Rerun with --leak-check|All heap blocks were freed)/,
  // Diff legends: `- Expected` / `+ Received`, `+ actual - expected`.
  /^\s*[+-]\s*(?:Expected|Received|expected|received|actual|Actual)\b(?:\s*[+-]\s*(?:\d+|expected|actual|received))?:?\s*$/,
];

/**
 * One regex per set of flags that matches where any pattern of `list` does: a line is tested
 * once per class instead of once per pattern (most lines are tested against every class).
 */
export function anyOf(list: RegExp[]): RegExp[] {
  const byFlags = new Map<string, string[]>();
  for (const re of list) byFlags.set(re.flags, [...(byFlags.get(re.flags) ?? []), `(?:${re.source})`]);
  return [...byFlags].map(([flags, sources]) => new RegExp(sources.join('|'), flags));
}
export const matchesAny = (res: RegExp[], text: string): boolean => res.some((re) => re.test(text));

const PASS_LINE = anyOf(PASS);
const FRAME_LINE = anyOf(FRAME);
const CODE_LINE = anyOf(CODE);
const PROGRESS_LINE = anyOf(PROGRESS.filter((re) => re !== PROGRESS_VERBS));
const SUMMARY_LINE = anyOf(SUMMARY);

const LEVEL_TAG = /^\s*\[(?:error|warn|warning|info|debug|ERROR|WARN|WARNING|INFO|DEBUG)\]\s+/;

/** The kind of one line of `toLines`: a marked stack frame, else what its text says. */
export function lineKind(line: Line): LineKind {
  if (line.frame) return 'frame';
  return (line.kind ??= classifyLine(line.text)) as LineKind;
}

/** Classifies one cleaned line (ANSI already stripped). */
export function classifyLine(line: string): LineKind {
  if (line.trim() === '') return 'blank';
  // A level tag some tools put on every line (`[error]   9 | code`) hides what the line is.
  const text = line.replace(LEVEL_TAG, '') || line;
  const withoutCounter = text.replace(/\[\d+\/\d+\]/g, '');
  if (!LETTER_OR_DIGIT.test(withoutCounter)) return 'separator';
  if (bannerTitle(text) !== null) return 'banner';
  if (matchesAny(PASS_LINE, text)) return 'pass';
  if (matchesAny(FRAME_LINE, text)) return 'frame';
  if (matchesAny(CODE_LINE, text)) return 'code';
  if (matchesAny(PROGRESS_LINE, text) || (PROGRESS_VERBS.test(text) && !FAILURE_WORD.test(text))) return 'progress';
  if (matchesAny(SUMMARY_LINE, text) || (text.includes('fail') && tallyComment(text) !== null)) return 'summary';
  if (!ERROR_HEAD.test(text) && isCountSummary(text)) return 'summary';
  return 'text';
}

/** A line made mostly of counts (`1 failed, 2 passed in 1.07s`, `Tests  2 failed | 1 passed (3)`). */
function isCountSummary(text: string): boolean {
  const matches = text.match(COUNT_PHRASE);
  if (!matches) return false;
  if (matches.length >= 2) return true;
  // A single count with little else: `1 failed`, `=== 3 errors in 0.2s ===`, `(2 tests | 1 failed) 12ms`.
  const rest = text.replace(COUNT_PHRASE, '').replace(/\b\d+(?:\.\d+)?\s*m?s\b/g, '').replace(/[^\p{L}]+/gu, ' ').trim();
  return rest.split(' ').filter(Boolean).length <= 2;
}

/**
 * How many failures a runner's tally line reports (`0 successes / 1 failure / 1 error`,
 * `1 scenario passed, 2 failed`, `3 examples, 3 failures`, `TEST COMPLETE, 0 ok, 3 failed of 3`;
 * not a count after a word, `step 2 failed`): the failed and errored counts of a
 * line that has a failed count, summed; the largest over the lines (features < scenarios).
 * 0 when no line tallies failures. (A compiler's `2 errors generated` is no test tally.)
 */
export function failureTally(lines: Line[]): number {
  let most = 0;
  for (const line of lines) {
    if (!line.text.includes('fail')) continue;
    const comment = tallyComment(line.text);
    if (comment !== null) {
      most = Math.max(most, comment);
      continue;
    }
    let sum = 0;
    let failed = false;
    for (const m of line.text.matchAll(COUNT_PHRASE)) {
      // (`3 failed`, `3 of 5 tests failed`, `2/4 test failures`: the count first, the word last; `failures=3`: the word first)
      const words = m[0].toLowerCase().split(/[\s=/]+/);
      const counted = m[0].includes('=');
      const n = (counted ? words[1] : words[0])!;
      const word = (counted ? words[0] : words[words.length - 1])!;
      if (word.startsWith('fail')) failed = true;
      if (word.startsWith('fail') || word.startsWith('error')) sum += Number(n);
    }
    if (failed) most = Math.max(most, sum);
  }
  return most;
}

/**
 * The count of a TAP-style tally comment, the word before the number: `# fail 3`, `ℹ fail 2`,
 * `# { total: 3, pass: 0, fail: 3 }` (TAP producers, node's test runner), `# You failed 2 tests
 * of 4`, `# Looks like you failed 2 tests of 5.` (Test::Builder and its kin). Null for other lines.
 */
function tallyComment(text: string): number | null {
  const t = text.trimStart();
  if (t[0] !== '#' && t[0] !== 'ℹ') return null;
  const at = t.indexOf('fail');
  // (a word of its own: not `unfailing`, `was_failing`)
  const before = at > 0 ? t.charCodeAt(at - 1) | 32 : 0;
  if (at < 0 || (before >= 97 && before <= 122) || t[at - 1] === '_') return null;
  let j = at + 4;
  // (`fail`, `failed`: the rest of the word, then the count)
  while (j < t.length && (t.charCodeAt(j) | 32) >= 97 && (t.charCodeAt(j) | 32) <= 122) j++;
  while (j < t.length && (t[j] === ':' || t[j] === ' ')) j++;
  let k = j;
  while (k < t.length && t.charCodeAt(k) >= 48 && t.charCodeAt(k) <= 57) k++;
  return k > j ? Number(t.slice(j, k)) : null;
}

/** True for lines that can never carry the failure signature. */
export function isNoise(kind: LineKind): boolean {
  return kind !== 'text';
}

/** The title of a banner line (`==== FAILURES ====` → `FAILURES`), or null. */
export function bannerTitle(text: string): string | null {
  // A scan, not a regex: `^\s*[rule]{3,}\s*(\S.*?)\s*[rule]{3,}\s*$` backtracks in cubic time
  // on a long run of rule characters (12 s for one 2,000-character line).
  const t = text.trim();
  let start = 0;
  while (start < t.length && RULE_CHARS.has(t[start]!)) start++;
  let end = t.length;
  while (end > start && RULE_CHARS.has(t[end - 1]!)) end--;
  if (start < 3 || t.length - end < 3) return null;
  const title = t.slice(start, end).trim();
  return title === '' ? null : title;
}
