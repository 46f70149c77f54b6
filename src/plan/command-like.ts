/**
 * Does a piece of plan text look like a shell command? Plans mention commands in three
 * ways, trusted to different degrees:
 * - `explicit`: the whole `<automated>` element is meant to be run;
 * - `code`: inline code or a shell fence, where `npm test` is a command but `src/foo.ts`
 *   and `useState` are not;
 * - `bare`: an unquoted line such as `cargo check passes` or `Build succeeds: npm run build`,
 *   accepted only when it reads as a command and not as a sentence (`make sure ...`,
 *   `test the login flow`, `go to /settings`).
 * A wrong command is worse than a missing one (the loop would retry it until it stops),
 * so unknown shapes stay prose.
 */
const EXECUTABLES = new Set(
  `node npm npx pnpm pnpx yarn bun bunx deno tsx ts-node tsc vitest jest mocha ava playwright cypress eslint prettier biome oxlint stylelint turbo nx lerna
  python python3 py pip pip3 pytest uv uvx poetry pipenv tox nox mypy ruff black flake8 pylint pyright coverage
  go gofmt golangci-lint cargo rustc rustup make cmake ctest ninja meson bazel just
  test [ grep egrep fgrep rg ag ls cat head tail wc find diff cmp stat du sort uniq cut tr sed awk jq yq xargs echo printf true false env cd pushd
  sh bash zsh fish pwsh powershell cmd timeout
  curl wget http nc ssh scp rsync
  git gh docker docker-compose podman kubectl helm terraform ansible
  java javac mvn gradle gradlew kotlinc sbt lein dotnet msbuild
  ruby bundle rake rspec rails gem php composer phpunit swift swiftc xcodebuild xcrun pod fastlane flutter dart
  mix elixir erl rebar3 stack cabal ghc perl lua julia Rscript
  sqlite3 psql mysql redis-cli mongosh supabase prisma wrangler firebase vercel netlify expo eas`.split(/\s+/),
);

/** Commands that make sense without arguments (`make`, `tsc`, `pytest`). */
const SINGLE_OK = new Set(['make', 'just', 'tsc', 'pytest', 'ls', 'true', 'mypy', 'ruff', 'phpunit', 'rspec', 'vitest', 'jest']);

/** Words that make a bare line a sentence rather than a command. */
const STOPWORDS = new Set(
  `a an the to that this these those should must will would can could may is are was were be been being it its and or but
  with without for from of in on at by as into onto when where which who whom what why how
  shows show showing displays display returns return prints print outputs appears appear
  confirm confirms confirmed verify verifies verified ensure ensures sure each every no not only also see visit navigate manually
  user users browser page screen app button click clicks`.split(/\s+/),
);

const PLACEHOLDER = /^(?:missing|tbd|todo|n\/?a|none|null|nil|tba|pending|placeholder|fixme|xxx|-+|…|\.{3})(?:\b|$)|^\[[^\]]*\]$|^<[^>]*>$|^\{\{.*\}\}$/i;

/** `MISSING`, `TBD`, `[command]`, `<command>`, `...` and similar stand-ins. */
export function isPlaceholder(text: string): boolean {
  return PLACEHOLDER.test(text.trim());
}

/**
 * Shell-ish words: whitespace splits, quotes group (`a "b c"` → 2 words). A linear scan,
 * capped: only the first words matter and real `<automated>` commands run to kilobytes.
 */
function words(text: string, max = 48): string[] {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n && out.length < max) {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
    if (i >= n) break;
    let j = i;
    let quote = '';
    while (j < n) {
      const c = text[j]!;
      if (quote) {
        if (c === '\\' && quote === '"') j++;
        else if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') break;
      j++;
    }
    out.push(text.slice(i, j));
    i = j;
  }
  return out;
}

/** The first word of a line is a known program (cheap pre-check before the full tests). */
export function startsWithProgram(text: string): boolean {
  const m = /^\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*\(?([^\s()]+)/.exec(text);
  if (!m) return false;
  const w = m[1]!;
  return EXECUTABLES.has(w) || w.includes('/') || w === 'time';
}

const ENV_ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|[^\s"'$`]*)$/;
const SCRIPT_EXT = /\.(?:sh|bash|zsh|py|rb|pl|ps1|cmd|bat)$/i;

function firstCommandWord(tokens: string[]): { index: number; word: string } | null {
  let i = 0;
  while (i < tokens.length && (ENV_ASSIGN.test(tokens[i]!) || tokens[i] === '(' || tokens[i] === '!' || tokens[i] === 'time')) i++;
  if (i >= tokens.length) return null;
  let word = tokens[i]!;
  if (word.startsWith('(')) word = word.slice(1);
  return { index: i, word };
}

/** A program name the loop may run: a known tool or an explicit script path. */
function isExecutableWord(word: string, hasArgs: boolean): boolean {
  if (EXECUTABLES.has(word)) return true;
  if (/^\.{1,2}\/[^\s]+$/.test(word)) {
    const base = word.slice(word.lastIndexOf('/') + 1);
    if (!base) return false;
    // `./gradlew`, `./scripts/check.sh`, `../bin/x --flag`; not a bare `../../etc/passwd`.
    if (!hasArgs && /(^|\/)\.\.\//.test(word) && !SCRIPT_EXT.test(base)) return false;
    return hasArgs || !base.includes('.') || SCRIPT_EXT.test(base);
  }
  if (/^\/[^\s]+$/.test(word)) {
    const base = word.slice(word.lastIndexOf('/') + 1);
    return EXECUTABLES.has(base) || /^\/(?:usr|bin|sbin|opt)\//.test(word);
  }
  // `scripts/verify.sh`, `bin/check.py`
  return /^[\w.-]+(?:\/[\w.-]+)+$/.test(word) && SCRIPT_EXT.test(word);
}

const SHELL_SYNTAX = /\|\||&&|[|;]|\$\(|\$\{?[A-Za-z_]|[<>]|^\w+=/;

/** `explicit`: the text of an `<automated>` element. */
export function looksLikeExplicitCommand(text: string): boolean {
  const t = text.trim();
  if (!t || isPlaceholder(t)) return false;
  const tokens = words(t);
  const first = firstCommandWord(tokens);
  if (first && isExecutableWord(first.word, tokens.length > first.index + 1)) return true;
  if (isCompoundCommand(t)) return true;
  if (SHELL_SYNTAX.test(t)) return !isSentence(t);
  // An unknown program with arguments (`godot --headless ...`), but not a sentence.
  return tokens.length > 1 && /^[\w./-]+$/.test(tokens[0]!) && tokens.slice(1).some((w) => w.startsWith('-')) && !isSentence(t);
}

/** Reads as English: mostly plain words, at least one stopword, no shell syntax. */
function isSentence(text: string): boolean {
  const ws = words(text.replace(/[.,;:!?]+(\s|$)/g, '$1'));
  const plain = ws.filter((w) => /^[A-Za-z][a-z'-]*$/.test(w));
  return ws.length >= 3 && plain.length / ws.length > 0.6 && plain.some((w) => STOPWORDS.has(w.toLowerCase()));
}

/**
 * A shell compound command: `if …; then …; fi`, `for/while/until …; do …; done`,
 * `case … in … esac`. The keywords alone could start a sentence; with their terminators
 * and a `;` they are unmistakably shell.
 */
function isCompoundCommand(text: string): boolean {
  return /^(?:if\s.*;\s*then\s.*\bfi|(?:for|while|until)\s.*;\s*do\s.*\bdone|case\s.*\sin\s.*\besac)\b/s.test(text);
}

/** `code`: an inline code span or a line of a shell fence. */
export function looksLikeCodeCommand(text: string): boolean {
  const t = text.trim();
  if (!t || isPlaceholder(t) || /\n/.test(t)) return false;
  if (isCompoundCommand(t)) return true;
  if (/(^|[\s=.(/])<[a-z][a-z0-9_-]*>/.test(t)) return false; // `curl https://x.<account>.dev` is a template
  if (/\[(?:YOUR|your)[_ ]|\{\{|\bYOUR_[A-Z]|(?:^|[^$\w])\{[A-Za-z_][\w-]*\}/.test(t)) return false; // `{file}`, `YOUR_KEY`
  const tokens = words(t);
  const first = firstCommandWord(tokens);
  if (!first) return false;
  const hasArgs = tokens.length > first.index + 1;
  if (!isExecutableWord(first.word, hasArgs)) return false;
  if (!hasArgs && !SINGLE_OK.has(first.word) && !first.word.includes('/')) return false;
  if ((first.word === 'test' || first.word === '[') && !/^(?:-[a-zA-Z]|!|"|'|\$)/.test(tokens[first.index + 1] ?? '')) return false;
  return true;
}

/** `bare`: an unquoted line of prose that may be a command. */
export function looksLikeBareCommand(text: string): boolean {
  const t = text.trim();
  if (!looksLikeCodeCommand(t)) return false;
  const tokens = words(t);
  const first = firstCommandWord(tokens)!;
  const rest = tokens.slice(first.index + 1).filter((w) => !/^["']/.test(w));
  if (rest.some((w) => STOPWORDS.has(w.toLowerCase().replace(/[.,;:!?)]+$/, '')))) return false;
  // One plain word after an English-looking program name (`make sure`, `go home`) is prose.
  if (rest.length === 1 && /^[a-z]+$/.test(rest[0]!) && ['go', 'find', 'cat', 'head', 'tail', 'sort', 'cut', 'echo', 'env', 'stat'].includes(first.word)) return false;
  return true;
}

/** A relative file or directory path inside the project (`src/foo.ts`, `proxy/`, `README.md`). */
export function isProjectPath(text: string): boolean {
  const t = text.trim();
  if (!t || t.length > 300 || /\s/.test(t)) return false;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t) || t.startsWith('/') || t.startsWith('~') || /^[A-Za-z]:[\\/]/.test(t)) return false;
  if (/[*?{}<>|$`"'\\]/.test(t)) return false;
  const path = t.replace(/^\.\//, '');
  if (path.split('/').some((seg) => seg === '..')) return false;
  if (!/^[\w@.+\-[\]()]+(?:\/[\w@.+\-[\]()]+)*\/?$/.test(path)) return false;
  return path.includes('/') || /\.[A-Za-z0-9]{1,8}$/.test(path);
}
