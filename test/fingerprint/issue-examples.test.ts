/**
 * Issue 17's examples, on real outputs (test/fixtures/fingerprint-corpora/tools-e): `ralf
 * fingerprint` must give the line that says what went wrong, not a frame, a summary or a
 * banner, and keep the values that tell two causes apart.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { repoRoot, runCli } from '../helpers/cli.js';

const outputs = join(repoRoot, 'test', 'fixtures', 'fingerprint-corpora', 'tools-e', 'outputs');

async function fp(rel: string): Promise<string> {
  const r = await runCli(['fingerprint', join(outputs, rel)]);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return String(r.stdout);
}

describe('ralf fingerprint gives the cause-bearing line (issue 17 examples)', () => {
  it('Lua: the error, not the traceback frame under `stack traceback:`', async () => {
    expect(await fp('lua/nil-method-trimmed/v1-base.txt')).toBe("lua5.4: config.lua: attempt to call a nil value (method trimmed)");
    expect(await fp('lua/nil-method-upper2/v3-cwd.txt')).toContain("(method upper2)");
  });

  it('ExUnit: the failed assertion and its values, not a stacktrace line', async () => {
    const a = await fp('exunit/assert-total/v1-base.txt');
    expect(a).toContain('left: 1199 ; right: 1200');
    expect(a).not.toContain('(test)');
    expect(await fp('exunit/assert-total-big/v3-color.txt')).toContain('left: 1300');
  });

  it('GHC: the indented message under `file:line:col: error:`', async () => {
    expect(await fp('ghc/not-in-scope-totl/v1-base.txt')).toContain('Variable not in scope: totl');
    expect(await fp('ghc/type-mismatch/v3-color.txt')).toContain("Couldn't match type [Char] with Int");
  });

  it('vite: the Rollup/Rolldown error after `error during build:`, not `✗ Build failed in <dur>`', async () => {
    const f = await fp('vite/unresolved-util/v3-color.txt');
    expect(f).toBe("[UNRESOLVED_IMPORT] Could not resolve util.js in main.js");
    expect(await fp('vite/unresolved-format/v1-base.txt')).toContain("format.js");
  });

  it('positions in every shape are dropped: `7:3 ✖` (stylelint), `(7:45)` (prettier), `Cannot parse: 2:70:` (black), `file:line rule` (biome)', async () => {
    expect(await fp('stylelint/invalid-hex/v2-shifted.txt')).toBe(await fp('stylelint/invalid-hex/v1-base.txt'));
    expect(await fp('stylelint/invalid-hex/v2-shifted.txt')).toBe('site.css: error: Invalid hex color #fffff');
    expect(await fp('prettier/syntax-paren/v2-shifted.txt')).toBe('[error] a.js: SyntaxError: Unexpected token, expected ,');
    expect(await fp('black/cannot-parse-paren/v2-shifted.txt')).toBe('error: cannot format cart.py: Cannot parse: EOF in multi-line statement');
    expect(await fp('biome/double-equals/v2-shifted.txt')).toBe('cart.js noDoubleEquals FIXABLE | at: return total == 0;');
  });

  it('a linter that marks errors with a glyph (stylelint `3:10 ✖ …` under its file) names its failing diagnostics', async () => {
    const units = async (rel: string) => {
      const r = await runCli(['fingerprint', '--json', join(outputs, rel)]);
      expect(r.exitCode, String(r.stderr)).toBe(0);
      return (JSON.parse(String(r.stdout)) as { failing_units: string[] }).failing_units;
    };
    expect(await units('stylelint/invalid-hex/v1-base.txt')).toEqual(['site.css: error: Invalid hex color "#fffff"']);
    expect(await units('stylelint/unknown-property/v4-extra.txt')).toEqual(['site.css: error: Unknown property "colr"']);
  });

  it('biome with forced colour (an escape per character, OSC 8 links) gives what plain output gives', async () => {
    expect(await fp('biome/double-equals/v3-color.txt')).toBe(await fp('biome/double-equals/v1-base.txt'));
    expect(await fp('biome/double-equals-b/v3-color.txt')).not.toBe(await fp('biome/double-equals/v3-color.txt'));
  });

  it('timestamps anywhere, `id=N` and tempfile names go; step numbers in messages stay', async () => {
    expect(await fp('logs/py-step-1/v1-base.txt')).toBe('ERROR build: build step 1 failed');
    expect(await fp('logs/py-step-2/v1-base.txt')).toBe('ERROR build: build step 2 failed');
    expect(await fp('logs/py-tempfile/v1-base.txt')).toBe('ERROR build: cannot parse orders-<tmp>.jsonl: record id=<id> is not JSON');
    expect(await fp('logs/pino-iso-error/v2-shifted.txt')).toBe('ERROR [pid <pid>] upstream returned 503 for request');
  });

  it('ava: the values, so two different wrong values differ', async () => {
    expect(await fp('ava/is-total/v1-base.txt')).toContain('- 1199 ; + 1200');
    expect(await fp('ava/is-total-big/v3-color.txt')).toContain('- 1300 ; + 1200');
  });

  it('sqlfluff: the rule line under the file header, so near misses in one file differ', async () => {
    expect(await fp('sqlfluff/keywords-lower/v1-base.txt')).toContain('L010 | Keywords must be consistently upper case.');
    expect(await fp('sqlfluff/trailing-ws/v1-base.txt')).not.toBe(await fp('sqlfluff/keywords-lower/v1-base.txt'));
  });
});
