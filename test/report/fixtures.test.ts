/**
 * input.md → output.md fixture folders under test/fixtures/report/. The expected files are
 * regenerated deliberately with `UPDATE=1 npx vitest run test/report/fixtures.test.ts`
 * and reviewed in the diff. `result.json` records what the splice did.
 */
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_HEADING, buildLoopReport } from '../../src/report/build-report.js';
import { stringifyMarkdown } from '../../src/report/markdown.js';
import { upsertSection } from '../../src/report/upsert-section.js';
import { repoRoot } from '../helpers/cli.js';
import { sampleInput } from './sample.js';

const dir = join(repoRoot, 'test', 'fixtures', 'report');
const update = process.env.UPDATE === '1';
const cases = readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory()).sort();
const section = stringifyMarkdown(buildLoopReport(sampleInput()));

// Bytes, not strings: the fixtures pin BOMs, CRLF and missing final newlines exactly.
const read = (path: string) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(readFileSync(path));

describe('report fixtures', () => {
  it('has the crafted cases', () => {
    expect(cases).toEqual(expect.arrayContaining(['bom', 'code-fences', 'crlf', 'existing-middle', 'invalid-yaml-frontmatter', 'nested-section', 'no-trailing-newline', 'self-check-pair', 'template-footer', 'unicode']));
  });

  it.each(cases)('%s', (name) => {
    const input = read(join(dir, name, 'input.md'));
    const r = upsertSection(input, section, `${name}/input.md`, REPORT_HEADING);
    const result = { action: r.action, placement: r.placement, before: r.before, line: r.line, warnings: r.warnings.map((w) => `${w.line ?? ''}: ${w.message}`) };
    const outPath = join(dir, name, 'output.md');
    const resultPath = join(dir, name, 'result.json');
    if (update || !existsSync(outPath)) {
      if (!update) throw new Error(`${outPath} is missing: run with UPDATE=1 to create it, then review it`);
      writeFileSync(outPath, Buffer.from(r.text, 'utf8'));
      writeFileSync(resultPath, `${JSON.stringify(result, null, 2)}\n`);
    }
    expect(r.text).toBe(read(outPath));
    expect(result).toEqual(JSON.parse(readFileSync(resultPath, 'utf8')));
    // Outside the section, the output is the input byte for byte.
    expect(r.text.slice(0, r.replaced.start)).toBe(input.slice(0, r.replaced.start));
    expect(r.text.slice(r.text.length - (input.length - r.replaced.end))).toBe(input.slice(r.replaced.end));
    // And running it again changes nothing.
    const again = upsertSection(r.text, section, `${name}/output.md`, REPORT_HEADING);
    expect(again.action).toBe('unchanged');
    expect(again.text).toBe(r.text);
  });
});
