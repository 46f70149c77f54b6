/**
 * `parsePlanText(text, path)`: a pure parse of one PLAN.md into a ParsedPlan (no config,
 * no I/O). Malformed structure that would make the loop wrap the wrong work (an unclosed
 * `<task>`, an unclosed `<verify>` inside a task, invalid frontmatter YAML, an empty file,
 * text that is not a plan) throws a RalfError naming the file and line.
 */
import { basename, dirname } from 'node:path';
import { RalfError, type Problem } from '../errors.js';
import type { Check } from './model.js';
import type { Criterion, ParsedPlan, ParsedTask } from './parsed.js';
import { automatedCriteria, criteriaFromRange, setupStepCommands, type CriteriaContext } from './criteria.js';
import { withoutRestatedChecks } from './restated.js';
import { isRedStep, withRedRunsShown } from './red.js';
import { decodeEntities } from './entities.js';
import { linesOfEntries, readFrontmatter, type FrontmatterBlock } from './frontmatter.js';
import { lineIndex, normalizeNewlines, type LineIndex } from './lines.js';
import { normalizeFrontmatter } from './normalize-frontmatter.js';
import { isProjectPath, NO_PROGRAMS, type ProgramResolver } from './command-like.js';
import { childElements, scanElements, type ElementNode, type ScanNode } from './scan.js';

/** Elements whose content is prose or code: a `<task>` inside them is an example, not a task. */
const PROSE = new Set([
  'objective', 'context', 'execution_context', 'interfaces', 'threat_model', 'verification', 'success_criteria', 'output', 'feature',
  'action', 'verify', 'done', 'behavior', 'implementation', 'name', 'files', 'read_first', 'acceptance_criteria', 'what-built',
  'how-to-verify', 'resume-signal', 'decision', 'options', 'instructions', 'title', 'details', 'example', 'examples', 'template',
  'script', 'style', 'pre', 'code', 'textarea',
]);

/** Children of `<task>` whose unclosed opening tag at the start of a line is an error. */
const TASK_CHILDREN = new Set([
  'name', 'files', 'action', 'verify', 'done', 'behavior', 'read_first', 'acceptance_criteria', 'what-built', 'how-to-verify',
  'resume-signal', 'decision', 'options', 'instructions', 'verification', 'title', 'context', 'precondition',
]);

/** Top-level sections worth a warning when left unclosed. */
const TOP_LEVEL = new Set(['tasks', 'objective', 'verification', 'success_criteria', 'output', 'context', 'feature']);

/** Closing tags worth a warning when they match nothing. */
const STRUCTURAL = new Set(['task', 'tasks', ...TASK_CHILDREN, ...TOP_LEVEL, 'automated', 'human-check', 'fails_when']);

export interface ParsePlanOptions {
  /** Which program names resolve on this machine (PATH, node_modules/.bin). Default: none (builtins and paths only). */
  resolves?: ProgramResolver;
}

/**
 * Why a task's attributes are ambiguous about being a checkpoint, or null. One clean
 * `type="checkpoint:..."` is not ambiguous (it is refused as a checkpoint); anything else that
 * mentions a checkpoint is: `type="auto" type="checkpoint:human-verify"` (HTML keeps the first),
 * `TYPE="checkpoint:..."` (a differently-cased name), `type="auto checkpoint:human-verify"`.
 */
function checkpointAmbiguity(list: Array<[string, string]>): string | null {
  const mentions = list.filter(([n, v]) => /checkpoint/i.test(n) || /checkpoint/i.test(v));
  if (mentions.length === 0) return null;
  const types = list.filter(([n]) => n.toLowerCase() === 'type');
  if (types.length === 1 && types[0]![0] === 'type' && /^checkpoint:[\w-]+$/.test(types[0]![1].trim()) && mentions.length === 1) return null;
  const written = [...new Set([...types, ...mentions])].map(([n, v]) => `${n}="${v}"`).join(' ');
  return `the task's attributes (${written}) mention a checkpoint but are not one type="checkpoint:..."`;
}

/**
 * Plan id from the file name: `01-02-PLAN.md` → `01-02`, `09-03-FIX2-PLAN.md` → `09-03-FIX2`.
 * A bare `PLAN.md` takes its directory's name (as src/engine/paths.ts does for state files).
 */
import { planIdFromPath } from './plan-id.js';

export { planIdFromPath };

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function contentOf(text: string, node: ElementNode): string {
  return decodeEntities(text.slice(node.contentStart, node.contentEnd)).trim();
}

interface Walk {
  tasks: ElementNode[];
  top: Map<string, ElementNode[]>;
  problems: Problem[];
  warnings: string[];
}

/** Finds real tasks (top level or inside wrappers such as `<tasks>`, never inside prose elements). */
function walk(root: ElementNode, path: string): Walk {
  const out: Walk = { tasks: [], top: new Map(), problems: [], warnings: [] };
  const stack: ScanNode[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'unclosed') {
      if (node.name === 'task') {
        out.problems.push({ file: path, line: node.line, message: 'unclosed <task>: no matching </task> before the enclosing element or the end of the file', hint: 'Add </task> after the task\'s last child element.' });
      } else if (TOP_LEVEL.has(node.name) && node.atLineStart) {
        out.warnings.push(`line ${node.line}: <${node.name}> is never closed; its content was read as plain text`);
      }
      continue;
    }
    if (node.name === 'task') {
      out.tasks.push(node);
      continue;
    }
    const list = out.top.get(node.name) ?? [];
    list.push(node);
    out.top.set(node.name, list);
    if (PROSE.has(node.name)) continue;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}

/** The task's own text: its content without child elements (free-form `<task id="3">` bodies). */
function ownText(text: string, node: ElementNode): string {
  let out = '';
  let at = node.contentStart;
  for (const child of childElements(node)) {
    out += text.slice(at, child.start);
    at = child.end;
  }
  return decodeEntities(out + text.slice(at, node.contentEnd));
}

function firstProseLine(value: string | undefined): string | null {
  if (!value) return null;
  let fence = false;
  for (const raw of value.split('\n')) {
    if (/^\s*(`{3,}|~{3,})/.test(raw)) {
      fence = !fence;
      continue;
    }
    if (fence) continue;
    const line = raw.replace(/^[#>*\-\s]+|\*\*|`/g, '').trim();
    if (line && !line.startsWith('<')) return line.length > 100 ? `${line.slice(0, 97)}...` : line;
  }
  return null;
}

function taskName(text: string, node: ElementNode, elements: Record<string, string>, number: number): string {
  const named = elements.name ?? elements.title ?? node.attrs.title;
  if (named) return collapse(named);
  // No <name>: free-form bodies (`<task id="3">` + Markdown), then what the task does or asks.
  return (
    firstProseLine(ownText(text, node)) ??
    firstProseLine(elements.action) ??
    firstProseLine(elements.decision) ??
    firstProseLine(elements['what-built']) ??
    firstProseLine(elements.instructions) ??
    `Task ${number}`
  );
}

function taskFiles(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(/[,\n]/)
    .map((f) => f.replace(/^\s*(?:[-*]\s+)?/, '').replace(/`/g, '').trim())
    .filter((f) => f.length > 0);
}

function buildTask(text: string, lines: LineIndex, node: ElementNode, number: number, path: string, problems: Problem[], resolves: ProgramResolver): ParsedTask {
  // Attribute names are case-insensitive in HTML: `TYPE="auto"` is a type.
  const typeAttr = node.attrs.type ?? node.attrList.find(([n]) => n.toLowerCase() === 'type')?.[1];
  const rawType = typeAttr?.trim();
  const type = rawType ? rawType : null;
  const tddAttr = node.attrs.tdd?.trim().toLowerCase();
  const tdd = tddAttr === 'true' || tddAttr === 'yes' || tddAttr === '1' || type?.toLowerCase() === 'tdd';
  const attributes: Record<string, string> = {};
  for (const [k, v] of Object.entries(node.attrs)) if (k !== 'type' && k !== 'tdd' && k !== 'gate') attributes[k] = v;

  const elements: Record<string, string> = {};
  for (const child of childElements(node)) {
    const value = contentOf(text, child);
    elements[child.name] = child.name in elements ? `${elements[child.name]}\n\n${value}` : value;
  }
  for (const child of node.children) {
    if (child.kind === 'unclosed' && TASK_CHILDREN.has(child.name) && child.atLineStart) {
      problems.push({ file: path, line: child.line, message: `unclosed <${child.name}> in the task at line ${node.line}: no matching </${child.name}> before </task>`, hint: `Add </${child.name}>.` });
    }
  }

  const criteria: Criterion[] = [];
  const ctx = (element: string, mode: CriteriaContext['mode']): CriteriaContext => ({ lines, element, mode, resolves });
  // A <verify> inside a <verify> (`<verify><verify><automated>…</automated></verify></verify>`) is read as one.
  const verifies: ElementNode[] = [];
  const collect = (parent: ElementNode) => {
    for (const v of childElements(parent, 'verify')) {
      verifies.push(v);
      collect(v);
    }
  };
  collect(node);
  for (const verify of verifies) {
    const exclude: Array<[number, number]> = childElements(verify, 'verify').map((v): [number, number] => [v.start, v.end]);
    // GSD Core: each <fails_when> binds to the nearest preceding <automated>; the first statement wins.
    let pending: Criterion[] | null = null;
    for (const child of verify.children) {
      if (child.kind === 'unclosed') {
        if ((child.name === 'automated' || child.name === 'human-check' || child.name === 'fails_when') && child.atLineStart) {
          problems.push({ file: path, line: child.line, message: `unclosed <${child.name}> in <verify> (task at line ${node.line})`, hint: `Add </${child.name}>.` });
        }
        continue;
      }
      if (child.name === 'automated') {
        pending = automatedCriteria(text, child.contentStart, child.contentEnd, ctx('automated', 'verify'));
        criteria.push(...pending);
        exclude.push([child.start, child.end]);
      } else if (child.name === 'fails_when') {
        const signal = collapse(contentOf(text, child));
        if (pending && signal) {
          for (const c of pending) c.checks = c.checks.map((k) => (k.kind === 'command_succeeds' && k.fails_when === undefined ? { ...k, fails_when: signal } : k));
        }
        pending = null;
        exclude.push([child.start, child.end]);
      } else if (child.name === 'human-check') {
        criteria.push(...criteriaFromRange(text, child.contentStart, child.contentEnd, ctx('human-check', 'manual')));
        exclude.push([child.start, child.end]);
      }
    }
    criteria.push(...criteriaFromRange(text, verify.contentStart, verify.contentEnd, ctx('verify', 'verify'), exclude));
  }
  for (const name of ['acceptance_criteria', 'done', 'verification']) {
    for (const el of childElements(node, name)) criteria.push(...criteriaFromRange(text, el.contentStart, el.contentEnd, ctx(name, 'done')));
  }
  const name = taskName(text, node, elements, number);
  const own = withoutRestatedChecks(criteria, elements.action ? setupStepCommands(elements.action, resolves) : []);
  const ownCriteria = isRedStep(name, elements) ? withRedRunsShown(own, elements.done) : own;

  const ambiguity = checkpointAmbiguity(node.attrList);
  return {
    ...(ambiguity ? { checkpoint_ambiguity: ambiguity } : {}),
    number,
    name,
    type,
    tdd,
    gate: node.attrs.gate?.trim() || null,
    attributes,
    line: node.line,
    end_line: node.endLine,
    files: taskFiles(elements.files),
    elements,
    criteria: ownCriteria,
  };
}

/** Is `line` inside one of the sorted, non-overlapping `[first, last]` ranges? */
function insideAny(ranges: Array<[number, number]>, line: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = ranges[mid]!;
    if (line < a) hi = mid - 1;
    else if (line > b) lo = mid + 1;
    else return true;
  }
  return false;
}

/** `## Verification` as a Markdown section (plans without a `<verification>` element). */
function markdownSection(text: string, lines: LineIndex, from: number, title: RegExp, taken: Array<[number, number]>): [number, number, number] | null {
  let fence: string | null = null;
  const startLine = lines.lineAt(from);
  for (let line = startLine; line <= lines.lineCount; line++) {
    const s = text.slice(lines.lineStart(line), lines.lineEnd(line));
    const f = /^\s*(`{3,}|~{3,})/.exec(s);
    if (fence !== null) {
      if (f && s.trim() === f[1] && f[1]![0] === fence[0] && f[1]!.length >= fence.length) fence = null;
      continue;
    }
    if (f) {
      fence = f[1]!;
      continue;
    }
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(s);
    if (!h || !title.test(h[2]!) || insideAny(taken, line)) continue;
    const level = h[1]!.length;
    let end = line + 1;
    let inner: string | null = null;
    for (; end <= lines.lineCount; end++) {
      const t = text.slice(lines.lineStart(end), lines.lineEnd(end));
      const g = /^\s*(`{3,}|~{3,})/.exec(t);
      if (inner !== null) {
        if (g && t.trim() === g[1] && g[1]![0] === inner[0]) inner = null;
        continue;
      }
      if (g) {
        inner = g[1]!;
        continue;
      }
      const h2 = /^(#{1,6})\s/.exec(t);
      if (h2 && h2[1]!.length <= level) break;
    }
    return [line, lines.lineStart(line + 1 > lines.lineCount ? line : line + 1), end > lines.lineCount ? text.length : lines.lineStart(end)];
  }
  return null;
}

function artifactCriteria(block: FrontmatterBlock, artifacts: ParsedPlan['frontmatter']['must_haves']['artifacts']): Criterion[] {
  const out: Criterion[] = [];
  const lines = linesOfEntries(block, 'artifacts', artifacts.map((a) => a.path)).entries;
  for (const [i, a] of artifacts.entries()) {
    const line = lines[i] ?? block.yamlLine;
    const source = { element: 'must_haves.artifacts', line };
    const label = `${a.path}${a.provides ? ` (${a.provides})` : ''}`;
    if (!isProjectPath(a.path)) {
      out.push({ text: `artifact ${label}: not a path inside the project, check by hand`, source, checks: [], named: [], manual: true });
      continue;
    }
    const path = a.path.replace(/^\.\//, '');
    const checks: Check[] = [{ kind: 'file_exists', path, source }];
    if (a.contains) checks.push({ kind: 'contains_text', path, text: a.contains, source });
    if (a.min_lines) checks.push({ kind: 'min_lines', path, min_lines: a.min_lines, source });
    out.push({ text: `artifact ${label}`, source, checks, named: [], manual: (a.exports?.length ?? 0) > 0 });
  }
  return out;
}

function notAPlan(path: string, message: string, hint: string): RalfError {
  return new RalfError('plan_invalid', `${path}: ${message}`, { problems: [{ file: path, line: 1, message, hint }] });
}

export function parsePlanText(input: string, path: string, options: ParsePlanOptions = {}): ParsedPlan {
  const resolves = options.resolves ?? NO_PROGRAMS;
  const text = normalizeNewlines(input);
  if (text.trim() === '') throw notAPlan(path, 'the file is empty', 'A PLAN.md has frontmatter (phase, plan, type, autonomous, ...) and <task> elements.');
  const lines = lineIndex(text);
  const block = readFrontmatter(text, lines, path);
  const id = planIdFromPath(path);
  const { frontmatter, warnings: fmWarnings } = normalizeFrontmatter(block, id);
  const scan = scanElements(text, lines, block.bodyStart);
  const found = walk(scan.root, path);
  const warnings = [...block.warnings, ...fmWarnings, ...found.warnings];
  const problems = [...found.problems];

  const tasks = found.tasks.map((node, i) => buildTask(text, lines, node, i + 1, path, problems, resolves));
  if (problems.length > 0) {
    problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    const first = problems[0]!;
    throw new RalfError('plan_invalid', `${path}:${first.line}: ${first.message}`, { problems });
  }

  const hasElements = tasks.length > 0 || ['objective', 'tasks', 'verification', 'success_criteria', 'context', 'feature', 'output'].some((n) => found.top.has(n));
  if (block.source === 'none' && !hasElements && !/^#{1,6}\s+\S/m.test(text)) {
    throw notAPlan(path, 'not a GSD plan: no frontmatter, no Markdown headings and no <objective>/<tasks>/<task> elements', 'Pass a PLAN.md (e.g. .planning/phases/01-foundation/01-01-PLAN.md).');
  }

  for (const f of scan.unclosedFences) warnings.push(`line ${f}: code fence is never closed; read as text`);
  for (const s of scan.strayCloses) if (STRUCTURAL.has(s.name)) warnings.push(`line ${s.line}: </${s.name}> has no matching <${s.name}>; ignored`);
  const seenIds = new Map<string, number>();
  for (const t of tasks) {
    const tid = t.attributes.id;
    if (tid === undefined) continue;
    const prev = seenIds.get(tid);
    if (prev !== undefined) warnings.push(`line ${t.line}: task id="${tid}" repeats the id of task ${prev}; tasks are numbered by position (this is task ${t.number})`);
    else seenIds.set(tid, t.number);
  }

  const features = (found.top.get('feature') ?? []).map((f) => f.line);
  if (tasks.length === 0) {
    if (features.length > 0) warnings.push(`no <task> elements: the plan's work is in <feature> blocks (TDD plan, line ${features[0]}), which the task loop does not wrap`);
    else if (/^#{2,4}\s+(?:Task\s+\d+|\d+[-.]\d+:)/im.test(text)) warnings.push('no <task> elements: tasks written as Markdown headings ("### Task N") are not wrapped by the loop');
    else warnings.push('no <task> elements found');
  }

  // Plan-level criteria: <verification> (or a Markdown "## Verification" section), must_haves.
  const planCriteria: Criterion[] = [];
  const verification = found.top.get('verification') ?? [];
  for (const v of verification) planCriteria.push(...criteriaFromRange(text, v.contentStart, v.contentEnd, { lines, element: 'verification', mode: 'verify', resolves }));
  if (verification.length === 0) {
    const taken = found.tasks.map((t): [number, number] => [t.line, t.endLine]);
    const section = markdownSection(text, lines, block.bodyStart, /^(?:\d+[.)]\s*)?verification(?:\s+steps)?$/i, taken);
    if (section) planCriteria.push(...criteriaFromRange(text, section[1], section[2], { lines, element: '## Verification', mode: 'verify', resolves }));
  }
  planCriteria.push(...artifactCriteria(block, frontmatter.must_haves.artifacts));
  const truthLines = linesOfEntries(block, 'truths', frontmatter.must_haves.truths).entries;
  for (const [i, truth] of frontmatter.must_haves.truths.entries()) {
    planCriteria.push({ text: truth, source: { element: 'must_haves.truths', line: truthLines[i] ?? block.yamlLine }, checks: [], named: [], manual: true });
  }

  const objective = found.top.get('objective')?.[0];
  return {
    path,
    id,
    frontmatter_source: block.source,
    frontmatter,
    objective: objective ? contentOf(text, objective) : null,
    tasks,
    plan_criteria: planCriteria,
    features,
    warnings,
  };
}
