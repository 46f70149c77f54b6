/**
 * The first key that appears twice in one JSON object, with where (JSON.parse silently keeps
 * the last one, so `"max_iterations": 3 … "max_iterations": 50` would quietly win). Plan
 * YAML refuses duplicate keys; config JSON does the same. Runs on text JSON.parse accepted.
 */
export interface DuplicateKey {
  key: string;
  /** Offset of the second occurrence, and of the first. */
  offset: number;
  firstOffset: number;
}

export function findDuplicateKey(text: string): DuplicateKey | null {
  // One key set per open object (null for arrays); a string is a key when the next
  // non-space character is a colon.
  const stack: Array<Map<string, number> | null> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') stack.push(new Map());
    else if (c === '[') stack.push(null);
    else if (c === '}' || c === ']') stack.pop();
    else if (c === '"') {
      const start = i;
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const raw = text.slice(start, j + 1);
      i = j;
      let k = j + 1;
      while (k < text.length && /\s/.test(text[k]!)) k++;
      const keys = stack.at(-1);
      if (text[k] === ':' && keys) {
        const key = JSON.parse(raw) as string;
        const first = keys.get(key);
        if (first !== undefined) return { key, offset: start, firstOffset: first };
        keys.set(key, start);
      }
    }
  }
  return null;
}
