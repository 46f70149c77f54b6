import { describe, expect, it } from 'vitest';
import { parsePlanText, planIdFromPath } from '../../src/plan/parse.js';
import { errorOf } from '../helpers/errors.js';

const parse = (text: string, path = '/p/.planning/phases/05-x/05-02-PLAN.md') => parsePlanText(text, path);

describe('plan id from the file name', () => {
  it.each([
    ['/x/01-02-PLAN.md', '01-02'],
    ['/x/09-03-FIX2-PLAN.md', '09-03-FIX2'],
    ['/x/04-01-FIX-FIX-FIX-FIX-FIX-FIX-FIX-PLAN.md', '04-01-FIX-FIX-FIX-FIX-FIX-FIX-FIX'],
    ['/x/71-FIX-PLAN.md', '71-FIX'],
    ['/x/quick/34-slug/34-PLAN.md', '34'],
    ['/x/10-01-per-rep-cadence-tracer-PLAN.md', '10-01-per-rep-cadence-tracer'],
    ['/x/phases/13-si-value-fix/PLAN.md', '13-si-value-fix'],
    ['/x/notes.md', 'notes'],
  ])('%s → %s', (path, id) => {
    expect(planIdFromPath(path)).toBe(id);
  });
});

describe('frontmatter normalisation', () => {
  it('keeps the file name spelling of numbers js-yaml turned into numbers, and coerces booleans', () => {
    const p = parse('---\nphase: 05\nplan: 02\nwave: "2"\nautonomous: "true"\ngap_closure: yes\ndepends_on: 05-01\nrequirements: A-1, A-2\nfiles-modified: [a.ts]\ncompleted: 2026-02-10\ncustom: {x: 1}\n---\n# Plan\n');
    expect(p.frontmatter).toMatchObject({ phase: '05', plan: '02', wave: 2, autonomous: true, gap_closure: true, depends_on: ['05-01'], requirements: ['A-1', 'A-2'], files_modified: ['a.ts'] });
    expect(Object.keys(p.frontmatter.extra).sort()).toEqual(['completed', 'custom']);
  });

  it('keeps "08" (invalid octal stays a string) and decimal phases as written in the file name', () => {
    expect(parse('---\nphase: 3.1\nplan: 08\n---\n# x\n', '/x/3.1-08-PLAN.md').frontmatter).toMatchObject({ phase: '3.1', plan: '08' });
  });

  it('warns about values it cannot use instead of failing', () => {
    const p = parse('---\nwave: soon\nautonomous: maybe\n---\n# x\n');
    expect(p.frontmatter.wave).toBeNull();
    expect(p.frontmatter.autonomous).toBeNull();
    expect(p.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^line 2: wave/), expect.stringMatching(/^line 3: autonomous: expected true or false, received "maybe"/)]));
  });

  it('reads must_haves as an object, a flat list of truths, or top-level keys', () => {
    const obj = parse('---\nmust_haves:\n  truths: ["works"]\n  artifacts:\n    - path: src/a.ts\n      contains: "x"\n      min_lines: "30"\n  key_links:\n    - from: a\n      to: b\n---\n# x\n');
    expect(obj.frontmatter.must_haves).toEqual({ truths: ['works'], artifacts: [{ path: 'src/a.ts', contains: 'x', min_lines: 30 }], key_links: [{ from: 'a', to: 'b' }] });
    expect(parse('---\nmust_haves:\n  - one\n  - two\n---\n# x\n').frontmatter.must_haves.truths).toEqual(['one', 'two']);
    const top = parse('---\ntruths:\n  - t\nartifacts:\n  - src/x.hpp (parser interface)\n---\n# x\n');
    expect(top.frontmatter.must_haves.artifacts).toEqual([{ path: 'src/x.hpp', provides: 'parser interface' }]);
    expect(top.warnings.join('\n')).toMatch(/top level/);
  });
});

describe('where the metadata is', () => {
  it('byte 0', () => {
    expect(parse('---\nautonomous: true\n---\n\n<task type="auto"><name>a</name></task>\n').frontmatter_source).toBe('yaml');
  });

  it('a YAML block after the # Plan heading', () => {
    const p = parse('# Plan 123-02: x\n\n---\nwave: 2\nautonomous: true\n---\n\n<task id="1">\nBody <b>x</b>\n</task>\n');
    expect(p.frontmatter_source).toBe('yaml-after-heading');
    expect(p.frontmatter).toMatchObject({ wave: 2, autonomous: true });
    expect(p.tasks[0]!.line).toBe(8);
  });

  it('frontmatter after leading blank lines, with a warning', () => {
    const p = parse('\n\n---\nphase: 01-x\nautonomous: true\n---\n<task type="auto"><name>a</name></task>\n');
    expect(p.frontmatter_source).toBe('yaml');
    expect(p.frontmatter.autonomous).toBe(true);
    expect(p.warnings).toEqual(['line 3: the frontmatter starts after blank lines, not at the first byte']);
    expect(p.tasks[0]!.line).toBe(7);
  });

  it('a horizontal rule after the heading is not frontmatter', () => {
    const p = parse('# Plan\n\n---\n\nSome text.\n\n---\n\n## Tasks\n');
    expect(p.frontmatter_source).toBe('none');
  });

  it('a fenced yaml block under ## Metadata or ## Frontmatter', () => {
    const p = parse('# Plan: x\n\n## Metadata\n```yaml\nwave: 5\nautonomous: false\ngap_closure: true\n```\n\n## Tasks\n');
    expect(p.frontmatter_source).toBe('fenced-yaml');
    expect(p.frontmatter).toMatchObject({ wave: 5, autonomous: false, gap_closure: true });
  });

  it('none', () => {
    expect(parse('# Plan\n\n## Tasks\n').frontmatter_source).toBe('none');
  });
});

describe('frontmatter errors name the file and line', () => {
  it('invalid YAML at byte 0', () => {
    const err = errorOf(() => parse('---\nphase: 1\nfiles_modified: [a, b\nautonomous: true\n---\n# x\n', '/p/01-01-PLAN.md'));
    expect(err.exitCode).toBe(2);
    expect(err.problems[0]).toMatchObject({ file: '/p/01-01-PLAN.md', line: 4 });
    expect(err.message).toMatch(/^\/p\/01-01-PLAN\.md:4: invalid YAML in the frontmatter/);
  });

  it('a second parse of the same bad text fails the same way (no gray-matter cache)', () => {
    const text = '---\nadded: [vitest, @vitest/ui]\n---\n# x\n';
    expect(errorOf(() => parse(text)).problems[0]!.line).toBe(2);
    expect(errorOf(() => parse(text)).problems[0]!.line).toBe(2);
  });

  it('unclosed frontmatter and a non-mapping', () => {
    expect(errorOf(() => parse('---\nphase: 1\n\n# x\n')).problems[0]).toMatchObject({ line: 1, message: expect.stringMatching(/never closed/) });
    expect(errorOf(() => parse('---\n- a\n---\n# x\n')).problems[0]).toMatchObject({ line: 2, received: 'a list' });
  });

  it('duplicate keys: the last value wins, with a warning naming the line', () => {
    const p = parse('---\nautonomous: false\nmust_haves:\n  artifacts:\n    - path: src/a.ts\n      contains: "old"\n      contains: "new"\nautonomous: true\n---\n# x\n');
    expect(p.frontmatter.autonomous).toBe(true);
    expect(p.frontmatter.must_haves.artifacts[0]!.contains).toBe('new');
    expect(p.warnings[0]).toMatch(/^line 7: duplicate frontmatter key/);
  });

  it('an invalid YAML block after the heading is read as Markdown, with a warning', () => {
    const p = parse('# Plan\n\n---\nwave: [1\n---\n\n## Tasks\n');
    expect(p.frontmatter_source).toBe('none');
    expect(p.warnings.join('\n')).toMatch(/not valid YAML/);
  });
});
