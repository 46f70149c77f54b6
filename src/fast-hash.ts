/**
 * A fast non-cryptographic string hash (cyrb53, public domain, run with two seeds: 106 bits)
 * for change detection where nobody is adversarial: "is this the same diff as last time?".
 * node:crypto would do it too, but loading it costs ~4 ms, on the path that runs between
 * every agent iteration.
 */
export function fastHash(text: string): string {
  return cyrb53(text, 0) + cyrb53(text, 0x9e3779b9);
}

function cyrb53(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}
