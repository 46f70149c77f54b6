/**
 * XML/HTML entity decoding, applied exactly once to element text and attribute values.
 * Real plans mix raw `&&` with `&amp;&amp;` (sometimes in one file): decoding once turns
 * `&amp;&amp;` into `&&`, leaves raw `&&` alone, and keeps `&amp;lt;` as `&lt;`.
 */
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,6}));/g;

export function decodeEntities(text: string): string {
  if (text.indexOf('&') === -1) return text;
  return text.replace(ENTITY, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED[name] ?? whole;
    const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return whole;
    return String.fromCodePoint(code);
  });
}
