/**
 * The number of regular expressions in src/fingerprint (issue 17: it must go down, not up).
 * Counted on the TypeScript syntax tree: every regex literal and every `new RegExp` built from
 * literal text, in every file (core, extractors, tool names); not a `new RegExp` that joins
 * patterns already counted (noise.ts `anyOf`). A change that needs a new pattern removes or
 * generalises another, or raises the ceiling below on purpose, where a reviewer sees it.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../helpers/cli.js';

/** 364 before the extractor split (333 before issue 17's generic core), 332 after it; 330 before the fourth round, 329 after it and after the fifth and sixth, 324 after the seventh, the eighth and the ninth. */
const CEILING = 324;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** A pattern written out: a string or template literal (with or without substitutions). */
function isLiteralText(arg: ts.Expression | undefined): boolean {
  return arg !== undefined && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg) || ts.isTemplateExpression(arg));
}

export function countPatterns(path: string): number {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  let n = 0;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) n++;
    else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp' && isLiteralText(node.arguments?.[0])) n++;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return n;
}

describe('fingerprint patterns', () => {
  it(`count at most ${CEILING} regular expressions in src/fingerprint`, () => {
    const dir = join(repoRoot, 'src', 'fingerprint');
    const counts = files(dir).map((f) => [f.slice(dir.length + 1), countPatterns(f)] as const);
    const total = counts.reduce((sum, [, n]) => sum + n, 0);
    console.log(`fingerprint patterns: ${total} (${counts.filter(([, n]) => n > 0).map(([f, n]) => `${f} ${n}`).join(', ')})`);
    expect(total).toBeLessThanOrEqual(CEILING);
  });
});
