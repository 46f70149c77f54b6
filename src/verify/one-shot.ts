/**
 * Watch-mode safety: a check must end. Checks run with CI=true and stdin closed, which already
 * keeps most runners one-shot (vitest watches only on a TTY outside CI); invocations that watch
 * by default or by flag are also rewritten to their one-shot form, and the rewrite is reported
 * in the check's output so the handoff shows what ran:
 *   `vitest`, `vitest src/x.test.ts`, `vitest watch|dev` → `vitest run ...`
 *   `jest --watch`, `jest --watchAll`                     → `jest` (flags dropped)
 *   `npm test` / `npm run X` / `yarn X` / `pnpm X` / `bun run X` whose package.json script is one
 *   of the above → the same invocation with `--run` (vitest) or `--watch=false --watchAll=false`
 *   (jest) passed through to the script.
 * Pure: the package.json scripts are read by the caller.
 */

export interface OneShot {
  command: string;
  note: string;
}

const SEP = String.raw`(?=\s*(?:$|[;&|)\n]))`;
/** `vitest` as a command word: at a command start, or after npx/pnpm exec/yarn/bunx. */
const VITEST = /(^|[;&|(]\s*|\n\s*|\b(?:npx|bunx|pnpx)\s+(?:-[-\w=]+\s+)*|\b(?:pnpm|yarn|bun)\s+(?:exec\s+)?|\bnpm\s+exec\s+(?:--\s+)?)vitest(?:\s+(watch|dev))?(?=\s|$|[;&|)])(?!\s+(?:run|bench|related|list|typecheck|init)\b)(?![^;&|\n]*\s--run\b)/g;
const JEST_WATCH = /(\bjest\b[^;&|\n]*?)\s+--watch(?:All)?(?:=true)?(?=\s|$|[;&|)])/g;

function watchFormOf(script: string): 'vitest' | 'jest' | null {
  if (new RegExp(VITEST.source).test(script)) return 'vitest';
  if (new RegExp(JEST_WATCH.source).test(script)) return 'jest';
  return null;
}

const SCRIPT_CALL = new RegExp(String.raw`\b(npm\s+(?:test|t|run(?:-script)?\s+([\w:.-]+))|yarn\s+(?:run\s+)?([\w:.-]+)|pnpm\s+(?:run\s+)?([\w:.-]+)|bun\s+run\s+([\w:.-]+))([^;&|\n]*?)${SEP}`, 'g');

/** The one-shot form of a check, or null when it does not watch. */
export function oneShot(command: string, scripts: Record<string, string> | null): OneShot | null {
  const notes: string[] = [];
  let out = command.replace(VITEST, (_m, pre: string, sub: string | undefined) => {
    notes.push(sub ? `vitest ${sub} → vitest run` : 'vitest → vitest run');
    return `${pre}vitest run`;
  });
  out = out.replace(JEST_WATCH, (_m, pre: string) => {
    notes.push('jest --watch dropped');
    return pre;
  });
  if (scripts) {
    out = out.replace(SCRIPT_CALL, (m, call: string, npmName?: string, yarnName?: string, pnpmName?: string, bunName?: string, args = '') => {
      const name = npmName ?? yarnName ?? pnpmName ?? bunName ?? 'test';
      if (yarnName && ['install', 'add', 'remove', 'exec', 'dlx', 'why'].includes(yarnName)) return m;
      if (pnpmName && ['install', 'add', 'remove', 'exec', 'dlx', 'why', 'i'].includes(pnpmName)) return m;
      const script = scripts[name];
      const form = script ? watchFormOf(script) : null;
      if (!form) return m;
      const extra = form === 'vitest' ? '--run' : '--watch=false --watchAll=false';
      const pass = call.startsWith('npm') && !/\s--(?:\s|$)/.test(args) ? ` -- ${extra}` : ` ${extra}`;
      notes.push(`package.json "${name}" is "${script}", which watches: ${extra} passed to it`);
      return `${call}${args}${pass}`;
    });
  }
  if (notes.length === 0 || out === command) return null;
  return { command: out, note: `run once (watch mode off): ${notes.join('; ')}` };
}
