/**
 * remark in one place: parse (CommonMark + GFM, positions in UTF-16 offsets like JS
 * strings) and stringify with fixed options so the same tree always gives the same text.
 * Heavy: import this module lazily, only from the command path that needs it.
 */
import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify, { type Options as StringifyOptions } from 'remark-stringify';
import { unified } from 'unified';

const stringifyOptions: StringifyOptions = {
  bullet: '-',
  bulletOther: '*',
  emphasis: '_',
  strong: '*',
  fence: '`',
  fences: true,
  rule: '-',
  listItemIndent: 'one',
  incrementListMarker: true,
  setext: false,
  closeAtx: false,
  resourceLink: true,
  tightDefinitions: true,
};

const parser = unified().use(remarkParse).use(remarkGfm);
const serializer = unified().use(remarkGfm).use(remarkStringify, stringifyOptions);

export function parseMarkdown(text: string): Root {
  return parser.parse(text);
}

/** Markdown text ending in exactly one `\n`. */
export function stringifyMarkdown(tree: Root): string {
  return `${serializer.stringify(tree).replace(/\n+$/, '')}\n`;
}
