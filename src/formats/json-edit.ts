/**
 * Sets one member of one object in JSON text by splicing, so every other byte (indentation,
 * key order, unknown keys, number formatting) stays as the user wrote it. Pure.
 */
import { jsonPathKey, scanJson } from './json-scan.js';

export function setJsonMember(text: string, objectPath: ReadonlyArray<string | number>, key: string, value: unknown): string {
  const { value: root, locations } = scanJson(text);
  const objectKey = jsonPathKey(objectPath);
  const object = locations.get(objectKey);
  let current: unknown = root;
  for (const seg of objectPath) current = (current as Record<string | number, unknown> | undefined)?.[seg];
  if (!object || current === null || typeof current !== 'object' || Array.isArray(current)) {
    throw new Error(`no JSON object at ${objectKey || '(root)'}`);
  }
  const json = JSON.stringify(value);
  const existing = locations.get(jsonPathKey([...objectPath, key]));
  if (existing) return text.slice(0, existing.start) + json + text.slice(existing.end);

  const members = Object.keys(current)
    .map((k) => locations.get(jsonPathKey([...objectPath, k])))
    .filter((l) => l !== undefined);
  const last = members.sort((a, b) => a.end - b.end).at(-1);
  const quotedKey = JSON.stringify(key);
  if (!last || last.key_start === undefined || last.key_end === undefined) {
    return `${text.slice(0, object.start + 1)}${quotedKey}: ${json}${text.slice(object.start + 1)}`;
  }
  const separator = text.slice(last.key_end, last.start);
  const objectText = text.slice(object.start, object.end);
  if (!objectText.includes('\n')) return `${text.slice(0, last.end)}, ${quotedKey}${separator}${json}${text.slice(last.end)}`;
  const eol = objectText.includes('\r\n') ? '\r\n' : '\n';
  const lineStart = text.lastIndexOf('\n', last.key_start - 1) + 1;
  const lead = text.slice(lineStart, last.key_start);
  const indent = /^[ \t]*$/.test(lead) ? lead : (/^[ \t]*/.exec(lead)?.[0] ?? '');
  return `${text.slice(0, last.end)},${eol}${indent}${quotedKey}${separator}${json}${text.slice(last.end)}`;
}
