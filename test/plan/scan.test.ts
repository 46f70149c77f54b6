import { describe, expect, it } from 'vitest';
import { lineIndex, normalizeNewlines } from '../../src/plan/lines.js';
import { scanElements, type ElementNode, type ScanNode } from '../../src/plan/scan.js';
import { decodeEntities } from '../../src/plan/entities.js';

function scan(text: string) {
  const t = normalizeNewlines(text);
  return scanElements(t, lineIndex(t));
}

/** `name@line` for every element, depth-first; unclosed markers as `!name@line`. */
function shape(nodes: ScanNode[], out: string[] = []): string[] {
  for (const n of nodes) {
    if (n.kind === 'unclosed') out.push(`!${n.name}@${n.line}`);
    else {
      out.push(`${n.name}@${n.line}`);
      shape(n.children, out);
    }
  }
  return out;
}

const names = (text: string) => shape(scan(text).root.children);

describe('scanElements', () => {
  it('reads elements with attributes in either quote style, and their lines', () => {
    const r = scan('<tasks>\n<task type="auto" tdd=\'true\' gate=blocking>\n  <name>A</name>\n</task>\n</tasks>\n');
    const tasks = r.root.children[0] as ElementNode;
    const task = tasks.children[0] as ElementNode;
    expect(task.attrs).toEqual({ type: 'auto', tdd: 'true', gate: 'blocking' });
    expect([task.line, task.endLine]).toEqual([2, 4]);
    expect(names('<tasks>\n<task type="auto">\n  <name>A</name>\n</task>\n</tasks>\n')).toEqual(['tasks@1', 'task@2', 'name@3']);
  });

  it('ignores tags inside fenced code (any indentation, ``` and ~~~) and inline code', () => {
    const text = [
      '<action>',
      '    ```xml',
      '    <task type="checkpoint:decision">',
      '    ```',
      '~~~',
      '<task>',
      '~~~',
      'Use `<verify>` and ``<done>`` here.',
      '</action>',
    ].join('\n');
    expect(names(text)).toEqual(['action@1']);
  });

  it('treats a fence that is never closed as text, so later tasks are still found', () => {
    const r = scan('```bash\nnpm test\n\n<task type="auto">\n<name>x</name>\n</task>\n');
    expect(r.unclosedFences).toEqual([1]);
    expect(shape(r.root.children)).toEqual(['task@4', 'name@5']);
  });

  it('only counts <task>/<tasks> that start a line; prose mentions are text', () => {
    expect(names('Use regex to match <task type="..."> and <tasks> here.\n<task type="auto">\n</task>\n')).toEqual(['task@2']);
    expect(names('<tasks><task type="auto"><name>a</name></task></tasks>')).toEqual(['tasks@1', 'task@1', 'name@1']);
  });

  it('tolerates JSX, generics, #include, void tags and comparisons as stray tags', () => {
    const text = [
      '<action>',
      'Render <Card title="x"> with <br> and Vec<Vec<String>> rows, #include <stdio.h>, a < b && c > d.',
      '<!-- <task type="auto"> in a comment -->',
      '</action>',
      '<verify>ok</verify>',
    ].join('\n');
    const r = scan(text);
    const action = r.root.children[0] as ElementNode;
    expect(action.name).toBe('action');
    expect(action.endLine).toBe(4);
    // The stray opens were closed implicitly by </action> and left as markers inside it.
    expect(shape(action.children).every((s) => s.startsWith('!'))).toBe(true);
    expect((r.root.children[1] as ElementNode).name).toBe('verify');
  });

  it('ignores close tags with no opener and records them', () => {
    const r = scan('</task>\n<done>x</done>\n</verify>\n');
    expect(r.strayCloses).toEqual([
      { name: 'task', line: 1 },
      { name: 'verify', line: 3 },
    ]);
    expect(shape(r.root.children)).toEqual(['done@2']);
  });

  it('marks an unclosed element and moves its children to the parent', () => {
    const r = scan('<tasks>\n<task type="auto">\n<name>a</name>\n<task type="auto">\n<name>b</name>\n</task>\n</tasks>\n');
    expect(shape(r.root.children)).toEqual(['tasks@1', '!task@2', 'name@3', 'task@4', 'name@5']);
  });

  it('skips an unclosed comment as text and keeps scanning', () => {
    expect(names('<!-- never ends\n<task type="auto">\n</task>\n')).toEqual(['task@2']);
  });

  it('counts lines the same for CRLF, LF and lone CR', () => {
    expect(names('a\r\n<task type="auto">\r\n</task>\n<task type="auto">\r</task>\r<done>x</done>')).toEqual(['task@2', 'task@4', 'done@6']);
  });

  it('handles deep nesting and many stray tags without recursion or quadratic time', () => {
    const deep = `${'<div>\n'.repeat(20_000)}${'</div>\n'.repeat(20_000)}`;
    expect(scan(deep).root.children).toHaveLength(1);
    const stray = `<action>\n${'x<String> y</Other>\n'.repeat(20_000)}</action>\n`;
    const r = scan(stray);
    expect((r.root.children[0] as ElementNode).endLine).toBe(20_002);
  });
});

describe('decodeEntities', () => {
  it('decodes exactly once', () => {
    expect(decodeEntities('a &amp;&amp; b &lt;x&gt; &apos;q&apos; &quot;')).toBe(`a && b <x> 'q' "`);
    expect(decodeEntities('&amp;lt; stays &lt;')).toBe('&lt; stays <');
    expect(decodeEntities('raw && and &unknown; and &#65;&#x42;')).toBe('raw && and &unknown; and AB');
  });
});
