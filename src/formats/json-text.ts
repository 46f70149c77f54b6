/** JSON front-end files (ralph.json, requirements.json): syntax errors become RalfErrors naming file:line:col. */
import { RalfError, lineColumnAt, type Problem } from '../errors.js';
import { JsonSyntaxError, scanJson, type JsonLocation, type ScannedJson } from './json-scan.js';

export interface JsonDocument extends ScannedJson {
  /** The file started with a UTF-8 BOM (kept on write-back; offsets are into the text without it). */
  bom: boolean;
  text: string;
}

export function readJsonDocument(raw: string, path: string, kind: string): JsonDocument {
  const bom = raw.charCodeAt(0) === 0xfeff;
  const text = bom ? raw.slice(1) : raw;
  if (text.trim() === '') {
    throw new RalfError(kind, `${path}: file is empty`, {
      problems: [{ file: path, line: 1, column: 1, message: 'empty file is not valid JSON' }],
    });
  }
  try {
    return { ...scanJson(text), bom, text };
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    const { line, column } = lineColumnAt(text, err.offset);
    throw new RalfError(kind, `${path}:${line}:${column}: invalid JSON: ${err.message}`, {
      problems: [
        {
          file: path,
          line,
          column,
          message: `invalid JSON: ${err.message}`,
          hint: 'Fix the JSON syntax (trailing commas, comments and single quotes are not allowed).',
        },
      ],
    });
  }
}

/** 1-based line of the value at a path key (or of its nearest located ancestor). */
export function lineOfPath(doc: Pick<JsonDocument, 'text' | 'locations'>, key: string): number {
  let k = key;
  for (;;) {
    const loc: JsonLocation | undefined = doc.locations.get(k);
    if (loc) return lineColumnAt(doc.text, loc.key_start ?? loc.start).line;
    if (k === '') return 1;
    const parent = k.replace(/(\.[^.[\]]+|\[[^\]]*\])$/, '');
    k = parent === k ? '' : parent;
  }
}

export function invalidFile(kind: string, path: string, problems: Problem[]): RalfError {
  const first = problems[0];
  const where = first ? `${first.line ? `:${first.line}` : ''}${first.key ? `: ${first.key}` : ''}: ${first.message}` : '';
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length === 2 ? '' : 's'})` : '';
  return new RalfError(kind, `${path}${where}${more}`, { problems });
}
