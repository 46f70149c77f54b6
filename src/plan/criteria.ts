/**
 * Acceptance criteria from `<verify>`, `<automated>`, `<done>`, `<verification>`: each line
 * (bullet, sentence line, fence line, `<automated>` element) becomes a Criterion with the
 * executable checks it names and whether prose is left for the agent to confirm.
 *
 * Executable forms (the Ralph Loop Pattern seed's): `command_succeeds` for commands in
 * `<automated>`, inline code, shell fences, or a bare line that reads as a command;
 * `file_exists` for "`path` exists"; `contains_text` for "`path` contains `text`". Prose
 * such as "all tests pass" is recorded as a named check, resolved against config later.
 */
import type { Check } from './model.js';
import type { Criterion, NamedCheckKind } from './parsed.js';
import { decodeEntities } from './entities.js';
import type { LineIndex } from './lines.js';
import { endsInCount, isLongRunning, isPlaceholder, isProjectPath, isSearch, isTemplateSlot, isSentence, LOCAL_URL, looksLikeBareCommand, looksLikeCodeCommand, looksLikeExplicitCommand, NO_PROGRAMS, programResolves, publishesOrDestroys, readsNoInput, SHELL_BUILTINS, type ProgramResolver } from './command-like.js';
import { firstProgram, hasShellSyntax, shellTokens, simpleCommands } from './shell-words.js';

/** How much a line of this element is trusted to mean "run this". */
export type CriteriaMode = 'verify' | 'done' | 'manual';

/** Fences whose body is a POSIX-shell script (run as one script); `''` only when every line is a command. */
const SHELL_LANGS = new Set(['', 'bash', 'sh', 'shell', 'zsh', 'console', 'shell-session', 'sh-session', 'terminal']);
const PROMPT_LANGS = new Set(['console', 'shell-session', 'sh-session', 'terminal']);

/** After a command: `in src/app/`, `from \`backend/\``: the directory the author runs it in. */
const IN_DIRECTORY = /^\s+(?:in|inside|from|under)\s+(?:the\s+)?`?\.?[\w@.-]+(?:\/[\w@.-]+)*\/`?(?=[\s.,;:)]|$)/i;

/** A line that starts by saying it is optional. */
const OPTIONAL_STEP = /^\(?optional(?:ly)?\b/i;

/** A heading or label naming steps a person takes. */
const BY_HAND_LABEL = /\bmanual(?:ly)?\b|\bby\s+hand\b|\bhuman\b|\bvisual(?:ly)?\b|\bin\s+the\s+browser\b/i;

const BULLET = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?/;
const CHECKBOX_ONLY = /^\s*\[[ xX]\]\s+/;

/** Words that add nothing beyond "the check passes" (used to decide whether a line is also manual). */
const FILLER = new Set(
  `run runs running ran execute executes executed pass passes passing passed succeed succeeds succeeded successful successfully success
  exit exits exited code status with without no zero error errors warning warnings cleanly clean ok okay green compiles compile compiled
  compiling build builds built all the and both should must then it is are be verify check checks confirm ensure test tests lint linting
  type typecheck typescript tsc command commands returns return exists exist works work still also a an of in on for to via using after
  before there e g i`.split(/\s+/),
);

// "no failing tests" and "without errors" are not failure expectations.
// "0 chart(s) failed", "no tests failed": a count of zero names what did not fail. "broken links
// fail the build": what would make the command fail, said of something else; "to avoid flaky
// failures": what the command is run to prevent.
const NOT_NEGATIVE = /\b(?:no|without|zero|0)\s+(?:new\s+)?(?:[\w()]+\s+)?(?:fail\w*|errors?|warnings?|regressions?|issues|problems)\b|\bfail(?:s|ing)?\s+(?:the\s+)?(?:build|check|job|pipeline|ci|run|step|deploy)\b|\bavoid(?:s|ing)?\s+(?:[\w-]+\s+){0,2}fail\w*/gi;
const NEGATIVE =
  /\b(?:fail|fails|failing|failed|failures?|red)\b|\bnon-?zero\b|\bexits?\s+(?:with\s+)?(?:code\s+|status\s+)?[1-9]|\b(?:zero|no|0|none)\s+(?:lines?|matches|results?|output|occurrences|hits)\b|\breturns?\s+(?:nothing|no\s|empty)|\bmatch(?:es)?\s+(?:zero|no|0|nothing|none)\b|\b(?:should|must)\s+not\b|\bnot\s+(?:found|present|exist)|\bdoes\s*n[o']t\s+(?:match|exist|contain|find)|\bempty\b|\bno\s+such\s+file\b|\bno\s+longer\s+(?:lists?|shows?|contains?|includes?|prints?|returns?|has|matches|finds?|appears?|exists?)\b|\b(?:returns?|outputs?|prints?|shows?|yields?|gives?|reports?|counts?|equals?)\s+(?:exactly\s+)?(?:0|zero|nothing|none)\b/i;
/** A fence comment saying its command is meant to find nothing or fail (`# must be empty`, `# should fail`). */
const EXPECTS_NOTHING =
  /\b(?:must|should|will|expected\s+to)\s+(?:be\s+empty|fail|exit\s+non-?zero|return\s+(?:nothing|non-?zero|no\s+match\w*)|find\s+nothing|not\s+(?:match|find))\b|\bexpect(?:ed|s)?\s*[:=]?\s*(?:(?:zero|no|0|none)\s+(?:matches|lines?|results?|output|hits|occurrences)|nothing|empty)\b/i;
/** Words for tests: a sentence about them failing (`the B test is RED`) is about the line's test run. */
const TEST_WORDS = /\b(?:tests?|specs?|RED)\b/;
/** "fails", "is RED"; not "no test failures", "without failing", "may fail". */
const FAILS_NOW = /\b(?:fails?|failing|failed)\b|(?:^|[^A-Za-z])RED(?:[^A-Za-z]|$)/;
const NOT_FAILING = /\b(?:no|without|zero|0)\s+(?:\w+\s+){0,2}fail\w*|\b(?:may|might|can|could)\s+(?:still\s+)?fail\b/gi;

/** A sentence saying a test fails now (`the "all tenants pass" test is RED (expected)`). */
function saysTestsFailNow(sentence: string): boolean {
  return TEST_WORDS.test(sentence) && FAILS_NOW.test(sentence.replace(NOT_FAILING, ' '));
}

/** What a search (`grep`, `rg`, `git grep`) is said to find when it should find nothing: `no importers`, `none`. */
const SEARCH_FINDS_NONE = /\b(?:no\s+(?!such\b)[a-z]|none\b|nothing\b|zero\b)|(?:→|->|=>|==?)\s*0(?![\d.])/i;
const RUN_OR_SUCCESS =
  /\b(?:run|runs|running|ran|pass|passes|passing|passed|succeed|succeeds|success|successful|successfully|exit|exits|green|compiles?|builds?|works?|ok|clean|matches)\b|\bwithout\s+(?:any\s+)?errors\b|\b(?:no|zero|0)\s+(?:new\s+)?(?:errors?|warnings?|failures?|issues|problems|regressions)\b|\b(?:returns?|shows?|prints?|outputs?|finds?|lists?|counts?)\s+(?:at\s+least\s+(?:one|[1-9]\d*)|>=?\s*[1-9]\d*|[1-9]\d*\+|(?:a\s+|one\s+or\s+more\s+)?match(?:es)?\b)/i;

/** "to see it process", "to watch the logs": what a person looks at; not "to see that it passes". */
const TO_WATCH = /\bto\s+(?:see|watch|view|observe|eyeball|try)\b(?!\s+(?:that|whether|if)\b)/i;

/**
 * What is said of a command that starts a process meant to keep running (`starts without errors`,
 * `boots`, `launches the app`, `listens on 8000`, `opens in the browser`): a server or an app the
 * author runs by hand, whatever its name. Not `starts with`: that is about its output.
 */
const STARTS = /\b(?:starts?|started|boots?|booted|launch(?:es|ed)?|listens?|listening|serves?|serving)\b(?!\s+with\b)|\bopens?\s+(?:a|the|in)\b|\bis\s+(?:running|up|listening)\b/i;

// (`(?<!:)`: the `::` of `cargo test report::` is the command's, not a separator before "passes".)
const TRAILING_SUCCESS =
  /(?:(?<!:)\s*[-—–:,]\s*|\s+)(?:(?:and\s+)?(?:all|both)\s+)?(?:still\s+)?(?:passes|succeeds|(?:is\s+)?green|(?:is\s+)?clean|exits?(?:\s+with)?(?:\s+code|\s+status)?\s+0|returns?\s+0|completes(?:\s+successfully)?|runs(?:\s+successfully|\s+cleanly|\s+without\s+(?:any\s+)?(?:errors|warnings))?|works|(?:compiles|builds)(?:\s+successfully|\s+cleanly|\s+without\s+(?:any\s+)?(?:errors|warnings))?|exists|exist|without\s+(?:any\s+)?(?:errors|warnings)|with\s+no\s+errors|cleanly|successfully|(?:should|must|will)\s+(?:pass|succeed|exit\s+0))\s*\.?$/i;

/**
 * The same success said in Spanish, Portuguese, French, German or Italian, ending the line:
 * `debe pasar (sin errores)`, `pasa completo`, `compila sin advertencias`, `deve passar`, `doit
 * réussir`, `muss grün sein`, `ohne Fehler`, `deve passare`.
 */
const LATIN_PASSES =
  '(?:debe|deben|tiene\\s+que|deve|devem|doit|doivent|muss|müssen|sollte|soll|devono)\\s+(?:pasar|compilar|funcionar|passar|passer|réussir|passare|grün\\s+sein|erfolgreich\\s+sein|durchlaufen|bestehen)|pasan?(?:\\s+(?:completo|por\\s+completo))?|passam?|passent|passe|réussit|läuft\\s+durch|ist\\s+grün|compila';
const LATIN_NO_ERRORS = '(?:sin|sem|sans|ohne|senza)\\s+(?:errores|advertencias|erros|avisos|erreurs?|avertissements?|Fehler|Warnungen|errori|avvisi)';
// One whitespace, then a phrase that starts with a letter: linear on a line of spaces.
const TRAILING_SUCCESS_LATIN = new RegExp(`\\s(?:(?:${LATIN_PASSES})(?:\\s+${LATIN_NO_ERRORS})?|${LATIN_NO_ERRORS})\\s*\\.?$`, 'i');

const NAMED: Array<[NamedCheckKind, RegExp]> = [
  [
    'tests_pass',
    /\b(?:(?:all|the|existing|unit|integration|e2e)\s+)*(?:tests?|test\s+suite|specs?)(?:\s+cases)?\s+(?:still\s+)?(?:pass|passes|passing|succeed|succeeds|are\s+green|green)\b|\bpass(?:es|ing)?\s+(?:all\s+)?(?:the\s+)?tests\b/i,
  ],
  [
    'no_type_errors',
    /\bno\s+(?:new\s+)?(?:typescript\s+|ts\s+|tsc\s+|type[- ]?(?:check(?:ing)?\s+)?)errors\b|\btype[- ]?check(?:s|ing)?\s+(?:passes|pass|succeeds|is\s+clean|clean)\b|\b(?:typescript|tsc)\s+(?:compiles|compilation\s+succeeds|passes|builds)\b|\bcompiles?\s+without\s+(?:type\s+)?errors\b/i,
  ],
  ['lint_clean', /\b(?:lint(?:ing|er)?|eslint|biome|ruff|clippy)\s+(?:passes|pass|is\s+clean|clean|succeeds|reports\s+no)\b|\bno\s+lint(?:ing)?\s+(?:errors|warnings|issues)\b|\blint[- ]clean\b/i],
];

const FILE_EXISTS =
  /^(?:(?:the\s+)?(?:file|directory|folder|dir)\s+)?`?([^\s`]+)`?(?:\s+(?:file|directory|folder|dir))?\s+(?:exists|is\s+present|is\s+created|was\s+created|has\s+been\s+created|created)\s*\.?$/i;
const FILE_CONTAINS = /^(?:(?:the\s+)?file\s+)?`?([^\s`]+)`?\s+(?:contains|includes)\s+(?:`([^`]+)`|"([^"]+)")\s*\.?$/i;

export interface Span {
  start: number;
  end: number;
  content: string;
}

/** Inline code spans on one line (backtick runs of equal length). */
export function codeSpans(line: string): Span[] {
  const spans: Span[] = [];
  let i = 0;
  while (i < line.length) {
    if (line[i] === '\\') {
      i += 2;
      continue;
    }
    if (line[i] !== '`') {
      i++;
      continue;
    }
    let n = 1;
    while (line[i + n] === '`') n++;
    let j = i + n;
    let close = -1;
    while (j < line.length) {
      if (line[j] === '`') {
        let k = 1;
        while (line[j + k] === '`') k++;
        if (k === n) {
          close = j;
          break;
        }
        j += k;
      } else j++;
    }
    if (close === -1) {
      i += n;
      continue;
    }
    spans.push({ start: i, end: close + n, content: line.slice(i + n, close) });
    i = close + n;
  }
  return spans;
}

const NAMED_HINT = /test|spec|type|tsc|lint|compil|clippy|ruff|biome/i;

function namedKinds(text: string): NamedCheckKind[] {
  const out: NamedCheckKind[] = [];
  if (!NAMED_HINT.test(text)) return out;
  for (const [kind, re] of NAMED) if (re.test(text)) out.push(kind);
  return out;
}

function hasNonFiller(text: string): boolean {
  const ws = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return ws.some((w) => !FILLER.has(w));
}

/** A command whose last stage counts (`... | wc -l`) on a line that says what the count should be. */
function countSaid(command: string, line: string): boolean {
  return endsInCount(command) && /\d|\b(?:one|two|three|zero|none)\b/i.test(line.replace(command, ' '));
}

/** Where a line ends with success said in another Latin-script language, or null. */
function latinSuccess(s: string): RegExpExecArray | null {
  return TRAILING_SUCCESS_LATIN.exec(s);
}
function isNegative(text: string): boolean {
  return NEGATIVE.test(text.replace(NOT_NEGATIVE, ' '));
}

/**
 * A word that starts what a bare line says about its command (`shows`, `matches`, `passes all
 * tests`): the command's own words end before it. Third-person forms only, which CLIs do not take
 * as plain arguments (`make build`, `npm test` keep theirs).
 */
const QUALIFIER_VERB = /\s+(?:shows?|returns?|prints?|outputs?|lists?|displays?|reports?|matches|contains|includes|equals|passes|succeeds|exits|completes|works|compiles|starts)(?=\s|[.,;:]?$)/;

const SUCCESS_VERB = /^\s+(?:passes|succeeds|exits|completes|works|compiles)$/;

/** Candidate command spellings of a bare line: `Label: cmd`, `Run cmd`, `cmd passes`. */
function bareCommand(line: string, ctx: CriteriaContext): { command: string; rest: string } | null {
  const candidates: Array<{ s: string; label: string }> = [{ s: line, label: '' }];
  // A label holds no quotes: in `.prettierrc contains "semi": true` the colon is the quoted text's.
  const label = /^([^:`$|&;"']{1,80}):\s+(.+)$/.exec(line);
  if (label) candidates.push({ s: label[2]!, label: label[1]! });
  // `cargo test - all existing tests pass`, `make lint — no warnings`: a dash between spaces,
  // then plain words, describes the command before it (tried first: the whole line would run
  // the description as arguments). An em or en dash is never an argument; a plain `-` is
  // (`cat - notes.txt`), so after it every word must be a plain word.
  for (const c of [...candidates]) {
    const dash = /\s+([-—–])\s+(?=\S)/.exec(c.s.replace(/"[^"]*"|'[^']*'/g, (q) => 'Q'.repeat(q.length)));
    if (!dash || dash.index === 0) continue;
    const said = c.s.slice(dash.index + dash[0].length);
    const ws = said.split(/\s+/);
    if (dash[1] === '-' && (ws.length < 2 || !ws.every((w) => /^\(?[A-Za-z][A-Za-z'’-]*\)?[.,;:!?)]*$/.test(w)))) continue;
    candidates.unshift({ s: c.s.slice(0, dash.index), label: `${c.label} ${said}` });
  }
  // `grep -c X file shows 3+ matches`, `grep "k = " f matches 'k = "3"'`, `npx vitest run passes all
  // tests`: the command, then what its output or status should be. The verb is found outside
  // quotes, so a quoted argument (`grep "returns" f`) stays whole.
  // Spellings that are a sentence about a program, not a command: `ctest reports 100% tests passed`.
  const sentencesAbout = new Set<{ s: string; label: string }>();
  for (const c of [...candidates]) {
    const output = QUALIFIER_VERB.exec(c.s.replace(/"[^"]*"|'[^']*'/g, (q) => 'Q'.repeat(q.length)));
    if (!output || output.index === 0) continue;
    const said = c.s.slice(output.index);
    // Only with arguments: `sum(2, 3) returns 5` and `ls returns nothing` are prose about values,
    // and so is the whole spelling when the verb goes on (`ctest reports 100% ...`): a verb in the
    // third person right after a program is English, not the program's argument.
    if (!/\S\s+\S/.test(c.s.slice(0, output.index).trim())) {
      if (/\S\s+\S/.test(said.trim())) sentencesAbout.add(c);
      continue;
    }
    // A success verb says nothing more than "it succeeds" (`passes all tests`, `exits 0 with no
    // errors`); `pip install completes for the new dependencies` names what the command leaves out.
    if (SUCCESS_VERB.test(output[0]) && hasNonFiller(said.replace(/\b(?:exit|code|status)\s+0\b/gi, ''))) continue;
    // `npm run dev starts, npm run build succeeds`: what is said runs into another command's clause,
    // which the clause reading of a <verify> line takes one by one.
    if (clausesOf(said).slice(1).some((clause) => installedProgram(clause, ctx.resolves))) continue;
    candidates.push({ s: c.s.slice(0, output.index), label: `${c.label} ${said}` });
  }
  // A quote left open at the end of the line (`python -c "` ...): the argument goes on over the
  // next lines, so the line alone is not the author's command.
  if (quoteAfter(line, null) !== null) return null;
  for (const c of candidates) {
    if (sentencesAbout.has(c)) continue;
    let s = c.s.trim();
    let rest = c.label;
    const verb = /^(?:then\s+|and\s+)?(?:run|running|execute|exec)\s*:?\s+/i.exec(s);
    if (verb) s = s.slice(verb[0].length);
    const first = /^\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*\(?([^\s()]+)(\s+\S)?/.exec(s);
    if (!first || !programResolves(first[1]!, first[2] !== undefined, ctx.resolves ?? NO_PROGRAMS)) continue;
    // An aside in parentheses and what is said of the command, in either order (`tox (all envs)
    // passes`, `make docs (dead links fail the job)`): an unquoted `(` after arguments is no shell's.
    for (let k = 0; k < 3; k++) {
      const paren = /\s+\(([^()]*)\)\s*\.?$/.exec(s);
      const t = paren ? null : TRAILING_SUCCESS.exec(s);
      const latin = paren || t ? null : latinSuccess(s);
      if (paren && !/[|&;$<>]/.test(paren[1]!) && paren.index > 0) {
        rest += ` ${paren[1]}`;
        s = s.slice(0, paren.index);
      } else if (t && t.index > 0) {
        rest += ` ${t[0]}`;
        s = s.slice(0, t.index);
      } else if (latin && latin.index > 0) {
        rest += ' passes'; // what the phrase says, in the words the rest of the reader knows
        s = s.slice(0, latin.index);
      } else break;
    }
    s = s.replace(/([^\s.])[.;,]\s*$/, '$1').trim(); // a sentence's end, not `docker build .`'s context
    if (looksLikeBareCommand(s, ctx.resolves)) return { command: s, rest };
  }
  return null;
}

export interface CriteriaContext {
  lines: LineIndex;
  /** Element name recorded as the checks' source (verify, done, verification, ...). */
  element: string;
  mode: CriteriaMode;
  /** Which program names resolve here (PATH, node_modules/.bin); builtins and paths always do. */
  resolves?: ProgramResolver;
  /** Inside `<automated>`: a backticked span is a check whether or not its program resolves. */
  explicit?: boolean;
  /** The prose line this one continues (a sentence wrapped before its first inline code). */
  wrappedFrom?: string;
}

/** One prose line (outside fences). `raw` is undecoded; `line` is its 1-based file line. */
/** Abbreviations whose period does not end a sentence. */
const ABBREVIATION = /(?:^|\s|\()(?:e\.g|i\.e|etc|vs|approx|incl|cf|no|min|max)$/i;

/**
 * The sentences of a line (`cmd succeeds. cmd2 prints "x".`), split at `.`, `!` or `?` ending
 * a word and followed by a space, outside inline code and double quotes; with inline code on
 * the line, also at `; ` (`\`a\` shows x; \`b\` returns 0`). `docker build .`, `ls ..`, `e.g.`,
 * `v1.2` and a period inside a quoted argument do not split.
 */
export function sentences(s: string, spans: Span[]): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  let span = 0;
  for (let i = 0; i < s.length; i++) {
    while (span < spans.length && spans[span]!.end <= i) span++;
    if (span < spans.length && spans[span]!.start <= i) {
      i = spans[span]!.end - 1;
      continue;
    }
    const c = s[i]!;
    if (c === '"') quoted = !quoted;
    if (quoted || !/\s/.test(s[i + 1] ?? '') || !/\S/.test(s.slice(i + 1))) continue;
    // `--project=.` and `src/.` name the directory `.`: no sentence ends there.
    const ends = /[.!?]/.test(c) && i > start && /[^\s.=/]/.test(s[i - 1]!) && !ABBREVIATION.test(s.slice(start, i));
    if (ends || (c === ';' && spans.length > 0)) {
      out.push(s.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  out.push(s.slice(start).trim());
  return out.filter((p) => p !== '');
}

/** One prose line (outside fences). `raw` is undecoded; `line` is its 1-based file line. */
function lineCriterion(raw: string, line: number, ctx: CriteriaContext): Criterion | null {
  const s = raw.replace(BULLET, '').replace(CHECKBOX_ONLY, '').trim();
  if (!s || /^#{1,6}\s/.test(s) || /^[-*_=]{3,}$/.test(s) || /^<\/?[A-Za-z][^>]*>$/.test(s)) return null;
  const source = { element: ctx.element, line };
  const decodedLine = decodeEntities(s).replace(/\*\*/g, '').trim();
  // "Optional: `cmd` (with a file changed)", "Optionally run `cmd`": a step the author leaves to
  // whoever wants it, not a criterion the work must meet.
  if (ctx.mode === 'manual' || OPTIONAL_STEP.test(decodedLine)) return { text: decodedLine, source, checks: [], named: [], manual: true };

  // "`src/a.ts` exists", "`src/a.ts` contains `x`": a file criterion, never a command.
  if (/exist|creat|present|contain|include/i.test(decodedLine)) {
    const exists = FILE_EXISTS.exec(decodedLine);
    const contains = exists ? null : FILE_CONTAINS.exec(decodedLine);
    const path = exists?.[1] ?? contains?.[1];
    if (path !== undefined) {
      // A bare file name (`OfflineBanner.tsx`) may live anywhere, and paths outside the
      // project (`../../etc/passwd`, `/etc/hosts`, `~/.x`) are not the loop's to read.
      if (!isProjectPath(path) || !path.includes('/')) return { text: decodedLine, source, checks: [], named: [], manual: true };
      const rel = path.replace(/^\.\//, '');
      const check: Check = exists ? { kind: 'file_exists', path: rel, source } : { kind: 'contains_text', path: rel, text: contains![2] ?? contains![3]!, source };
      return { text: decodedLine, source, checks: [check], named: [], manual: false };
    }
  }

  // Each sentence qualifies its own commands: "`a` succeeds. `b` returns 0." runs `a` only.
  const parts = sentences(s, s.includes('`') ? codeSpans(s) : []);
  if (parts.length === 1) return sentenceCriterion(s, decodedLine, source, ctx);
  const each = parts.map((p, i) => ({ p, c: sentenceCriterion(p, decodeEntities(p).replace(/\*\*/g, '').trim(), source, i === 0 ? ctx : { ...ctx, wrappedFrom: '' }, true) }));
  // "`bun test x.test.ts` runs; A tests PASS; the B test is RED (expected)": a sentence of its own
  // says a test fails now, so the command the line names is expected to exit non-zero.
  if (each.some(({ p, c }) => (c === null || c.checks.length === 0) && saysTestsFailNow(decodeEntities(p)))) {
    return { text: decodedLine, source, checks: [], named: [], manual: true };
  }
  const checks = each.flatMap(({ c }) => c?.checks ?? []);
  const named = [...new Set(each.flatMap(({ c }) => c?.named ?? []))];
  if (checks.length === 0 && named.length === 0) return sentenceCriterion(s, decodedLine, source, ctx);
  // Manual when a sentence that checks something leaves prose, or a sentence checks nothing but says something.
  const manual = each.some(({ p, c }) => (c && (c.checks.length > 0 || c.named.length > 0) ? c.manual : c !== null && hasNonFiller(decodeEntities(p))));
  return { text: decodedLine, source, checks, named, manual };
}

/**
 * What a line states holds, then the command that shows it: `` `.nvmrc` holds 22: `grep -qx 22 .nvmrc` ``,
 * `` history intact: `git log --oneline | grep -q init` (commit 2b7d87f) ``. The command ends the line
 * (an aside in parentheses may follow) and a colon ends the statement, which says something is
 * present or holds (contains, exists, intact, defined, ...) and nothing is removed or absent, so
 * `Legacy API removed: \`grep -r legacy src\`` (expects no match) and `Rollback: \`git reset\`` are not run.
 */
function isEvidence(s: string, commandSpans: Span[]): boolean {
  if (commandSpans.length !== 1) return false;
  const span = commandSpans[0]!;
  // (trimmed first: three `\s*` in a row backtrack cubically on a run of spaces)
  if (!/^(?:\([^()]*\))?\s*[.;]?$/.test(s.slice(span.end).trim())) return false;
  const before = s.slice(0, span.start);
  if (!/:\s*$/.test(before)) return false;
  const claim = decodeEntities(before.replace(/`[^`]*`/g, ' X ')).replace(/:\s*$/, '');
  return HOLDS.test(claim) && !GONE.test(claim) && !isNegative(claim);
}
const HOLDS = /\b(?:contains?|includes?|exists?|present|intact|matches|has|have|holds?|defined|exported|configured|valid|installed|pinned|registered|declared|enabled|imports?|loads?|compiles?|builds?|passes)\b/i;
const GONE = /\b(?:removed|deleted|gone|absent|dropped|missing|longer|without|nothing|never|revert\w*|rollback|undo)\b/i;

/** "Makefile has a target that runs `cmd`", "a hook which calls `cmd`": what another thing runs. */
const RUN_BY_ANOTHER = /\b(?:that|which)\s+(?:runs?|calls?|invokes?|executes?|wraps?|spawns?)\s*$/i;
/** "the hook leaves `git diff` clean", "keeps `git status` empty": the state another command leaves, named by a command. */
const LEFT_BY_ANOTHER = /\b(?:leaves?|leaving|left|keeps?|keeping|kept)\s*$/i;
/** "deploy.sh contains `git pull`", "both start with `#!/bin/bash` and `set -e`": text inside a file, not a command to run. */
const CONTENT_OF = /\b(?:contains?|containing|includes?|including|has|have|having|start(?:s|ing)?\s+with|begins?\s+with|ends?\s+with|mentions?|references?|declares?|defines?)\s+(?:(?:the|a|an)\s+)?(?:(?:line|lines|text|string|call|calls|command|commands|entry|entries|step|steps)\s+)?(?:X\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|&\s+|\/\s*))*$/i;
/**
 * "Do NOT run `terraform destroy`", "Never test against your real home: `x --force ~`": what the
 * author forbids, in the same clause as the command. Not "Don't run the whole suite, `npm run
 * test:unit` is enough" (a comma ends what is forbidden) nor "to avoid flaky runs, use `x`".
 */
const FORBIDS = /\b(?:do\s+not|don['’]t|never|must\s+not|mustn['’]t|should\s+not|shouldn['’]t|avoid\s+(?:running|calling|using|executing|invoking))\b[^.!?,;]*$/i;
/**
 * "`php artisan migrate:fresh` (DROPS ALL TABLES)", "`flyway clean` resets it (drops all objects)":
 * the rest of the command's clause says it destroys data. A verb alone is not enough: `./gradlew
 * clean build` (deletes build/ first) only clears build output.
 */
const DESTROYS = /\b(?:drops?|dropping|wipes?|wiping|deletes?|deleting|destroys?|destroying|erases?|erasing|truncates?|truncating|overwrites?|overwriting|nukes?)\b/i;
const DATA_AT_STAKE = /\b(?:all|every|everything|entire|whole|data|databases?|db|tables?|schemas?|records?|rows|volumes?|profiles?|uploads?|buckets?|namespaces?|users?|accounts?)\b/i;
/**
 * A command that is the author's step, never a check: a server or watcher (it would hold the loop),
 * or a command that publishes, deploys, or drops data (no restore undoes it; a loop would repeat it).
 */
const heldBack = (command: string): boolean => isLongRunning(command) || publishesOrDestroys(command);
/** Text with each backquoted span replaced by `X`: what the words around the spans say. */
const masked = (text: string): string => text.replace(/`[^`]*`/g, 'X');
/** "Run `npm install` to install Vitest": a step that sets something up, not a check of the work. */
const SETUP_PURPOSE = /^\s*to\s+(?:install|set\s+up|setup|create|generate|initiali[sz]e|download|bootstrap|scaffold|add|fetch|seed|populate|update|upgrade)\b/i;

/**
 * Removes, in place, the command spans of a line that are not checks the line asks for: a span
 * inside parentheses beside a command outside them describes that command (`make check` (go vet
 * + `go test ./...`) is green); a span another thing runs (`a target that runs \`go run ...\``)
 * or whose state another thing leaves (`the hook leaves \`git diff\` clean`); a span whose
 * purpose clause sets something up (`Run \`npm install\` to install Vitest`).
 */
function notChecks(s: string, spans: Span[], wrappedFrom = ''): void {
  const depth = (at: number) => {
    let d = 0;
    for (let i = 0; i < at; i++) {
      if (spans.some((sp) => sp.start <= i && i < sp.end)) continue;
      if (s[i] === '(') d++;
      else if (s[i] === ')') d = Math.max(0, d - 1);
    }
    return d;
  };
  const inParens = spans.map((sp) => depth(sp.start) > 0);
  const outside = inParens.some((p) => !p);
  const keep = spans.filter((sp, i) => {
    if (outside && inParens[i]) return false;
    // The words before the span, other spans standing as `X`.
    const lead = masked(s.slice(0, sp.start));
    // What a file holds: after "contains", "starts with", and the spans listed with them (`\`a\` and \`b\``).
    if (CONTENT_OF.test(lead)) return false;
    let before = s.slice(0, sp.start).replace(/`/g, '');
    // A sentence wrapped right before the span ("... and leaves" / "`git diff` clean"): its words are the previous line's.
    if (before.trim() === '' && wrappedFrom) before = wrappedFrom.replace(/`/g, '');
    if (RUN_BY_ANOTHER.test(before) || LEFT_BY_ANOTHER.test(before)) return false;
    if (FORBIDS.test(lead)) return false;
    const rest = masked(s.slice(sp.end)).split(/[;!?]|\.(?:\s|$)/)[0]!;
    if (DESTROYS.test(rest) && DATA_AT_STAKE.test(rest)) return false;
    if (SETUP_PURPOSE.test(s.slice(sp.end))) return false;
    return true;
  });
  spans.splice(0, spans.length, ...keep);
}

/**
 * The commands an `<action>` runs to set something up (`Run \`uv lock && uv sync\` to install the
 * new dependencies`): inline code followed by a purpose clause such as `to install`. A `<done>` that
 * then says "`uv sync` succeeds" reports that step, it does not ask for a check (see restated.ts).
 */
export function setupStepCommands(action: string, resolves: ProgramResolver = NO_PROGRAMS): string[] {
  const out: string[] = [];
  let fence = false;
  for (const raw of action.split('\n')) {
    if (/^\s*(`{3,}|~{3,})/.test(raw)) {
      fence = !fence;
      continue;
    }
    if (fence || !raw.includes('`')) continue;
    for (const span of codeSpans(raw)) {
      const content = decodeEntities(span.content).trim();
      if (SETUP_PURPOSE.test(raw.slice(span.end)) && looksLikeCodeCommand(content, resolves)) out.push(content);
    }
  }
  return out;
}

/** The criterion of one sentence of a line (the whole line when it is one sentence). */
function sentenceCriterion(s: string, decodedLine: string, source: { element: string; line: number }, ctx: CriteriaContext, inSentence = false): Criterion | null {
  const spans = s.includes('`') ? codeSpans(s) : [];
  const checks: Check[] = [];
  let manual = true;
  // Whether the line expects failure ("fails", "returns 0", "should not"): computed only
  // when something on the line could become a check, since most lines are plain prose.
  let negative: boolean | undefined;
  const isNeg = (text: string) => (negative ??= isNegative(text));

  // The line without its command spans: what qualifies them ("passes", "shows 3 matches", "fails").
  let remainder = decodedLine;
  const commandSpans: Span[] = [];
  for (const span of spans) {
    const content = decodeEntities(span.content).trim();
    if (ctx.explicit ? looksLikeExplicitCommand(content) && !/\n/.test(content) : looksLikeCodeCommand(content, ctx.resolves)) commandSpans.push({ ...span, content });
  }
  notChecks(s, commandSpans, ctx.wrappedFrom);
  // `grep "x"` with no file (and no -r) reads stdin, which a check does not have: a mention of
  // the pattern, not the author's command.
  // `git log --oneline a..b | wc -l` prints 1: the count is the verdict, and the status is 0
  // whatever it comes to. Like a filter given no input, what the line names, not a check.
  const noInput = commandSpans.filter((span) => readsNoInput(span.content) || countSaid(span.content, s));
  if (noInput.length > 0) commandSpans.splice(0, commandSpans.length, ...commandSpans.filter((span) => !noInput.includes(span)));
  if (commandSpans.length > 0) {
    remainder = '';
    let last = 0;
    for (const span of commandSpans) {
      remainder += `${s.slice(last, span.start)} `;
      last = span.end;
    }
    remainder = decodeEntities(remainder + s.slice(last)).replace(/`/g, '');
    // "Manual smoke test: `... | cargo run` -- verify data displays correctly": a person runs it.
    // "Run a worker locally to see it process: `...`": a person runs it to watch what happens.
    const byHand = /\bmanual(?:ly)?\b|\bby\s+hand\b|\bvisual(?:ly)?\b|\beyeball/i.test(remainder) || TO_WATCH.test(remainder);
    // A criterion that is nothing but the command (and an aside in parentheses) asks for it to succeed.
    const onlyCommand = remainder.replace(/\([^()]*\)/g, '').replace(/[\s.,;:—–-]+/g, '') === '';
    // "`make` in src-c/", "`cargo build` inside \`src-rust/\`": the author runs it in another directory.
    const elsewhere = commandSpans.some((span) => IN_DIRECTORY.test(s.slice(span.end)));
    // `grep -rn "from x" src` — no importers: a search said to find no X expects no match.
    const findsNone = commandSpans.every((span) => isSearch(span.content)) && SEARCH_FINDS_NONE.test(remainder.replace(NOT_NEGATIVE, ' '));
    const acceptInline = !byHand && !elsewhere && !findsNone && !isNeg(remainder) && (ctx.mode === 'verify' || onlyCommand || RUN_OR_SUCCESS.test(remainder) || latinSuccess(remainder) !== null || isEvidence(s, commandSpans));
    // "`uv run uvicorn app:app` starts without errors": the author says it starts a process.
    // "`./gradlew bootRun` then GET http://localhost:8080/health": the line probes what the command starts.
    const startsSomething = STARTS.test(remainder) || LOCAL_URL.test(remainder);
    let held = false;
    if (acceptInline) {
      for (const span of commandSpans) {
        const single = !/\s/.test(span.content);
        if (single && hasNonFiller(remainder)) continue; // `vitest` mentioned, not run
        // A server, a watcher, a publish or a drop is the author's manual step; so is what the
        // same sentence does after it (`\`ef database drop\` then \`ef database update\``).
        if (held || heldBack(span.content) || startsSomething) held = true;
        else checks.push({ kind: 'command_succeeds', command: span.content, source });
      }
    }
    manual = !acceptInline || held || hasNonFiller(remainder);
  } else if (noInput.length > 0) {
    manual = true;
  } else if (spans.length === 0) {
    const bare = bareCommand(decodedLine, ctx);
    // A quoted argument is the command's own (`grep -E "passed|failed"`), not what the line says of it.
    if (bare && !countSaid(bare.command, bare.rest) && !isNeg(decodedLine.replace(/"[^"]*"|'[^']*'|(?<!\S)--?[A-Za-z][\w-]*(?:=\S*)?/g, 'Q')) && !readsNoInput(bare.command) && !(isSearch(bare.command) && SEARCH_FINDS_NONE.test(bare.rest.replace(NOT_NEGATIVE, ' ')))) {
      // Among other sentences, a lone program name (`tsc passes.`) is a mention, a command has
      // arguments; outside a <verify>, the sentence must also say it succeeds (`cmd exits 0.`).
      const mention = inSentence && (!/\S\s+\S/.test(bare.command) || (ctx.mode !== 'verify' && !RUN_OR_SUCCESS.test(bare.rest)));
      if (!heldBack(bare.command) && !STARTS.test(bare.rest) && !LOCAL_URL.test(bare.rest) && !mention) {
        checks.push({ kind: 'command_succeeds', command: bare.command, source });
        remainder = bare.rest;
        manual = hasNonFiller(bare.rest);
      }
    } else if (!bare && ctx.mode === 'verify') {
      // "cmd passes, other-cmd opens the browser": in a <verify>, clauses at `, ` or `; `
      // (outside quotes and parentheses), when the whole line is not one command. A clause
      // counts only when an installed program (not a builtin or a path) with arguments is
      // followed by words that say it succeeds (`passes`, `exits 0`).
      const clauses = clausesOf(decodedLine).flatMap((clause) => andClauses(clause, ctx.resolves));
      if (clauses.length > 1) {
        const rests: string[] = [];
        for (const clause of clauses) {
          const b = !isNegative(clause) && installedProgram(clause, ctx.resolves) ? bareCommand(clause, ctx) : null;
          if (b && /\S\s+\S/.test(b.command) && RUN_OR_SUCCESS.test(b.rest) && !heldBack(b.command) && !STARTS.test(b.rest)) {
            checks.push({ kind: 'command_succeeds', command: b.command, source });
            rests.push(b.rest);
          } else rests.push(clause);
        }
        if (checks.length > 0) {
          remainder = rests.join(' ');
          manual = hasNonFiller(remainder);
        }
      }
    }
  }

  const namedText = checks.length > 0 ? remainder : decodedLine;
  const named = NAMED_HINT.test(namedText) && !isNeg(commandSpans.length > 0 ? remainder : decodedLine) ? namedKinds(namedText) : [];
  if (checks.length === 0 && named.length === 0 && /:\s*$/.test(decodedLine)) return null; // a label such as "Before declaring plan complete:"
  if (checks.length === 0 && named.length > 0 && !hasNonFiller(decodedLine.replace(/\b(?:tests?|suite|specs?|cases|type|lint|no|typescript|tsc|errors?|pass\w*|compil\w*)\b/gi, ''))) manual = false;
  return { text: decodedLine, source, checks, named, manual };
}

/**
 * A check the plan says fails now (a TDD RED step, `# must fail`): shown to the agent as what to
 * confirm by hand, never run as a check that must pass, and never looped on. A loop drives work
 * toward checks that pass; "make this fail" is met by any broken command, so its exit proves nothing.
 */
export function expectedFailure(command: string, source: { element: string; line: number }): Criterion {
  return { text: `expected to fail now, by the plan (not run as a check): ${command}`, source, checks: [], named: [], manual: true, expects_failure: true };
}

/**
 * The script of a shell fence, as the author would paste it into a terminal: the whole body
 * (heredocs, `cd`, functions, multi-line `if` intact), with `$ ` prompts stripped and output
 * lines dropped in session fences (`console`, or a fence whose first line carries a prompt). A fence without a language counts only when every logical line is a command.
 * Returns null when nothing in it would run.
 */
function fenceScript(body: Array<{ text: string; line: number }>, lang: string, resolves: ProgramResolver): { script: string; line: number; lines: Array<{ text: string; line: number }> } | null {
  const lines = body.map((b) => ({ text: decodeEntities(b.text), line: b.line }));
  const meaningful = lines.filter((l) => l.text.trim() !== '' && !l.text.trim().startsWith('#'));
  if (meaningful.length === 0) return null;
  // A session pasted from a terminal: its first line carries a `$ ` prompt (no script starts
  // with one), and the lines without a prompt are what the commands printed.
  const prompted = PROMPT_LANGS.has(lang) || /^\s*\$\s/.test(meaningful[0]!.text);
  let kept = lines;
  if (prompted) {
    kept = [];
    let continued = false;
    for (const l of lines) {
      const t = l.text.trim();
      if (/^\$\s/.test(t)) kept.push({ text: t.replace(/^\$\s+/, ''), line: l.line });
      else if (continued && t !== '') kept.push({ text: t.replace(/^>\s?/, ''), line: l.line });
      else continue;
      continued = /(?:\\|&&|\|\||\|)\s*$/.test(t) || /<<-?\s*['"]?\w+/.test(t);
    }
  }
  while (kept.length > 0 && kept[0]!.text.trim() === '') kept = kept.slice(1);
  const script = kept.map((l) => l.text).join('\n').replace(/\s+$/, '');
  if (!script.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#'))) return null;
  if (lang === '') {
    // Any language could be in an unlabeled fence: every logical line must read as a command.
    const logical = script.replace(/\\\n\s*/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
    if (!logical.every((l) => looksLikeCodeCommand(l.replace(/\s*(?:&&|\|\||\|)$/, ''), resolves))) return null;
  }
  return { script, line: kept[0]!.line, lines: kept };
}

/** Commands that change what the lines after them see: the directory, variables, options, traps. */
const STATEFUL = new Set(['cd', 'pushd', 'popd', 'export', 'source', '.', 'set', 'unset', 'alias', 'unalias', 'shopt', 'trap', 'umask', 'ulimit', 'declare', 'local', 'readonly', 'typeset', 'eval', 'exec']);
/** A line that opens or closes a compound command spanning lines, or defines a function. */
const COMPOUND_LINE = /^(?:if|then|else|elif|fi|for|while|until|do|done|case|esac|function|select|\{|\}|\(|\))(?:\s|;|$)|^[A-Za-z_][\w-]*\s*\(\)|(?:\{|\bdo|\bthen)\s*$/;

/**
 * A fence whose every line starts with its own `cd` into a relative directory
 * (`cd backend && python -c ...`, then `cd frontend && npm run build`): each line is meant to run
 * from the project root. As one script the second `cd` would start inside `backend/` and fail
 * whatever the code does, so such a fence is one check per line. Nothing else is split (a fence is
 * one script, #13): not a heredoc, a compound command over several lines, a line left in the
 * background, nor a line that sets state for the next (`export`, an assignment, `set -e`, a `cd`
 * alone). Each part keeps the comments written with it (the lines just before it and its own
 * trailing comment). Otherwise null.
 */
function independentLines(lines: Array<{ text: string; line: number }>): Array<{ text: string; line: number; before: string[]; own: string[] }> | null {
  const parts: Array<{ text: string; line: number; before: string[]; own: string[] }> = [];
  let pending: string[] = [];
  let current: { text: string[]; line: number; before: string[] } | null = null;
  let quote: QuoteState = null;
  for (const l of lines) {
    const t = l.text.trim();
    if (current) {
      current.text.push(l.text);
      quote = quoteAfter(l.text, quote);
    } else {
      if (t === '') continue;
      if (t.startsWith('#')) {
        pending.push(t);
        continue;
      }
      current = { text: [l.text], line: l.line, before: pending };
      pending = [];
      quote = quoteAfter(l.text, null);
    }
    if (quote === null && !/(?:\\|&&|\|\||\|)\s*$/.test(t)) {
      parts.push({ text: current.text.join('\n'), line: current.line, before: current.before, own: [] });
      current = null;
    }
  }
  if (current || parts.length < 2) return null;
  // A comment after the last command is about it.
  parts[parts.length - 1]!.own.push(...pending);
  for (const p of parts) {
    const flat = p.text.replace(/\\\n\s*/g, ' ').trim();
    if (/<<-?\s*['"]?\w/.test(flat) || COMPOUND_LINE.test(flat) || /(?:^|[^&])&\s*(?:#.*)?$/.test(flat)) return null;
    if (/^[A-Za-z_][A-Za-z0-9_]*=\S*\s*(?:#.*)?$/.test(flat)) return null; // `FOO=bar` alone sets a variable for the lines after it
    const tokens = shellTokens(flat);
    if (!tokens) return null;
    const commands = simpleCommands(tokens);
    if (commands.length === 0) return null;
    // Each line starts with its own `cd` into a relative directory, and goes on after it.
    const first = commands[0]!;
    if (!(first.program === 'cd' || first.program === 'pushd') || commands.length === 1 || !isRelativeDir(first.args[0])) return null;
    if (commands.some((c, i) => i > 0 && STATEFUL.has(c.program))) return null;
    const trailing = /\s#[^'"`]*$/.exec(flat);
    if (trailing) p.own.push(trailing[0].trim());
  }
  return parts;
}

/** `backend`, `./web`, `apps/api`: not `/srv/app`, `~`, `$HOME/x`, `C:/x`, `-`. */
function isRelativeDir(dir: string | undefined): boolean {
  return dir !== undefined && !/^(?:\/|~|\$|[A-Za-z]:[\\/]|-$)/.test(dir);
}

/**
 * Criteria from `text[start, end)`. `exclude` ranges (child elements handled separately,
 * such as `<automated>`) are blanked first; offsets and lines stay those of the file.
 */
export function criteriaFromRange(text: string, start: number, end: number, ctx: CriteriaContext, exclude: Array<[number, number]> = []): Criterion[] {
  let body = text.slice(start, end);
  if (exclude.length > 0) {
    // One pass, so a <verify> with thousands of <automated> children stays linear.
    const parts: string[] = [];
    let at = 0;
    for (const [a, b] of [...exclude].sort((x, y) => x[0] - y[0])) {
      const from = Math.max(a - start, at);
      const to = Math.min(b, end) - start;
      if (to <= from) continue;
      parts.push(body.slice(at, from), body.slice(from, to).replace(/[^\n]/g, ' '));
      at = to;
    }
    parts.push(body.slice(at));
    body = parts.join('');
  }
  const out: Criterion[] = [];
  let line = ctx.lines.lineAt(start);
  // Under a heading or label that says the steps are a person's ("Manual testing checklist:",
  // "### Visual check"), every prose line is manual until the next heading or label (list items
  // that end in a colon are sub-steps, not labels). A shell fence there is still a script the
  // author wrote out to run.
  let byHand = false;
  const lineCtx = () => (byHand ? { ...ctx, mode: 'manual' as const } : ctx);
  let fence: { marker: string; lang: string; body: Array<{ text: string; line: number }>; line: number } | null = null;
  // The previous prose line of the paragraph, for a sentence wrapped onto the next line.
  let prose = '';
  const flushFence = () => {
    if (!fence) return;
    const script = ctx.mode !== 'manual' && SHELL_LANGS.has(fence.lang) ? fenceScript(fence.body, fence.lang, ctx.resolves ?? NO_PROGRAMS) : null;
    const parts = script ? independentLines(script.lines) : null;
    if (script && parts) {
      // Lines that each `cd` from the project root: one check each. A comment beside or just
      // before a line that expects nothing (`# expect 0`) keeps that line, and the line before it
      // (the comment may close it), from running as a success check.
      const expects = (cs: string[]) => cs.some((c) => EXPECTS_NOTHING.test(c));
      for (const [i, p] of parts.entries()) {
        const source = { element: ctx.element, line: p.line };
        const quiet = expects(p.before) || expects(p.own) || (i + 1 < parts.length && expects(parts[i + 1]!.before));
        if (heldBack(p.text) || quiet) out.push({ text: p.text, source, checks: [], named: [], manual: true });
        else out.push({ text: p.text, source, checks: [{ kind: 'command_succeeds', command: p.text, source }], named: [], manual: false });
      }
    } else if (script) {
      const source = { element: ctx.element, line: script.line };
      // A server or watcher, or comments that expect failure or no output (`# must be empty`):
      // the author's steps to follow by hand, not one script that must exit 0.
      const comments = script.script.match(/(?:^|\s)#.*$/gm) ?? [];
      if (heldBack(script.script) || comments.some((c) => EXPECTS_NOTHING.test(c))) out.push({ text: script.script, source, checks: [], named: [], manual: true });
      else out.push({ text: script.script, source, checks: [{ kind: 'command_succeeds', command: script.script, source }], named: [], manual: false });
    }
    fence = null;
  };
  // A shell session written out of a fence (`$ go test ./x`, then what it printed): the prompt
  // marks the command, and the lines after it, up to a blank line or the next prompt, are output.
  let sessionOutput = false;
  // Bare command lines in a row, held until the run ends: one script when a line carries state to
  // the next (a `cd` alone, an `export`, an assignment), else each line on its own, as before.
  let run: Array<{ raw: string; line: number }> = [];
  const proseLine = (raw: string, at: number) => {
    const t = raw.trim().replace(/\*\*|__/g, '');
    if (/^#{1,6}\s/.test(t) || (!BULLET.test(raw) && !t.includes('`') && /^[^:]{1,80}:$/.test(t))) byHand = BY_HAND_LABEL.test(t);
    // A line that continues the previous one's sentence (no bullet here, no sentence end there).
    const wraps = prose !== '' && !BULLET.test(raw) && !/[.:;!?]\s*$/.test(prose) && !/^#{1,6}\s/.test(prose.trim());
    const c = lineCriterion(raw, at, wraps ? { ...lineCtx(), wrappedFrom: prose } : lineCtx());
    if (c) out.push(c);
    prose = t === '' || /^<\/?[A-Za-z][^>]*>$/.test(t) ? '' : raw;
  };
  const flushRun = () => {
    const lines = run;
    run = [];
    if (lines.length >= 2 && lines.slice(0, -1).some((l) => carriesState(l.raw.trim()))) {
      const script = lines.map((l) => l.raw.trim()).join('\n');
      const source = { element: ctx.element, line: lines[0]!.line };
      out.push(heldBack(script) ? { text: script, source, checks: [], named: [], manual: true } : { text: script, source, checks: [{ kind: 'command_succeeds', command: script, source }], named: [], manual: false });
      prose = '';
    } else for (const l of lines) proseLine(l.raw, l.line);
  };
  for (const raw of body.split('\n')) {
    const f = /^\s*(`{3,}|~{3,})\s*([\w+-]*)/.exec(raw);
    const prompt = fence ? null : /^\s*\$\s+(\S.*)$/.exec(raw);
    if (!fence && !prompt && run.length > 0 && !(ctx.mode !== 'manual' && wholeCommandLine(raw, ctx.resolves))) flushRun();
    if (fence) {
      prose = '';
      if (f && f[1]![0] === fence.marker[0] && f[1]!.length >= fence.marker.length && raw.trim() === f[1]) flushFence();
      else fence.body.push({ text: raw, line });
    } else if (f && !(f[1]![0] === '`' && raw.slice(raw.indexOf(f[1]!) + f[1]!.length).includes('`'))) {
      sessionOutput = false;
      fence = { marker: f[1]!, lang: (f[2] ?? '').toLowerCase(), body: [], line };
    } else if (prompt && ctx.mode !== 'manual' && promptedCommand(prompt[1]!, ctx.resolves)) {
      flushRun();
      const command = prompt[1]!.trim();
      const source = { element: ctx.element, line };
      out.push(heldBack(command) ? { text: command, source, checks: [], named: [], manual: true } : { text: command, source, checks: [{ kind: 'command_succeeds', command, source }], named: [], manual: false });
      sessionOutput = true;
      prose = '';
    } else if (sessionOutput && raw.trim() !== '') {
      // what the command printed
    } else if (ctx.mode !== 'manual' && wholeCommandLine(raw, ctx.resolves)) {
      sessionOutput = false;
      run.push({ raw, line });
    } else {
      sessionOutput = false;
      proseLine(raw, line);
    }
    line++;
  }
  flushRun();
  flushFence();
  return out;
}

/** After a `$ ` prompt: a command whose first program resolves here (a builtin such as `cd` too). */
function promptedCommand(text: string, resolves: ProgramResolver | undefined): boolean {
  const first = firstProgram(text);
  return first !== null && programResolves(first.program, first.args.length > 0, resolves ?? NO_PROGRAMS);
}

/** A line that is nothing but a command (no bullet, no inline code, no words about it): `cd web`, `npm test`. */
function wholeCommandLine(raw: string, resolves: ProgramResolver | undefined): boolean {
  const t = raw.trim();
  return t !== '' && !BULLET.test(raw) && !t.includes('`') && looksLikeBareCommand(t, resolves ?? NO_PROGRAMS);
}

/** A line that changes what the next lines see: a `cd`, `export` or `source` (alone), or an assignment alone. */
function carriesState(t: string): boolean {
  const first = t.split(/\s+/)[0]!;
  return (STATEFUL.has(first) && !/&&|\|\||;/.test(t)) || /^[A-Za-z_][A-Za-z0-9_]*=\S*$/.test(t);
}

/** The line starts with an installed program (not a builtin such as `test`, which also reads as English). */
function installedProgram(line: string, resolves: ProgramResolver | undefined): boolean {
  const first = firstProgram(line);
  return first !== null && !SHELL_BUILTINS.has(first.program) && programResolves(first.program, first.args.length > 0, resolves ?? NO_PROGRAMS);
}

type QuoteState = '"' | "'" | null;

/** The quote still open at the end of a shell line that starts inside `state` (a `#` comment ends the line). */
function quoteAfter(line: string, state: QuoteState): QuoteState {
  let q = state;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (q === null) {
      if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return null;
      if (c === '\\') i++;
      else if (c === '"' || c === "'") q = c;
    } else if (q === '"' && c === '\\') i++;
    else if (c === q) q = null;
  }
  return q;
}

/**
 * `go build ./... succeeds and go vet ./x/... reports nothing`: a clause split again at each ` and `
 * (outside quotes) that an installed program follows; `a and b` where `b` is no program stays whole.
 */
function andClauses(clause: string, resolves: ProgramResolver | undefined): string[] {
  const masked = clause.replace(/"[^"]*"|'[^']*'|`[^`]*`/g, (q) => 'Q'.repeat(q.length));
  const out: string[] = [];
  let start = 0;
  for (const m of masked.matchAll(/\s+and\s+/g)) {
    const next = clause.slice(m.index! + m[0].length);
    if (!installedProgram(next, resolves)) continue;
    out.push(clause.slice(start, m.index).trim());
    start = m.index! + m[0].length;
  }
  out.push(clause.slice(start).trim());
  return out.filter((c) => c !== '');
}

/** A line's clauses at `, ` and `; ` outside quotes and parentheses. */
function clausesOf(line: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if ((c === ',' || c === ';') && depth === 0 && /\s/.test(line[i + 1] ?? '')) {
      out.push(line.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(line.slice(start).trim());
  return out.filter((c) => c !== '');
}

/**
 * A script line that is a label and then the command (`TypeScript 编译检查: npx tsc --noEmit`,
 * `Lint: npm run lint`): the command alone, as the author wrote it after the label. A label has no
 * quotes or shell syntax and its first word is not a program here; the command's first word is.
 * Anything else is returned unchanged (`echo "a: b"`, `zig build: x` stay whole).
 */
function withoutLabel(line: string, resolves: ProgramResolver): string {
  const m = /^(\s*)([^:：`$|&;<>"'=(){}[\]\\]{1,80}?)[:：]\s+(\S.*)$/.exec(line);
  if (!m) return line;
  const label = firstProgram(m[2]!);
  if (label === null || programResolves(label.program, label.args.length > 0, resolves)) return line;
  const command = firstProgram(m[3]!);
  if (command === null || !programResolves(command.program, command.args.length > 0, resolves)) return line;
  return m[1]! + m[3]!;
}

/**
 * A line that is a label and then a sentence (`RED BRANCH: record the digest; revert the line; re-run
 * the gate; restore.`): instructions for a person, even with `;` between them. The label's first word
 * is no program here and what follows it reads as English.
 */
function labelledSentence(line: string, resolves: ProgramResolver): boolean {
  const m = /^([^:：`$|&;<>"'=(){}[\]\\]{1,60}?)[:：]\s+(\S.*)$/.exec(line);
  if (!m) return false;
  const label = firstProgram(m[1]!);
  if (label === null || programResolves(label.program, label.args.length > 0, resolves)) return false;
  const rest = m[2]!;
  return isSentence(rest) && !installedProgram(rest, resolves);
}

/** Heredoc terminators opened on a line (`<<'PY'`, `<<-EOF`, `<< "END"`). */
function heredocs(line: string): string[] {
  return [...line.matchAll(/<<-?\s*(['"]?)([A-Za-z_][\w]*)\1/g)].map((m) => m[2]!);
}

/**
 * The criteria of one `<automated>` element. Its content is meant to be run, as ONE script
 * (all lines, heredocs and `cd` included), unless it is a placeholder (`MISSING — ...`), a
 * sentence, or prose that names commands in backticks (each span is then a check, installed
 * or not). Sentence lines outside heredocs in a multi-line script are criteria of their own.
 */
export function automatedCriteria(text: string, start: number, end: number, ctx: CriteriaContext): Criterion[] {
  const raw = text.slice(start, end);
  if (/^\s*(`{3,}|~{3,})/m.test(raw)) return criteriaFromRange(text, start, end, { ...ctx, mode: 'verify' });
  const firstLine = ctx.lines.lineAt(start);
  const rawLines = raw.split('\n');
  // Where the content starts (its first non-blank line).
  let lead = 0;
  while (lead < rawLines.length && rawLines[lead]!.trim() === '') lead++;
  const body = rawLines.slice(lead).map((l) => decodeEntities(l));
  const whole = body.join('\n').trim();
  if (!whole) return [];
  const at = firstLine + lead;
  const source = { element: ctx.element, line: at };
  if (isPlaceholder(whole) || isTemplateSlot(whole, ctx.resolves)) return [{ text: whole.split('\n')[0]!, source, checks: [], named: [], manual: true, placeholder: true }];
  if (!body.some((l) => /`[^`]+`/.test(l)) || /^\s*[^`\s]/.test(whole) && !isSentence(whole.split('\n')[0]!.replace(/`/g, ''))) {
    // A script, unless it is prose: split sentence lines (outside heredocs) out as criteria.
    const out: Criterion[] = [];
    const script: string[] = [];
    let open: string[] = [];
    let quote: QuoteState = null;
    for (const [i, l] of body.entries()) {
      const t = l.trim();
      if (open.length > 0) {
        script.push(l);
        if (t === open[0]) open = open.slice(1);
        continue;
      }
      if (quote !== null) {
        // Inside a quoted argument that spans lines (`python -c "` ... `"`): script, whatever it reads like.
        script.push(l);
        quote = quoteAfter(l, quote);
        continue;
      }
      const continued = i > 0 && /(?:\\|&&|\|\||\|)\s*$/.test(body[i - 1]!.trim());
      if (!continued && t !== '' && !t.startsWith('#') && ((isSentence(t) && !hasShellSyntax(t) && !installedProgram(t, ctx.resolves)) || labelledSentence(t, ctx.resolves ?? NO_PROGRAMS))) {
        const c = lineCriterion(t, at + i, { ...ctx, mode: 'verify', explicit: true });
        if (c) out.push(c);
        script.push('');
        continue;
      }
      const cmd = continued ? l : withoutLabel(l, ctx.resolves ?? NO_PROGRAMS);
      script.push(cmd);
      open.push(...heredocs(cmd));
      quote = quoteAfter(cmd, null);
    }
    const runnable = script.join('\n').trim();
    if (runnable && looksLikeExplicitCommand(runnable, ctx.resolves)) {
      let skip = 0;
      while (script[skip]!.trim() === '') skip++;
      const src = { element: ctx.element, line: at + skip };
      const comments = runnable.match(/(?:^|\s)#.*$/gm) ?? [];
      // A server in the foreground would hold the loop until the timeout: shown, not run.
      if (heldBack(runnable)) out.unshift({ text: runnable, source: src, checks: [], named: [], manual: true });
      // `pytest tests/test_x.py  # MUST FAIL (RED)`: the author expects it to fail now.
      else if (comments.some((c) => EXPECTS_NOTHING.test(c))) out.unshift(expectedFailure(runnable, src));
      else out.unshift({ text: runnable, source: src, checks: [{ kind: 'command_succeeds', command: runnable, source: src }], named: [], manual: false });
    } else if (runnable) {
      const c = lineCriterion(runnable, at, { ...ctx, mode: 'verify' });
      if (c) out.unshift(c);
    }
    return out;
  }
  // Prose naming commands: every backticked span is a check (installed or not).
  const out: Criterion[] = [];
  for (const [i, l] of body.entries()) {
    const c = lineCriterion(l, at + i, { ...ctx, mode: 'verify', explicit: true });
    if (c) out.push(c);
  }
  return out;
}
