/**
 * Front-end for a Markdown PRD checklist (the Ralph `PRD.md` loop): every `- [ ]` item is a
 * task; `[x]` is done, `[~]` is blocked. Acceptance criteria are the item's indented
 * sub-bullets, or a `Verify:` command on the item itself. The loop's outcome is written back
 * by changing only the one mark character, and logged to `progress.md` beside the PRD.
 */
import { appendFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Code, List, ListItem, Nodes, Paragraph, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { RalfError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { Check, Plan, PlanTask } from '../plan/model.js';
import { addTextCriterion, commandsAfterLabel, isLabelOnly, readCriterionText, withoutLabelEmphasis } from './criteria-text.js';
import { fenceChecks } from './markdown-criteria.js';
import { learningFrom } from './copilot-ralf.js';
import { slugOf, uniqueIds } from './item-identity.js';
import { buildPlan, buildTask, humanGateInText, planIdForSource, type TaskDraft } from './plan-builder.js';
import type { FormatOptions, TaskResult } from './target.js';
import { readUserText, readUserTextIfExists } from '../fs/read-user-text.js';

export type PrdMark = ' ' | 'x' | 'X' | '~';

/** One checklist item found in the source, with the offset of its mark character. */
export interface PrdItem {
  /** 1-based position among checklist items (the task number). */
  number: number;
  name: string;
  mark: PrdMark;
  /** Offset of the mark character inside `[ ]` in the original text. */
  mark_offset: number;
  line: number;
  end_line: number;
  /** The item's own text after the checkbox (first paragraph), lines trimmed. */
  text_lines: string[];
  /** Text of the item's non-checkbox sub-bullets and later paragraphs (criteria candidates); a code fence is one entry. */
  criteria_lines: Array<{ text: string; line: number; fence?: { lang: string; value: string } }>;
  section: string | null;
  /**
   * A story: a heading whose checklist is its acceptance criteria (snarktank's `### US-001: Title` +
   * `**Acceptance Criteria:**` + `- [ ]` boxes). One offset per box; the story's mark is `x` when
   * every box is, `~` when one is, else open.
   */
  mark_offsets?: number[];
  /** A story's paragraphs between its heading and its criteria (its description). */
  description_lines?: string[];
  /**
   * A queue item: a numbered item with no checkbox that says how it is verified (`Verify:`,
   * `Done when:`). It is open; write-back inserts `[x] ` / `[~] ` here (after `1. `), the only change.
   */
  insert_offset?: number;
  /** The number of the checkbox item this one is nested under, if any. */
  parent?: number;
}

/** A sub-bullet that says how an item is verified or when it is done (not `Run:`: a step's instruction): it makes a numbered item without a checkbox a task. */
const VERIFIED_BY = /^(?:(?:verify|verified by)\s*:\s*\S|(?:done when|acceptance(?:\s+criteria)?|success\s+criteria|definition\s+of\s+done)\s*:)/i;
/** A checkbox item anywhere in a text (line-based: the cheap test of whether a document keeps its state in boxes). */
const ANY_CHECKBOX = /^[ \t]*(?:>[ \t]*)*(?:[-*+]|\d{1,9}[.)])[ \t]+\[[ xX~]\](?:[ \t]|$)/m;

/** A paragraph that only labels the list under it as acceptance criteria (`**Acceptance Criteria:**`). */
const CRITERIA_LABEL_ONLY = /^(?:acceptance(?:\s+criteria)?|success\s+criteria|completion\s+criteria|done\s+when|definition\s+of\s+done)\s*:$/i;

const CHECKBOX = /^([-*+]|\d{1,9}[.)])([ \t]+)\[([ xX~])\](?=[ \t]|\r?\n|$)/;
const INLINE_VERIFY = /(?:^|\s)(?:\*\*|__)?(?:verify|verified by)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.+)$/i;

function parseTree(text: string): Root {
  return unified().use(remarkParse).use(remarkGfm).parse(text);
}

function sliceOf(text: string, node: Nodes): string {
  return text.slice(node.position?.start.offset ?? 0, node.position?.end.offset ?? 0);
}

/** Source lines of a node without blockquote markers or HTML comments (invisible when rendered: `<!-- group: 1 -->`), trimmed, blank lines dropped. */
function sourceLines(raw: string): string[] {
  return raw
    .replace(/<!--[\s\S]*?-->/g, '')
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s*(?:>\s?)*/, '').trim())
    .filter((l) => l !== '');
}

function headingText(text: string, node: Nodes): string {
  // The closing #s of an ATX heading go. Trims, not `/\s*#*\s*$/`: that backtracks in cubic
  // time on a long run of spaces (2.4 s for one 2,000-character heading).
  return trimClosingHashes(sliceOf(text, node).replace(/^#{1,6}\s*/, ''));
}

function trimClosingHashes(heading: string): string {
  let end = heading.trimEnd().length;
  while (end > 0 && heading[end - 1] === '#') end--;
  return heading.slice(0, end).trim();
}

/** A fenced block under an item: one entry (its body, dedented by the Markdown parser), never a line each. */
function fenceEntry(node: Code): PrdItem['criteria_lines'][number] {
  return { text: node.value, line: node.position?.start.line ?? 1, fence: { lang: (node.lang ?? '').toLowerCase(), value: node.value } };
}

/** Finds the checklist items in document order (pure; exported for write-back and tests). */
export function findPrdItems(source: string): PrdItem[] {
  const bom = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  const text = bom ? source.slice(1) : source;
  const items: PrdItem[] = [];
  let section: string | null = null;

  const checkboxOf = (item: ListItem) => {
    const start = item.position?.start.offset ?? 0;
    const m = CHECKBOX.exec(text.slice(start, start + 40));
    return m ? { m, start } : null;
  };

  /** Criteria candidates: non-checkbox descendants (checkbox descendants are tasks of their own). */
  const collectCriteria = (list: List, out: PrdItem['criteria_lines']) => {
    for (const child of list.children) {
      if (checkboxOf(child)) continue;
      for (const node of child.children) {
        if (node.type === 'list') collectCriteria(node, out);
        else if (node.type === 'code') out.push(fenceEntry(node));
        else {
          const lines = sourceLines(sliceOf(text, node));
          const firstLine = node.position?.start.line ?? child.position?.start.line ?? 1;
          const joined = lines.join(' ');
          if (joined) out.push({ text: joined, line: firstLine });
        }
      }
    }
  };

  /** The checkbox item whose children are being visited (nested boxes are its sub-items). */
  let parentItem: PrdItem | null = null;

  /** The heading that owns the top-level nodes being visited, and the story made of it, if any. */
  let heading: { node: Nodes; index: number } | null = null;
  let story: PrdItem | null = null;

  const isCriteriaLabel = (node: Nodes | undefined) =>
    node?.type === 'paragraph' && CRITERIA_LABEL_ONLY.test(withoutLabelEmphasis(sourceLines(sliceOf(text, node)).join(' ')));

  /**
   * A checklist right under an acceptance-criteria label, in a heading's section, is that heading's
   * criteria: the heading is the task (a user story), its boxes are not tasks of their own.
   */
  const addStory = (list: List, siblings: Nodes[], index: number) => {
    if (!story) {
      const h = heading!.node;
      const line = h.position?.start.line ?? 1;
      const description: string[] = [];
      for (let i = heading!.index + 1; i < index; i++) {
        const n = siblings[i]!;
        if (n.type === 'paragraph' && !isCriteriaLabel(n)) description.push(sourceLines(sliceOf(text, n)).join(' '));
      }
      story = { number: items.length + 1, name: '', mark: ' ', mark_offset: -1, mark_offsets: [], line, end_line: line, text_lines: [headingText(text, h)], criteria_lines: [], section, description_lines: description };
      items.push(story);
    }
    for (const child of list.children) {
      const box = checkboxOf(child);
      if (!box) {
        collectCriteria({ ...list, children: [child] }, story.criteria_lines);
        continue;
      }
      const { m, start } = box;
      story.mark_offsets!.push(bom + start + m[1]!.length + m[2]!.length + 1);
      const [first, ...rest] = child.children;
      const afterMark = start + m[0].length;
      if (first && first.type === 'paragraph') {
        const lines = sourceLines(text.slice(afterMark, Math.max(afterMark, first.position?.end.offset ?? afterMark)));
        if (lines.length > 0) story.criteria_lines.push({ text: lines.join(' '), line: child.position?.start.line ?? 1 });
      }
      for (const node of first && first.type === 'paragraph' ? rest : child.children) {
        if (node.type === 'list') collectCriteria(node, story.criteria_lines);
        else if (node.type === 'code') story.criteria_lines.push(fenceEntry(node));
      }
    }
    story.end_line = list.position?.end.line ?? story.end_line;
    const all = [...(story.mark_offsets ?? []).map((o) => source[o]!)];
    story.mark = all.every((c) => c === 'x' || c === 'X') ? 'x' : all.includes('~') ? '~' : ' ';
  };

  const visit = (node: Nodes) => {
    if (node.type === 'heading') {
      section = headingText(text, node);
      return;
    }
    if (node.type === 'code' || node.type === 'html') return;
    if (node.type === 'listItem') {
      const box = checkboxOf(node);
      if (box) {
        const { m, start } = box;
        const afterMark = start + m[0].length;
        const [first, ...rest] = node.children;
        const criteria: PrdItem['criteria_lines'] = [];
        let textLines: string[] = [];
        if (first && first.type === 'paragraph') {
          const end = (first as Paragraph).position?.end.offset ?? afterMark;
          textLines = sourceLines(text.slice(afterMark, Math.max(afterMark, end)));
        }
        for (const child of first && first.type === 'paragraph' ? rest : node.children) {
          if (child.type === 'list') collectCriteria(child, criteria);
          else if (child.type === 'code') criteria.push(fenceEntry(child));
          else {
            const line0 = child.position?.start.line ?? 1;
            sourceLines(sliceOf(text, child)).forEach((l, i) => criteria.push({ text: l, line: line0 + i }));
          }
        }
        const line = node.position?.start.line ?? 1;
        const item: PrdItem = {
          number: items.length + 1,
          name: '',
          mark: m[3] as PrdMark,
          mark_offset: bom + start + m[1]!.length + m[2]!.length + 1,
          line,
          end_line: node.position?.end.line ?? line,
          text_lines: textLines,
          criteria_lines: criteria,
          section,
          ...(parentItem ? { parent: parentItem.number } : {}),
        };
        items.push(item);
        const outer = parentItem;
        parentItem = item;
        for (const child of node.children as Nodes[]) visit(child);
        parentItem = outer;
        return;
      }
    }
    if (node.type === 'root') {
      node.children.forEach((child, i) => {
        if (child.type === 'heading') {
          heading = { node: child, index: i };
          story = null;
        } else if (child.type === 'list' && heading && isCriteriaLabel(node.children[i - 1]) && child.children.some((c) => checkboxOf(c))) {
          addStory(child, node.children, i);
          return;
        }
        // Only where the document keeps no state in boxes elsewhere: numbered steps in a checklist
        // PRD are instructions. (Boxes inside the queue itself are the marks ralf wrote.)
        const outside = child.type === 'list' ? text.slice(0, child.position?.start.offset ?? 0) + text.slice(child.position?.end.offset ?? 0) : '';
        if (child.type === 'list' && child.ordered && !ANY_CHECKBOX.test(outside)) {
          // A numbered queue (fix_plan.md: `1. Title` + `- Done when:` + `- Verify: \`cmd\``): its
          // items without a checkbox that say how they are verified are open tasks.
          for (const entry of child.children) {
            if (checkboxOf(entry)) {
              visit(entry);
              continue;
            }
            const [first, ...rest] = entry.children;
            const criteria: PrdItem['criteria_lines'] = [];
            for (const sub of first && first.type === 'paragraph' ? rest : entry.children) {
              if (sub.type === 'list') collectCriteria(sub, criteria);
              else if (sub.type === 'code') criteria.push(fenceEntry(sub));
            }
            if (first?.type === 'paragraph' && criteria.some((c) => !c.fence && VERIFIED_BY.test(withoutLabelEmphasis(c.text)))) {
              const line = entry.position?.start.line ?? 1;
              items.push({
                number: items.length + 1,
                name: '',
                mark: ' ',
                mark_offset: -1,
                insert_offset: bom + (first.position?.start.offset ?? 0),
                line,
                end_line: entry.position?.end.line ?? line,
                text_lines: sourceLines(sliceOf(text, first)),
                criteria_lines: criteria,
                section,
              });
              continue;
            }
            visit(entry);
          }
          return;
        }
        visit(child);
      });
      return;
    }
    if ('children' in node) for (const child of node.children as Nodes[]) visit(child);
  };
  visit(parseTree(text));

  for (const item of items) item.name = itemName(item.text_lines[0] ?? '');
  return items;
}

/**
 * The task name: the item's first line without an inline `Verify:` part, emphasis around the
 * title, or copilot_ralf's `[effort: low]` tag (`- [ ] **Task 1: Setup** [effort: low]` →
 * `Task 1: Setup`).
 */
function itemName(firstLine: string): string {
  const titled = boldTitle(firstLine);
  if (titled) return titled.title;
  const cut = firstLine
    .replace(INLINE_VERIFY, '')
    .replace(/\s*\[effort:\s*[^\]]*\]\s*/gi, ' ')
    .replace(/^(\*\*|__)(.+?)\1/, '$2')
    .replace(/[\s—–:;,(-]+$/, '')
    .trim();
  return cut || firstLine.trim() || '(untitled item)';
}

/**
 * A bold title set off by a dash (`**Domain model** — \`Vocation\` (per-level ...`): the title is
 * the item's name, the rest of the line begins its description. Items wrapped over lines would
 * otherwise be named by a line cut mid-sentence.
 */
function boldTitle(firstLine: string): { title: string; rest: string } | null {
  const m = /^(\*\*|__)(.+?)\1\s+(?:—|–|-{1,2})\s+(.*)$/.exec(firstLine.trim());
  return m ? { title: m[2]!.trim(), rest: m[3]!.trim() } : null;
}

/** Sub-bullets that describe the item rather than accept it (copilot_ralf's PRD fields). */
/** Also pointers to where the item is specified (`Spec: \`specs/17-x.md\``): context for the agent, not a criterion. */
const DESCRIPTION_LABEL = /^(?:description|details?|notes?|context|why|specs?|see|refs?|references?|docs?|issue)\s*:\s*(.*)$/i;
const FILES_LABEL = /^files?\s*:\s*(.*)$/i;
const EFFORT_LABEL = /^effort\s*:/i;

function filesIn(text: string): string[] {
  return text
    .split(/[,;]|\s+and\s+/)
    .map((f) => f.replace(/[`*]/g, '').replace(/\s*\(.*\)\s*$/, '').trim())
    .filter((f) => f !== '' && !/\s/.test(f));
}

function draftFor(item: PrdItem, fileName: string, options: FormatOptions): TaskDraft {
  const checks: Check[] = [];
  const manual: string[] = [];
  const unrunnable: string[] = [];
  const criteriaText: string[] = [];
  const description: string[] = [];

  // `Verify:` on the item's own text (first line, or a continuation line of the same paragraph).
  item.text_lines.forEach((lineText, i) => {
    const line = item.line + i;
    const inline = INLINE_VERIFY.exec(lineText);
    if (inline) {
      for (const command of commandsAfterLabel(inline[1]!)) checks.push({ kind: 'command_succeeds', command, source: { element: 'verify', line } });
      criteriaText.push(`Verify: ${inline[1]!.trim()}`);
      return;
    }
    if (i === 0) {
      const rest = boldTitle(lineText)?.rest;
      if (rest) description.push(rest);
      return;
    }
    const reading = readCriterionText(lineText, { element: 'criteria', line }, options.tests_command);
    if (reading.kind === 'checks') {
      checks.push(...reading.checks);
      criteriaText.push(lineText);
    } else description.push(lineText);
  });

  description.push(...(item.description_lines ?? []).map((d) => DESCRIPTION_LABEL.exec(withoutLabelEmphasis(d))?.[1]?.trim() || d));
  const files: string[] = [];
  for (const entry of item.criteria_lines) {
    if (entry.fence) {
      const fenced = fenceChecks(entry.fence, entry.line);
      if (fenced.length > 0) {
        checks.push(...fenced);
        criteriaText.push(`\`\`\`${entry.fence.lang}\n${entry.fence.value}\n\`\`\``);
      } else description.push(`\`\`\`${entry.fence.lang}\n${entry.fence.value}\n\`\`\``);
      continue;
    }
    const c = { ...entry, text: withoutLabelEmphasis(entry.text) };
    // A label alone (`Acceptance criteria:`, `Tests:`) heads the sub-list under it; it is not a criterion.
    if (isLabelOnly(c.text)) continue;
    const described = DESCRIPTION_LABEL.exec(c.text);
    if (described) {
      if (described[1]!.trim()) description.push(described[1]!.trim());
      continue;
    }
    const named = FILES_LABEL.exec(c.text);
    if (named) {
      files.push(...filesIn(named[1]!));
      continue;
    }
    if (EFFORT_LABEL.test(c.text)) continue;
    criteriaText.push(c.text);
    addTextCriterion({ checks, manual, unrunnable }, c.text, { element: 'criteria', line: c.line }, options.tests_command);
  }

  const allText = [...item.text_lines, ...item.criteria_lines.map((c) => c.text)].join('\n');
  const skip =
    item.mark === 'x' || item.mark === 'X'
      ? `already done ([x] in ${fileName})`
      : item.mark === '~'
        ? `marked blocked ([~] in ${fileName}); change it to [ ] to retry`
        : null;
  const elements: Record<string, string> = {};
  if (item.section) elements.section = item.section;
  return {
    name: item.name,
    line: item.line,
    end_line: item.end_line,
    action: [item.name, ...description].join('\n'),
    criteria_text: criteriaText.join('\n'),
    checks,
    manual,
    unrunnable,
    human_gate: humanGateInText(allText),
    skip_reason: skip,
    attributes: { mark: item.mark },
    elements,
    files,
  };
}

/** Parses a PRD checklist into the plan model (pure). `path` should be absolute. */
export function parsePrdChecklist(text: string, path: string, options: FormatOptions = {}): Plan {
  const fileName = basename(path);
  const items = findPrdItems(text);
  const ids = itemIds(items);
  const tasks: PlanTask[] = items.map((item, i) => {
    const draft = draftFor(item, fileName, options);
    // A box with boxes under it and no check of its own groups them (fix_plan.md: a feature and
    // its steps): it is done when they are, and is never sent to an agent as one big task.
    const subItems = items.filter((c) => c.parent === item.number);
    if (subItems.length > 0 && draft.checks.length === 0 && !draft.skip_reason) {
      const open = subItems.filter((c) => c.mark !== 'x' && c.mark !== 'X').length;
      draft.skip_reason = `groups its ${subItems.length} sub-items (${open} open); it is done when they are`;
    }
    return buildTask(item.number, { ...draft, attributes: { ...draft.attributes, id: ids[i]! } }, options);
  });
  const title = /^\uFEFF?#\s+(.+?)\s*#*\s*$/m.exec(text)?.[1] ?? null;
  const warnings = items.length === 0 ? [`${fileName}: no checklist items (- [ ] ...) found`] : [];
  return buildPlan({ kind: 'prd', path, id: planIdForSource(path), objective: title, tasks, warnings });
}

/** Each item's identity: the slug of its text (`#2` for a repeated text), never its position. */
export function itemIds(items: readonly PrdItem[]): string[] {
  return uniqueIds(items.map((i) => slugOf(i.name)));
}

/**
 * Sets one item's mark (pure). The item is found again in the current text (the agent may have
 * edited the file, items may have moved): by its id, else by a unique name. Only the mark
 * character changes.
 */
export function setPrdMark(text: string, task: Pick<PlanTask, 'number' | 'name'> & { attributes?: Record<string, string> }, mark: 'x' | '~' | ' '): string {
  const items = findPrdItems(text);
  const ids = itemIds(items);
  const id = task.attributes?.id;
  let item = id !== undefined ? items[ids.indexOf(id)] : undefined;
  if (!item) {
    const byName = items.filter((i) => i.name === task.name);
    if (byName.length === 1) item = byName[0];
  }
  if (!item) {
    throw new RalfError('writeback_failed', `cannot find checklist item ${task.number} ("${task.name}") to mark it [${mark}]`, {
      problems: [{ message: `checklist item "${task.name}" not found (it was renamed, removed or duplicated)`, hint: `Mark it [${mark}] by hand.` }],
    });
  }
  if (item.mark_offsets) return setStoryMarks(text, item.mark_offsets, mark);
  if (item.insert_offset !== undefined) return mark === ' ' ? text : text.slice(0, item.insert_offset) + `[${mark}] ` + text.slice(item.insert_offset);
  return text.slice(0, item.mark_offset) + mark + text.slice(item.mark_offset + 1);
}

/**
 * A story's boxes: pass ticks every box; a stop marks the first open box `~` (the story then reads
 * as blocked); reopening clears the `~`. Only mark characters change.
 */
function setStoryMarks(text: string, offsets: readonly number[], mark: 'x' | '~' | ' '): string {
  let out = text;
  const set = (o: number, c: string) => (out = out.slice(0, o) + c + out.slice(o + 1));
  if (mark === 'x') {
    for (const o of offsets) set(o, 'x');
  } else if (mark === ' ') {
    for (const o of offsets) if (out[o] === '~') set(o, ' ');
  } else {
    const open = offsets.find((o) => out[o] === ' ') ?? offsets.find((o) => out[o] !== 'x' && out[o] !== 'X');
    if (open !== undefined) set(open, '~');
  }
  return out;
}

/**
 * Ticks each open box whose sub-items are now all ticked, innermost first (pure): the group is
 * done when they are, as people who nest boxes mark it. Only mark characters change.
 */
export function tickFinishedGroups(text: string): string {
  let out = text;
  for (;;) {
    const items = findPrdItems(out);
    const done = (i: PrdItem) => i.mark === 'x' || i.mark === 'X';
    const group = items.find((i) => i.mark === ' ' && !i.mark_offsets && i.insert_offset === undefined && items.some((c) => c.parent === i.number) && items.filter((c) => c.parent === i.number).every(done));
    if (!group) return out;
    out = out.slice(0, group.mark_offset) + 'x' + out.slice(group.mark_offset + 1);
  }
}

/** One progress.md entry (pure). */
export function progressEntry(task: Pick<PlanTask, 'number' | 'name'>, result: TaskResult, now: Date, eol = '\n'): string {
  const plural = result.iterations === 1 ? '' : 's';
  const outcome =
    result.verdict === 'pass'
      ? `passed after ${result.iterations} iteration${plural}; marked [x]`
      : `stopped (${result.stop_reason ?? 'unknown'}) after ${result.iterations} iteration${plural}; marked [~]`;
  const lines = [`## ${now.toISOString()} — Task ${task.number}: ${task.name}`, '', `- Result: ${outcome}`];
  if (result.signals) lines.push(`- Status: ${result.signals}`);
  if (result.loop !== undefined) lines.push(`- Learnings: ${learningFrom(result.loop, result.verdict, result.detail)}`);
  return [...lines, '', ''].join(eol);
}

/** Whether the agent marked the item `[x]` itself (copilot_ralf's second signal); false when it cannot be found. */
export function prdItemMarked(path: string, task: Pick<PlanTask, 'number' | 'name'> & { attributes?: Record<string, string> }): boolean {
  let text: string;
  try {
    text = readUserText(path, { what: 'PRD checklist' });
  } catch {
    return false;
  }
  const items = findPrdItems(text);
  const ids = itemIds(items);
  const id = task.attributes?.id;
  const item = id !== undefined ? items[ids.indexOf(id)] : items.find((i) => i.name === task.name);
  return item?.mark === 'x' || item?.mark === 'X';
}

export function progressPathFor(prdPath: string): string {
  return join(dirname(prdPath), 'progress.md');
}

/** Write-back when a task's loop ends: mark `[x]`/`[~]` atomically, append to progress.md. */
export function writePrdResult(plan: Plan, taskNumber: number, result: TaskResult, now: Date = new Date()): string[] {
  const task = plan.tasks.find((t) => t.number === taskNumber);
  if (!task) throw new RalfError('writeback_failed', `${plan.path}: no task ${taskNumber}`);
  const before = readUserText(plan.path, { what: 'PRD checklist' });
  let after = setPrdMark(before, task, result.verdict === 'pass' ? 'x' : '~');
  if (result.verdict === 'pass') after = tickFinishedGroups(after);
  if (after !== before) writeFileAtomic(plan.path, after);

  const eol = before.includes('\r\n') ? '\r\n' : '\n';
  const progress = progressPathFor(plan.path);
  let prefix = '';
  const current = readUserTextIfExists(progress, { what: 'progress notes' });
  if (current === null) prefix = [`# Progress`, '', `Written by \`ralf run\`: one entry per finished task of ${basename(plan.path)}.`, '', ''].join(eol);
  else {
    if (current.length > 0 && !current.endsWith('\n')) prefix = `${eol}${eol}`;
  }
  // Appending (not rewriting) keeps notes the agent wrote to progress.md between our entries.
  appendFileSync(progress, prefix + progressEntry(task, result, now, eol));
  return [plan.path, progress];
}
