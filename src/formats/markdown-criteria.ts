/**
 * Criteria written in Markdown around a task: a fenced shell block (one script, by the GSD
 * fence rules of src/plan/criteria.ts), and a body section such as `## Acceptance criteria`
 * whose bullets are read like PRD sub-bullets. Shared by PRD checklists and task files. Pure.
 */
import type { Check } from '../plan/model.js';
import { criteriaFromRange } from '../plan/criteria.js';
import { lineIndex } from '../plan/lines.js';
import { addTextCriterion, isLabelOnly, resolves, withoutLabelEmphasis, type CriteriaSink } from './criteria-text.js';

/**
 * The check of a fenced block, by the rules of a GSD plan's fences: a shell fence is ONE script
 * run as written (console prompts stripped), an unlabelled fence only when every line is a
 * command, other languages nothing (an example, not a criterion). `line` is the fence's line.
 */
export function fenceChecks(fence: { lang: string; value: string }, line: number, element = 'criteria'): Check[] {
  const text = `\`\`\`\`${fence.lang}\n${fence.value}\n\`\`\`\`\n`;
  const criteria = criteriaFromRange(text, 0, text.length, { lines: lineIndex(text), element, mode: 'verify', resolves });
  // The synthetic text starts at the fence line, as the file's fence does.
  return criteria.flatMap((c) => c.checks.map((check) => ({ ...check, source: { ...check.source, line: line + check.source.line - 1 } })));
}

/** Headings whose section states how the task is accepted (compared without case; a trailing `:` is fine). */
const CRITERIA_HEADING = /^(?:acceptance(?:\s+criteria)?|verification|verify|success\s+criteria|completion\s+criteria|done\s+when|definition\s+of\s+done)\s*:?$/i;

export interface BodyCriteria extends CriteriaSink {
  /** The sections' text, for the agent's prompt. */
  text: string[];
}

/**
 * Criteria from a Markdown body's criteria sections (`## Acceptance criteria`, `## Verification`,
 * ...): each bullet (`-`, `*`, `1.`, with or without `[ ]`) is read like a PRD sub-bullet, a shell
 * fence is one script; other paragraphs are description. `firstLine` is the body's first line in
 * the file, so checks carry file lines.
 */
export function bodyCriteria(body: string, firstLine: number, testsCommand: string | undefined): BodyCriteria {
  const out: BodyCriteria = { checks: [], manual: [], unrunnable: [], text: [] };
  const lines = body.split(/\r?\n/);
  let level = 0;
  let fence: { marker: string; lang: string; body: string[]; line: number; indent: number } | null = null;
  lines.forEach((raw, i) => {
    const line = firstLine + i;
    if (fence) {
      if (raw.trim().startsWith(fence.marker) && raw.trim().replace(/[`~]/g, '') === '') {
        const value = fence.body.map((l) => l.slice(Math.min(fence!.indent, l.length - l.trimStart().length))).join('\n');
        out.checks.push(...fenceChecks({ lang: fence.lang, value }, fence.line));
        out.text.push(`\`\`\`${fence.lang}\n${value}\n\`\`\``);
        fence = null;
      } else fence.body.push(raw);
      return;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(raw);
    if (heading) {
      const title = withoutLabelEmphasis(heading[2]!).replace(/[*_]/g, '').trim();
      if (CRITERIA_HEADING.test(title)) level = heading[1]!.length;
      else if (level > 0 && heading[1]!.length <= level) level = 0;
      return;
    }
    if (level === 0) return;
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(raw);
    if (open) {
      fence = { marker: open[2]!, lang: open[3]!.toLowerCase(), body: [], line, indent: open[1]!.length };
      return;
    }
    const bullet = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX~]\]\s+)?(.*)$/.exec(raw);
    if (!bullet) return;
    const text = bullet[1]!.replace(/<!--[\s\S]*?-->/g, '').trim();
    if (text === '' || isLabelOnly(withoutLabelEmphasis(text))) return;
    out.text.push(text);
    addTextCriterion(out, text, { element: 'criteria', line }, testsCommand);
  });
  return out;
}
