/**
 * remark in one place: parse (CommonMark + GFM, positions in UTF-16 offsets like JS
 * strings) and stringify with fixed options so the same tree always gives the same text.
 * Heavy: import this module lazily, only from the command path that needs it.
 */
import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify, { type Options as StringifyOptions } from 'remark-stringify';
import { unified, type Plugin } from 'unified';

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


// Finding sections needs only the block structure (headings, fences, lists, quotes, HTML
// blocks). micromark spends most of its time on inline syntax, so the locating parse turns
// every inline construct off: about 4x faster on a 2,000-line SUMMARY, same block positions.
// GFM only adds tables and footnotes, which cannot hold a heading, so it is left out too.
const inlineConstructs = [
  'attention',
  'autolink',
  'characterEscape',
  'characterReference',
  'codeText',
  'hardBreakEscape',
  'htmlText',
  'labelEnd',
  'labelStartImage',
  'labelStartLink',
];
const blockStructureOnly: Plugin<[], Root> = function () {
  const data = this.data() as { micromarkExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push({ disable: { null: inlineConstructs } });
};
const blockParser = unified().use(remarkParse).use(blockStructureOnly);

/** The document's block structure with exact positions; inline text is left raw. */
export function parseMarkdownBlocks(text: string): Root {
  return blockParser.parse(text);
}
const serializer = unified().use(remarkGfm).use(remarkStringify, stringifyOptions);

let fullParser: ReturnType<typeof fullMarkdownParser> | undefined;
function fullMarkdownParser() {
  return unified().use(remarkParse).use(remarkGfm);
}

/** A full CommonMark + GFM parse (tables, inline syntax). The report itself only needs blocks. */
export function parseMarkdown(text: string): Root {
  fullParser ??= fullMarkdownParser();
  return fullParser.parse(text);
}

/** Markdown text ending in exactly one `\n`. */
export function stringifyMarkdown(tree: Root): string {
  return `${serializer.stringify(tree).replace(/\n+$/, '')}\n`;
}
