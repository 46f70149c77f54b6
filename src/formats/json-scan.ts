/**
 * A small strict JSON reader that also records where every value sits in the text, so
 * errors can name a line and write-backs can splice one value while every other byte
 * (indentation, key order, unknown keys) stays as the user wrote it.
 */

export interface JsonLocation {
  /** Offsets of the value: text.slice(start, end) is its JSON source. */
  start: number;
  end: number;
  /** Offsets of the member's key (with quotes), for values inside objects. */
  key_start?: number;
  key_end?: number;
}

export interface ScannedJson {
  value: unknown;
  /** Path key (see `jsonPathKey`) → location. The root is `''`. */
  locations: Map<string, JsonLocation>;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const IDENT = /^[A-Za-z_$][\w$-]*$/;

/** `requirements[2].status`; keys that are not identifiers are quoted: `a["b c"]`. */
export function jsonPathKey(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (IDENT.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

export function scanJson(text: string): ScannedJson {
  const locations = new Map<string, JsonLocation>();
  let i = 0;

  const fail = (message: string, at = i): never => {
    throw new JsonSyntaxError(message, at);
  };
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const describe = (at: number) => (at >= text.length ? 'end of file' : `${JSON.stringify(text[at])}`);

  const readString = (): string => {
    const start = i;
    i++; // opening quote
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return JSON.parse(text.slice(start, i)) as string;
      }
      if (c === '\\') {
        const next = text[i + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('invalid \\u escape in string', i);
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else fail('invalid escape in string', i);
        continue;
      }
      if (c.charCodeAt(0) < 0x20) fail(c === '\n' ? 'unterminated string (line break inside a string)' : 'control character in string', i);
      i++;
    }
    return fail('unterminated string', start);
  };

  const readValue = (path: Array<string | number>, key?: { start: number; end: number }): unknown => {
    ws();
    const start = i;
    const c = text[i];
    let value: unknown;
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') i++;
      else {
        for (;;) {
          ws();
          if (text[i] !== '"') fail(`expected a double-quoted property name, found ${describe(i)}`);
          const keyStart = i;
          const k = readString();
          const keyEnd = i;
          ws();
          if (text[i] !== ':') fail(`expected ":" after property name, found ${describe(i)}`);
          i++;
          obj[k] = readValue([...path, k], { start: keyStart, end: keyEnd });
          ws();
          if (text[i] === ',') {
            const comma = i++;
            ws();
            // Point at the comma (the character to delete), not at the bracket lines below it.
            if (text[i] === '}') fail('trailing comma before "}" (delete the comma)', comma);
            continue;
          }
          if (text[i] === '}') {
            i++;
            break;
          }
          fail(`expected "," or "}", found ${describe(i)}`);
        }
      }
      value = obj;
    } else if (c === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === ']') i++;
      else {
        for (;;) {
          arr.push(readValue([...path, arr.length]));
          ws();
          if (text[i] === ',') {
            const comma = i++;
            ws();
            // Point at the comma (the character to delete), not at the bracket lines below it.
            if (text[i] === ']') fail('trailing comma before "]" (delete the comma)', comma);
            continue;
          }
          if (text[i] === ']') {
            i++;
            break;
          }
          fail(`expected "," or "]", found ${describe(i)}`);
        }
      }
      value = arr;
    } else if (c === '"') {
      value = readString();
    } else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
      if (!m) fail('invalid number');
      i += m![0].length;
      value = Number(m![0]);
    } else if (text.startsWith('true', i)) {
      i += 4;
      value = true;
    } else if (text.startsWith('false', i)) {
      i += 5;
      value = false;
    } else if (text.startsWith('null', i)) {
      i += 4;
      value = null;
    } else if (c === '/') {
      fail('comments are not allowed in JSON');
    } else if (c === "'") {
      fail('strings must use double quotes');
    } else {
      fail(`unexpected ${describe(i)}`);
    }
    locations.set(jsonPathKey(path), key ? { start, end: i, key_start: key.start, key_end: key.end } : { start, end: i });
    return value;
  };

  const value = readValue([]);
  ws();
  if (i < text.length) fail(`unexpected ${describe(i)} after the JSON value`);
  return { value, locations };
}
