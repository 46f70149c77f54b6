/**
 * Value normalisation: replaces the parts of an error line that change from run to run
 * (or from checkout to checkout) with stable placeholders, and keeps everything that
 * tells one root cause from another (messages, identifiers, expected/received values,
 * error codes, file basenames, HTTP statuses).
 *
 * Every rule is a single linear regex pass over one short line; the order matters
 * (timestamps before `file:line`, URLs before paths, paths before hashes).
 */

/** A run of white space (one shared pattern: every signature collapses it to one space). */
export const SPACES = /\s+/g;

/** A segment that is an index (`1` in `/items/1/qty`). */
const INDEX = /^\d+$/;
const EXT_LESS_FILES = /^(Makefile|GNUmakefile|makefile|Dockerfile|Containerfile|Jenkinsfile|Rakefile|Gemfile|Vagrantfile|Procfile|Justfile|justfile|BUILD|WORKSPACE)$/;

/** The last segment of a path (`/a/b/c.ts` → `c.ts`, `a/b/` → `b`). */
export function basename(path: string): string {
  const trimmed = path.replace(/[/\\]+$/, '');
  const i = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return i >= 0 ? trimmed.slice(i + 1) : trimmed;
}

/**
 * True when `token` looks like a file path (not `and/or`, `3/4` or `I/O`, nor a JSON pointer or
 * route with an index, `/items/1/qty`, `/api/users/42`: which item is the specific).
 */
export function looksLikePath(token: string): boolean {
  if (!token.includes('/') && !token.includes('\\')) return false;
  if (!/[A-Za-z]/.test(token)) return false;
  const segments = token.split(/[/\\]/).filter(Boolean);
  const last = segments[segments.length - 1] ?? '';
  // (an index among the last two segments: deeper, a directory named by digits, `/tmp/82946783/app/src`)
  if (!last.includes('.') && !EXT_LESS_FILES.test(last) && segments.slice(-2).some((s) => INDEX.test(s))) return false;
  if (/^(~|\.{1,2})?[/\\]/.test(token)) return true;
  if (segments.length >= 3) return true;
  return /\.[A-Za-z][\w]{0,9}$/.test(last) || EXT_LESS_FILES.test(last) || segments.some((s) => s.includes('.'));
}

// file:///abs/path → basename (Node prints module URLs in stack traces and messages; Java and
// Groovy print `file:/abs/path`). A colon after it is the message's, not the path's.
const FILE_URL = /\bfile:\/{1,3}([^\s'"`()<>\[\]{},;]*[^\s'"`()<>\[\]{},;:])/g;
// C:\Users\x\proj\file.cs → file.cs
const WIN_PATH = /\b[A-Za-z]:\\(?:[^\\\s'"`()<>:]+\\)+([^\\\s'"`()<>:]*)/g;
// host:port after an IP/localhost (URLs included), and "port 1234".
const HOST_PORT = /\b(localhost|\d{1,3}(?:\.\d{1,3}){3}|0\.0\.0\.0|\[[0-9a-fA-F:]+\])(:)\d{2,5}\b/g;
const PORT_WORD = /\b(port)(\s*[:=#]?\s*)\d{2,5}\b/gi;
const UUID = /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g;
// (and the compact form of report ids and file names: `20261124_082932984`, `20261124T082932`)
const ISO_DATETIME = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w-])|\b(?:19|20)\d{6}[T_]\d{6}\d{0,6}(?!\w)/g;
const SLASH_DATE = /\b\d{4}\/\d{2}\/\d{2}\b|\b\d{2}\/\d{2}\/\d{4}\b/g;
// (Not glued to a word's colon: `cart.tex:4:43:26:` is a position chain, not a clock.)
const CLOCK_TIME = /(?<!\w:)\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?:\s?[AP]M)?\b/g;
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*';
// `Sat Nov 21 23:58:03 2026`, `Nov 21, 2026`, `21 Nov 2026` (the clock part is folded in).
const DAY_DATE = new RegExp(
  `\\b(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\\s+)?(?:${MONTH}\\s+\\d{1,2}(?:,?\\s+\\d{4})?|\\d{1,2}\\s+${MONTH}\\s+\\d{4})(?:\\s+\\d{1,2}:\\d{2}:\\d{2}(?:[.,]\\d+)?)?(?:\\s+\\d{4}\\b)?`,
  'g',
);
// cart.ts(12,39) → cart.ts   (tsc, msbuild, C#)
const PAREN_LOCATION = /(?<![\w./\\-])(\w[\w./\\-]*\.[A-Za-z]\w{0,9})\(\d+(?:,\d+)?\)/g;
// src/lib.rs:48:9 → src/lib.rs, Makefile:12 → Makefile   (a token holding a letter, then :N[:N], a column range `:10:15-33`);
// GNU ranges `cart.vala:5.16-5.19:` (line.column-line.column) before a colon too.
const COLON_LOCATION = /(?<![\w./\\@+~-])([\w./\\@+~-]+)((?::\d+)+(?:-\d+(?::\d+)?)?|:\d+\.\d+(?:-\d+(?:\.\d+)?)?(?=:))(?=$|[\s:,;)\]'"`>]|\.(?:\s|$))/g;
// App.java:[12,5] → App.java   (maven)
const BRACKET_LOCATION = /(\.[A-Za-z]\w{0,9}):\[\d+,\d+\]/g;
// bash job status: `line 3: 12345 Segmentation fault` → pid
const JOB_PID = /(:\s*)\d+(\s+(?:Segmentation fault|Killed|Aborted|Terminated|Bus error|Floating point exception|Illegal instruction|Hangup|Quit|Done|Exit \d+))/g;
// POSIX sh / dash location: `scripts/deploy.sh: 9: minify: not found`, `sh: 1: x: not found`.
// (also quoted in a diff: `+  /x/cart.sh: 6: cannot open …`)
const SH_LOCATION = /^([+-]?\s*(?:(?=[^\s:]*[./])[\w.@+~/-]+|sh|dash|ash|ksh|mksh|busybox)): \d+: /;
// Positions by name, which move with the file's content: `line 7`, `{line,7}`, `col 3`, `L: 5`, `(char 19)`, `at position 42`, `offset 7`.
const LINE_WORD = /\b(line|Line|LINE|col|column|Column|Ln|Col|char|position|offset|byte|pos)(\s*[:,]?\s*)\d+|\b([LP])(\s*:\s*)\d+/g;
// A bare position, wherever a tool puts it: `7:3 ✖ msg` at the start, `msg (7:45)` at the end,
// `Cannot parse: 2:70: code` inside. (A `file:line` is taken by COLON_LOCATION before.)
const PAREN_POSITION = /(?<!\s)\s*\(\d+:\d+(?::\d+)?\)/g;
// (a range too: remark's `10:19-10:31 warning …`)
const BARE_POSITION = /(^|[\s(\[])\d+:\d+(?::\d+)?(?:-\d+(?::\d+)?)?:?(?=$|[\s)\]:,;])/g;
// A numeric id after `id=`/`id:` (`request id=30331`, `user_id: 17`; quoted, with a word before its number:
// `'id': 'ord-8245475'`) or a long `#1234` reference.
const NUMERIC_ID = /\b(\w*(?:id|ID|Id))(["']?\s*[=:]\s*["']?)(?:[A-Za-z]+[-_])?\d+\b|#\d{4,}\b/g;
// Random parts of temp-file names: Python's tempfile (`orders-l66ay6vr.jsonl`), mkstemp's
// `XXXXXX`: 6-10 letters and digits, a digit followed by a letter (not `backup1`), between a separator and the extension.
const TEMP_FILE_PART = /([\w.-][-_.])(?=[a-z0-9_]{0,9}\d[a-z_])(?=[a-z0-9_]{0,8}[a-z][a-z0-9_]{0,8}[a-z])[a-z0-9_]{6,10}(?=\.[A-Za-z]\w{0,9}\b)/g;
// A path: optional ~ . .. prefix, optional leading slash, one or more "segment/" then a last segment;
// also a path glued to a word's colon (`ERROR:/tmp/x/cart.vala.c`, `psql:app/sql/cart.sql:3:`), not a URL's `//`.
const PATH = /(?:(?<![\w.@%+~:/\\-])|(?<=[A-Za-z]:)(?!\/\/))((?:~|\.{1,2})?\/?(?:[\w.@%+~-]+\/)+[\w.@%+~-]*)/g;
// (and Pascal's `$0000000000401142`)
const HEX_ADDR = /\b0x[0-9a-fA-F]+\b|\$[0-9A-F]{8,16}\b/g;
// (in lower case from 7 digits, in upper case from 12: `BEEF1234` may be a word or a code)
const HEX_HASH = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b|\b(?=[0-9A-F]*\d)(?=[0-9A-F]*[A-F])[0-9A-F]{12,64}\b/g;
const GCC_TEMP = /\bcc[A-Za-z0-9]{6}\.(o|s|res|ltrans\d*\.o)\b/g;
// Python's `tmpa1b2c3d4`, and mktemp's default `tmp.XXXXXXXXXX` (letters and digits, at least one digit or upper case).
const TMP_NAME = /\btmp(?:(?=[A-Za-z0-9_]*\d)[A-Za-z0-9_]{5,}|(\.)(?=[A-Za-z0-9]*[\dA-Z])[A-Za-z0-9]{6,})\b/g;
// (also a report's attribute without a unit: JUnit XML's `time="1.490218"`)
const DURATION = /\b\d+(?:\.\d+)?\s?(?:ns|µs|μs|us|ms|s|sec|secs|seconds?|milliseconds?|min|mins|minutes?|h|hrs?|hours?)\b|\b\d+m\d+(?:\.\d+)?s\b|(?<=\b(?:time|duration|elapsed)=["']?)\d+(?:\.\d+)?/g;
const SIZE = /\b\d+(?:\.\d+)?\s?(?:B|KB|kB|KiB|MB|MiB|GB|GiB|bytes)\b/g;
// (also a JSON field, `"pid":10783`)
const PID = /\b(pid|PID|Pid|process|Process)(["']?\s*[:=#]?\s*)\d+\b/g;
const THREAD_ID = /(thread '[^']*')\s*\(\d+\)/g;
// (and valgrind's place of a leak record among all records: `loss record 3 of 7`)
const THREAD_NUM = /\b(ThreadId\(|Thread-|goroutine |tid[ =:]|worker[ #-]?|loss record )\d+(?:( of )\d+)?/g;
// Java executor threads and lambdas are numbered in creation order: `pool-2-thread-3`,
// `ForkJoinPool-1-worker-5`, `lambda$main$0`.
const JAVA_NUMBERED = /\b(pool-|ForkJoinPool-)\d+(-thread-|-worker-)\d+\b|(\blambda\$[\w$]*?\$)\d+\b/g;
// Java's default toString: `shop.Item@5e9f23b4` (identity hash).
const JAVA_IDENTITY = /\b([A-Z][\w$]*)@(?=[0-9a-f]*\d)[0-9a-f]{4,8}\b/g;
// (and the other counts of a random search, which change with the seed: fast-check's `failed after 3 tests`,
// `Shrunk 4 time(s)`, QuickCheck's `(after 3 tests and 2 shrinks)`)
const SEED = /\b(seed|Seed|SEED)(\s*[:=]?\s*["']?)-?\d+|\b(after\s+|[Ss]hrunk\s+)\d+(?=\s+(?:tests?|runs?|tries|attempts?|iterations?|examples?|time)\b)|\b\d+(?=\s+shrinks?\b)/g;
// Ten or more digits: epoch seconds or milliseconds, ids; with its fraction (`time.time()` prints
// `1764000000.5299013`, the fraction as random as the rest).
const LONG_NUMBER = /\b\d{10,}(?:\.\d+)?\b/g;
// Runner tallies only (`3 passed`, `12 total`); counts inside messages (`expected 3 items`) are kept.
const COUNT = /(?<![A-Za-z] )\b\d+(\s+)(passed|failed|total|skipped|pending|todo|ignored|measured|filtered out|deselected|previous errors?|warnings?)\b/g;
const LEADING_LOG_PID = /^(\s*(?:\[?<(?:time|date)>\]?\s*){0,2})\[\d+\]/;
// `INFO [5653]`, `ERROR [42]`: a bracketed number after a log level is a pid/thread id; so is one after a
// bracketed level, in parentheses or as nginx's `pid#tid` (`[ALERT] (27463) :`, `[emerg] 1686#1686:`).
const LEVEL_PID = /\b(ERROR|ERR|FATAL|CRITICAL|SEVERE|WARN(?:ING)?|INFO|DEBUG|TRACE|NOTICE)(\s*)\[\d+\]|(\[[A-Za-z]{3,8}\]\s*)(?:\(\d+\)|\d+#(?:\d+|<id>))/g;
const BRACKET_BIG_NUMBER = /\[\d{4,}\]/g;
// A field whose whole value changed from run to run (`pid=<pid>`, `run_id=<uuid>`, `"time":"<time>"`), ending
// the text, before a delimiter or before the next field (not `Tests: <n> passed`).
const VOLATILE_FIELD = /(^|[{(]|,\s*|\s)["']?[A-Za-z_][\w.-]*["']?\s*[:=]\s*["']?<(?:time|date|pid|uuid|id|n|port|hash|tmp|dur|size)>["']?(?=\s*$|\s*\||[,;)}\]]|\s+["']?[A-Za-z_][\w.-]*["']?\s*[:=])/g;

/**
 * Drops the fields of a normalised signature whose whole value changed from run to run: structured
 * logs (structlog's `pid=… run_id=…`, a JSON line's `"run":"…"`) add such fields to some lines and
 * runs only, and a field that is nothing but a placeholder says nothing of the cause.
 */
export function dropVolatileFields(normalized: string): string {
  return normalized.replace(VOLATILE_FIELD, (_m, lead: string) => (lead === '{' || lead === '(' ? lead : lead.startsWith(',') ? '' : ' '));
}

function replacePath(match: string): string {
  if (!looksLikePath(match)) return match;
  const base = basename(match);
  return base === '' ? match : base;
}

/**
 * Replaces run-specific values in one line (or a short composed signature) with stable
 * placeholders. Pure, deterministic and linear in the input length.
 */
export function normalizeValues(input: string): string {
  // (The `file: N:` location after the paths are basenames: `file:/x/Cart.groovy: 12: …`.)
  let s = normalizeCommon(input).replace(SH_LOCATION, '$1: ');
  s = s.replace(LINE_WORD, (_m, word?: string, sep?: string, letter?: string, colon?: string) => (word ? `${word}${sep}<n>` : `${letter}${colon}<n>`));
  s = s.replace(PAREN_POSITION, '');
  s = s.replace(BARE_POSITION, '$1');
  s = s.replace(NUMERIC_ID, (m, key?: string, sep?: string) => (key ? `${key}${sep}<id>` : '#<id>'));
  s = s.replace(THREAD_ID, '$1');
  s = s.replace(JAVA_NUMBERED, (_m, pool?: string, kind?: string, lambda?: string) => (lambda ? `${lambda}<n>` : `${pool}<n>${kind}<n>`));
  s = s.replace(THREAD_NUM, (_m, head: string, of?: string) => `${head}<n>${of ? `${of}<n>` : ''}`);
  s = s.replace(PID, '$1$2<pid>');
  s = s.replace(JOB_PID, '$1<pid>$2');
  s = s.replace(SEED, (_m, seed?: string, sep?: string, count?: string) => (seed ? `${seed}${sep}<n>` : `${count ?? ''}<n>`));
  s = s.replace(DURATION, '<dur>');
  s = s.replace(SIZE, '<size>');
  s = s.replace(LONG_NUMBER, '<n>');
  s = s.replace(COUNT, '<n>$1$2');
  s = s.replace(LEADING_LOG_PID, '$1[<pid>]');
  s = s.replace(LEVEL_PID, (_m, level?: string, sep?: string, bracketed?: string) => (level ? `${level}${sep}[<pid>]` : `${bracketed}<pid>`));
  s = s.replace(BRACKET_BIG_NUMBER, '[<n>]');
  return s.replace(SPACES, ' ').trim();
}

/**
 * Normalises a test name: only what can differ between checkouts and runs (paths, ids,
 * hashes, addresses, timestamps). Counts and durations in a name are part of it
 * (`handles 3 items` and `handles 4 items` are two tests).
 */
export function normalizeName(input: string): string {
  // rustdoc names a doc test by where it sits: `src/lib.rs - fee (line 6)`.
  return normalizeCommon(input).replace(DOCTEST_LINE, '$1<n>)').replace(LONG_NUMBER, '<n>').replace(SPACES, ' ').trim();
}
const DOCTEST_LINE = /(\((?:line|Line) )\d+\)\s*$/;

function normalizeCommon(input: string): string {
  let s = input;
  s = s.replace(FILE_URL, (_m, p: string) => basename(p));
  s = s.replace(WIN_PATH, (_m, last: string) => last);
  s = s.replace(UUID, '<uuid>');
  s = s.replace(ISO_DATETIME, '<time>');
  s = s.replace(SLASH_DATE, '<date>');
  s = s.replace(DAY_DATE, '<date>');
  s = s.replace(CLOCK_TIME, '<time>');
  s = s.replace(HOST_PORT, '$1$2<port>');
  s = s.replace(PORT_WORD, '$1$2<port>');
  s = s.replace(PAREN_LOCATION, '$1');
  s = s.replace(BRACKET_LOCATION, '$1');
  s = s.replace(COLON_LOCATION, (m, token: string) => (/[A-Za-z_]/.test(token) ? token : m));
  s = s.replace(PATH, replacePath);
  s = s.replace(GCC_TEMP, 'cc<tmp>.$1');
  s = s.replace(TMP_NAME, (_m, dot?: string) => `tmp${dot ?? ''}<tmp>`);
  s = s.replace(TEMP_FILE_PART, '$1<tmp>');
  s = s.replace(HEX_ADDR, '0x<addr>');
  s = s.replace(JAVA_IDENTITY, '$1@<hash>');
  s = s.replace(HEX_HASH, '<hash>');
  return s;
}

/**
 * Removes a leading log prefix (timestamps, `[pid]`, log level brackets) so that the
 * message itself is what a fingerprint keeps. Works on normalised text.
 */
export function stripLogPrefix(normalized: string): string {
  let s = normalized;
  for (let i = 0; i < 4; i++) {
    const next = s.replace(/^(?:#\d+\s+\d+\.\d+(?=\s)|\[[^\]]{0,40}<(?:time|pid|n|date)>[^\]]{0,40}\]|\((?:<time>|<date>)\)|<time>|<date>|\[\d+\])\s*[:|-]?\s*/, '');
    if (next === s) break;
    s = next;
  }
  return s;
}

/** Cuts a signature to at most `max` characters without splitting a surrogate pair. */
export function truncate(s: string, max = 200): string {
  if (s.length <= max) return s;
  let end = max - 1;
  const code = s.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${s.slice(0, end).trimEnd()}…`;
}
