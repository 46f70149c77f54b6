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
import { isPlaceholder, isProjectPath, looksLikeBareCommand, looksLikeCodeCommand, looksLikeExplicitCommand, startsWithProgram } from './command-like.js';

/** How much a line of this element is trusted to mean "run this". */
export type CriteriaMode = 'verify' | 'done' | 'manual';

const SHELL_LANGS = new Set(['', 'bash', 'sh', 'shell', 'zsh', 'fish', 'console', 'shell-session', 'sh-session', 'terminal', 'cmd', 'bat', 'powershell', 'pwsh', 'ps1', 'ps']);
const PROMPT_LANGS = new Set(['console', 'shell-session', 'sh-session', 'terminal']);

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
const NOT_NEGATIVE = /\b(?:no|without|zero|0)\s+(?:new\s+)?(?:fail\w*|errors?|warnings?|regressions?|issues|problems)\b/gi;
const NEGATIVE =
  /\b(?:fail|fails|failing|failed|red)\b|\bnon-?zero\b|\bexits?\s+(?:with\s+)?(?:code\s+|status\s+)?[1-9]|\b(?:zero|no|0|none)\s+(?:lines?|matches|results?|output|occurrences|hits)\b|\breturns?\s+(?:nothing|no\s|empty)|\bmatch(?:es)?\s+(?:zero|no|0)\b|\b(?:should|must)\s+not\b|\bnot\s+(?:found|present|exist)|\bdoes\s*n[o']t\s+(?:match|exist|contain|find)|\bempty\b|\bno\s+such\s+file\b|\b(?:returns?|outputs?|prints?|shows?|yields?|gives?|reports?|counts?|equals?)\s+(?:exactly\s+)?(?:0|zero|nothing|none)\b/i;
const RUN_OR_SUCCESS = /\b(?:run|runs|running|ran|pass|passes|passing|passed|succeed|succeeds|success|successful|successfully|exit|exits|green|compiles?|builds?|works?|ok|clean)\b/i;

const TRAILING_SUCCESS =
  /\s*(?:[-—–:,]\s*)?(?:(?:and\s+)?(?:all|both)\s+)?(?:passes|succeeds|is\s+green|exits?(?:\s+with)?(?:\s+code|\s+status)?\s+0|returns?\s+0|completes(?:\s+successfully)?|runs(?:\s+successfully|\s+cleanly|\s+without\s+errors)?|works|(?:compiles|builds)(?:\s+successfully|\s+cleanly|\s+without\s+(?:any\s+)?errors)?|exists|exist|without\s+(?:any\s+)?errors|with\s+no\s+errors|cleanly|successfully|(?:should|must|will)\s+(?:pass|succeed|exit\s+0))\s*\.?$/i;

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

interface Span {
  start: number;
  end: number;
  content: string;
}

/** Inline code spans on one line (backtick runs of equal length). */
function codeSpans(line: string): Span[] {
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

function isNegative(text: string): boolean {
  return NEGATIVE.test(text.replace(NOT_NEGATIVE, ' '));
}

/** Candidate command spellings of a bare line: `Label: cmd`, `Run cmd`, `cmd passes`. */
function bareCommand(line: string): { command: string; rest: string } | null {
  const candidates: Array<{ s: string; label: string }> = [{ s: line, label: '' }];
  const label = /^([^:`$|&;]{1,80}):\s+(.+)$/.exec(line);
  if (label) candidates.push({ s: label[2]!, label: label[1]! });
  // `grep -c X file shows 3+ matches`: the command, then what its output should say.
  for (const c of [...candidates]) {
    const output = /\s+(?:shows?|returns?|prints?|outputs?|lists?|displays?|reports?)\s+/.exec(c.s);
    if (output && output.index > 0) candidates.push({ s: c.s.slice(0, output.index), label: `${c.label} ${c.s.slice(output.index)}` });
  }
  for (const c of candidates) {
    let s = c.s.trim();
    let rest = c.label;
    const verb = /^(?:then\s+|and\s+)?(?:run|running|execute|exec)\s*:?\s+/i.exec(s);
    if (verb) s = s.slice(verb[0].length);
    if (!startsWithProgram(s)) continue;
    const paren = /\s+\(([^()]*)\)\s*\.?$/.exec(s);
    if (paren && !/[|&;$<>]/.test(paren[1]!)) {
      rest += ` ${paren[1]}`;
      s = s.slice(0, paren.index);
    }
    for (let k = 0; k < 2; k++) {
      const t = TRAILING_SUCCESS.exec(s);
      if (!t || t.index === 0) break;
      rest += ` ${t[0]}`;
      s = s.slice(0, t.index);
    }
    s = s.replace(/[.;,]\s*$/, '').trim();
    if (looksLikeBareCommand(s)) return { command: s, rest };
  }
  return null;
}

export interface CriteriaContext {
  lines: LineIndex;
  /** Element name recorded as the checks' source (verify, done, verification, ...). */
  element: string;
  mode: CriteriaMode;
}

/** One prose line (outside fences). `raw` is undecoded; `line` is its 1-based file line. */
function lineCriterion(raw: string, line: number, ctx: CriteriaContext): Criterion | null {
  let s = raw.replace(BULLET, '').replace(CHECKBOX_ONLY, '').trim();
  if (!s || /^#{1,6}\s/.test(s) || /^[-*_=]{3,}$/.test(s) || /^<\/?[A-Za-z][^>]*>$/.test(s)) return null;
  const source = { element: ctx.element, line };
  const decodedLine = decodeEntities(s).replace(/\*\*/g, '').trim();
  if (ctx.mode === 'manual') return { text: decodedLine, source, checks: [], named: [], manual: true };

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
    if (looksLikeCodeCommand(content)) commandSpans.push({ ...span, content });
  }
  if (commandSpans.length > 0) {
    remainder = '';
    let last = 0;
    for (const span of commandSpans) {
      remainder += `${s.slice(last, span.start)} `;
      last = span.end;
    }
    remainder = decodeEntities(remainder + s.slice(last)).replace(/`/g, '');
    const acceptInline = !isNeg(remainder) && (ctx.mode === 'verify' || RUN_OR_SUCCESS.test(remainder));
    if (acceptInline) {
      for (const span of commandSpans) {
        const single = !/\s/.test(span.content);
        if (single && hasNonFiller(remainder)) continue; // `vitest` mentioned, not run
        checks.push({ kind: 'command_succeeds', command: span.content, source });
      }
    }
    manual = !acceptInline || hasNonFiller(remainder);
  } else if (spans.length === 0) {
    const bare = bareCommand(decodedLine);
    if (bare && !isNeg(decodedLine)) {
      checks.push({ kind: 'command_succeeds', command: bare.command, source });
      remainder = bare.rest;
      manual = hasNonFiller(bare.rest);
    }
  }

  const namedText = checks.length > 0 ? remainder : decodedLine;
  const named = NAMED_HINT.test(namedText) && !isNeg(commandSpans.length > 0 ? remainder : decodedLine) ? namedKinds(namedText) : [];
  if (checks.length === 0 && named.length === 0 && /:\s*$/.test(decodedLine)) return null; // a label such as "Before declaring plan complete:"
  if (checks.length === 0 && named.length > 0 && !hasNonFiller(decodedLine.replace(/\b(?:tests?|suite|specs?|cases|type|lint|no|typescript|tsc|errors?|pass\w*|compil\w*)\b/gi, ''))) manual = false;
  return { text: decodedLine, source, checks, named, manual };
}

/** The logical lines of a shell fence (continuations joined), with their first line. */
function fenceCommands(body: Array<{ text: string; line: number }>, lang: string): Array<{ command: string; line: number }> {
  const out: Array<{ command: string; line: number }> = [];
  const prompt = PROMPT_LANGS.has(lang);
  let pending: { command: string; line: number } | null = null;
  for (const { text, line } of body) {
    let t = decodeEntities(text).trim();
    if (pending) {
      pending.command += ` ${t}`;
      if (!/(?:\\|&&|\|\||\|)$/.test(t)) {
        out.push(pending);
        pending = null;
      }
      continue;
    }
    if (!t || t.startsWith('#') || t.startsWith('//')) continue;
    if (prompt) {
      if (!/^[$>]\s/.test(t)) continue; // output, not a command
    }
    t = t.replace(/^[$>]\s+/, '');
    if (/(?:\\|&&|\|\||\|)$/.test(t)) {
      pending = { command: t, line };
      continue;
    }
    out.push({ command: t, line });
  }
  if (pending) out.push(pending);
  return out
    .map((c) => ({ command: c.command.replace(/\s*\\\s+/g, ' ').replace(/\s*\\$/, '').trim(), line: c.line }))
    .filter((c) => looksLikeCodeCommand(c.command));
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
  let fence: { marker: string; lang: string; body: Array<{ text: string; line: number }>; line: number } | null = null;
  const flushFence = () => {
    if (!fence) return;
    if (ctx.mode !== 'manual' && SHELL_LANGS.has(fence.lang)) {
      for (const c of fenceCommands(fence.body, fence.lang)) {
        const source = { element: ctx.element, line: c.line };
        out.push({ text: c.command, source, checks: [{ kind: 'command_succeeds', command: c.command, source }], named: [], manual: false });
      }
    }
    fence = null;
  };
  for (const raw of body.split('\n')) {
    const f = /^\s*(`{3,}|~{3,})\s*([\w+-]*)/.exec(raw);
    if (fence) {
      if (f && f[1]![0] === fence.marker[0] && f[1]!.length >= fence.marker.length && raw.trim() === f[1]) flushFence();
      else fence.body.push({ text: raw, line });
    } else if (f && !(f[1]![0] === '`' && raw.slice(raw.indexOf(f[1]!) + f[1]!.length).includes('`'))) {
      fence = { marker: f[1]!, lang: (f[2] ?? '').toLowerCase(), body: [], line };
    } else {
      const c = lineCriterion(raw, line, ctx);
      if (c) out.push(c);
    }
    line++;
  }
  flushFence();
  return out;
}

/** The criteria of one `<automated>` element: its content is meant to be run. */
export function automatedCriteria(text: string, start: number, end: number, ctx: CriteriaContext): Criterion[] {
  const raw = text.slice(start, end);
  if (/^\s*(`{3,}|~{3,})/m.test(raw)) return criteriaFromRange(text, start, end, { ...ctx, mode: 'verify' });
  const out: Criterion[] = [];
  let line = ctx.lines.lineAt(start);
  let pending: { command: string; line: number } | null = null;
  const emit = (command: string, at: number) => {
    const source = { element: ctx.element, line: at };
    const t = command.trim();
    if (!t) return;
    if (isPlaceholder(t)) {
      out.push({ text: t, source, checks: [], named: [], manual: true, placeholder: true });
    } else if (looksLikeExplicitCommand(t)) {
      out.push({ text: t, source, checks: [{ kind: 'command_succeeds', command: t, source }], named: [], manual: false });
    } else {
      const c = lineCriterion(t, at, { ...ctx, mode: 'verify' });
      if (c) out.push(c);
    }
  };
  for (const rawLine of raw.split('\n')) {
    const t = decodeEntities(rawLine).trim();
    if (pending) {
      pending.command += ` ${t.replace(/\\$/, '')}`;
      if (!/(?:\\|&&|\|\||\|)$/.test(t)) {
        emit(pending.command, pending.line);
        pending = null;
      }
    } else if (/(?:\\|&&|\|\||\|)$/.test(t)) {
      pending = { command: t.replace(/\\$/, ''), line };
    } else {
      emit(t, line);
    }
    line++;
  }
  if (pending) emit(pending.command, pending.line);
  return out;
}
