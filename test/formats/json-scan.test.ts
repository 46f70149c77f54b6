import { describe, expect, it } from 'vitest';
import { setJsonMember } from '../../src/formats/json-edit.js';
import { JsonSyntaxError, jsonPathKey, scanJson } from '../../src/formats/json-scan.js';

describe('scanJson', () => {
  it('parses like JSON.parse and records where each value is', () => {
    const text = '{\n  "a": [1, {"b": "x\\u00e9\\n"}],\n  "c d": null, "e": -1.5e3, "f": true\n}';
    const { value, locations } = scanJson(text);
    expect(value).toEqual(JSON.parse(text));
    const slice = (k: string) => text.slice(locations.get(k)!.start, locations.get(k)!.end);
    expect(slice('a[1].b')).toBe('"x\\u00e9\\n"');
    expect(slice('["c d"]')).toBe('null');
    expect(slice('e')).toBe('-1.5e3');
    expect(slice('')).toBe(text);
    const a = locations.get('a')!;
    expect(text.slice(a.key_start, a.key_end)).toBe('"a"');
  });

  it('reports the offset of the first syntax error', () => {
    const cases: Array<[string, number, string]> = [
      ['{"a": 1,}', 7, 'trailing comma before "}" (delete the comma)'],
      ['[1,\n]', 2, 'trailing comma before "]" (delete the comma)'],
      ['[1 2]', 3, 'expected "," or "]", found "2"'],
      ['{"a": 1} x', 9, 'unexpected "x" after the JSON value'],
      ['{"a": // c\n1}', 6, 'comments are not allowed in JSON'],
      ['"abc', 0, 'unterminated string'],
      ['{"a": 01}', 7, 'expected "," or "}", found "1"'],
      ['', 0, 'unexpected end of file'],
    ];
    for (const [text, offset, message] of cases) {
      try {
        scanJson(text);
        throw new Error(`no error for ${text}`);
      } catch (err) {
        expect(err).toBeInstanceOf(JsonSyntaxError);
        expect([text, (err as JsonSyntaxError).offset, (err as Error).message]).toEqual([text, offset, message]);
      }
    }
  });

  it('formats path keys', () => {
    expect(jsonPathKey(['requirements', 2, 'status'])).toBe('requirements[2].status');
    expect(jsonPathKey([0, 'a.b'])).toBe('[0]["a.b"]');
  });
});

describe('setJsonMember', () => {
  it('replaces an existing value in place', () => {
    expect(setJsonMember('{ "s" :  "pending" , "n": 1.50 }', [], 's', 'done')).toBe('{ "s" :  "done" , "n": 1.50 }');
  });

  it('inserts into an empty object and matches the separator style', () => {
    expect(setJsonMember('[{}]', [0], 'status', 'done')).toBe('[{"status": "done"}]');
    expect(setJsonMember('{"a":1}', [], 'status', 'done')).toBe('{"a":1, "status":"done"}');
  });

  it('appends after the last member even when keys are integer-like', () => {
    const text = '{\n    "b": 1,\n    "2": 2\n}';
    expect(setJsonMember(text, [], 'status', 'done')).toBe('{\n    "b": 1,\n    "2": 2,\n    "status": "done"\n}');
  });
});
