/**
 * Does a piece of plan text read as a shell command? Plans mention commands in three
 * ways, trusted to different degrees:
 * - `explicit`: the text of an `<automated>` element is meant to be run, installed or not,
 *   unless it is a placeholder (`MISSING`, `TBD`) or an English sentence;
 * - `code`: inline code, where `npm test` is a command but `src/foo.ts` and `useState` are not;
 * - `bare`: an unquoted line such as `cargo check passes`, accepted only when it reads as a
 *   command and not as a sentence (`make sure ...`, `test the login flow`, `go to /settings`).
 *
 * There is no list of tools: a line is a command when its first shell word RESOLVES — a shell
 * builtin or keyword, a `./path` or `dir/script.sh`, or a program the injected resolver knows
 * (PATH and `node_modules/.bin` at the CLI edge, see resolve-programs.ts). A sentence test keeps
 * prose that starts with a program's name (`make sure`, `test the flow`, `find a way`) prose.
 */
import { firstCommand, firstProgram, hasShellSyntax, scriptCommands, shellTokens, simpleCommands } from './shell-words.js';

/** Whether a program name (no `/`) can be run here: PATH, `node_modules/.bin`, ... */
export type ProgramResolver = (name: string) => boolean;

/** Resolves nothing but builtins and paths (the pure default; the CLI injects the machine's). */
export const NO_PROGRAMS: ProgramResolver = () => false;

/** Shell builtins and reserved words (POSIX and bash): they resolve in every shell that runs checks. */
export const SHELL_BUILTINS = new Set(
  `[ [[ test true false : . source cd pwd echo printf read set unset export readonly shift exit return eval exec
  wait sleep kill trap umask ulimit times type command hash alias unalias getopts let local declare typeset pushd popd
  if then else elif fi for while until do done case esac function select time !`.split(/\s+/),
);

/** Words that make a bare line a sentence rather than a command. */
const STOPWORDS = new Set(
  `a an the to that this these those should must will would can could may is are was were be been being it its and or but
  with without for from of in on at by as into onto when where which who whom what why how
  shows show showing displays display returns return prints print outputs appears appear matches contains includes equals
  passes succeeds exits completes works compiles starts
  confirm confirms confirmed verify verifies verified ensure ensures sure each every no not only also see visit navigate manually
  user users browser page screen app button click clicks`.split(/\s+/),
);

const PLACEHOLDER = /^(?:missing|tbd|todo|n\/?a|none|null|nil|tba|pending|placeholder|fixme|xxx|-+|…|\.{3})(?:\b|$)|^\[(?!\s)[^\]]*\]$|^<[^>]*>$|^\{\{.*\}\}$/i;

/** `MISSING`, `TBD`, `[command]`, `<command>`, `...` and similar stand-ins. */
export function isPlaceholder(text: string): boolean {
  return PLACEHOLDER.test(text.trim());
}

/**
 * A template's slot left as it was (`<automated>cmd</automated>`, `command`, `YOUR_TEST_CMD`):
 * ONE word, no arguments, no shell syntax, that names a command instead of being one. Two
 * general cases, neither a list of tools:
 * - a shell builtin alone, other than `true`/`false` (the exception the inline-code rule makes
 *   too): `command`, `exec`, `eval`, `cd`, `echo` with nothing to act on do nothing a check
 *   could observe and succeed, a silent green;
 * - a word that does not resolve here and whose label says it stands for a command: a part
 *   (split at `-`, `_`, `.`) is `cmd`, `command` or `your`.
 * Any other lone word stays a check installed or not (`actionlint` fails honestly with
 * "command not found" where it is missing), and so does anything with arguments.
 */
export function isTemplateSlot(text: string, resolves: ProgramResolver = NO_PROGRAMS): boolean {
  const t = text.trim();
  if (!/^[A-Za-z_][\w.+-]*$/.test(t)) return false;
  if (t === 'true' || t === 'false') return false;
  if (SHELL_BUILTINS.has(t)) return true;
  if (resolves(t)) return false;
  return t.toLowerCase().split(/[-_.]+/).some((part) => SLOT_LABELS.has(part));
}

/** Words a template uses to label a command slot. */
const SLOT_LABELS = new Set(['cmd', 'command', 'your']);

/** Whitespace-separated words with quotes kept together (for the sentence test only). */
function words(text: string, max = 48): string[] {
  return (text.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).slice(0, max);
}

const SCRIPT_EXT = /\.(?:sh|bash|zsh|py|rb|pl|ps1|cmd|bat|js|mjs|cjs|ts)$/i;

/** A program word with a `/`: `./gradlew`, `../bin/x --flag`, `/usr/bin/grep`, `scripts/verify.sh`. */
function isPathProgram(word: string, hasArgs: boolean): boolean {
  if (/^\.{1,2}\/[^\s]+$/.test(word)) {
    const base = word.slice(word.lastIndexOf('/') + 1);
    if (!base) return false;
    // `../bin/x --flag`, `./scripts/check.sh`; not a bare `../../etc/passwd`.
    if (!hasArgs && /(^|\/)\.\.\//.test(word) && !SCRIPT_EXT.test(base)) return false;
    return hasArgs || !base.includes('.') || SCRIPT_EXT.test(base);
  }
  if (/^\/[^\s]+$/.test(word)) return /^\/(?:usr\/|bin\/|sbin\/|opt\/)/.test(word);
  // `bin/rails db:migrate`, `vendor/bin/phpstan analyse`: a `bin/` directory holds executables.
  if (/^(?:[\w.-]+\/)*bin\/[\w.-]+$/.test(word)) return true;
  return /^[\w.-]+(?:\/[\w.-]+)+$/.test(word) && SCRIPT_EXT.test(word) && !/\.(?:js|mjs|cjs|ts)$/i.test(word);
}

/** Does a program word resolve: builtin/keyword, path, or a program the resolver knows? */
export function programResolves(program: string, hasArgs: boolean, resolves: ProgramResolver): boolean {
  if (SHELL_BUILTINS.has(program)) return true;
  if (program.includes('/')) return isPathProgram(program, hasArgs);
  if (!/^[\w][\w.+-]*$/.test(program)) return false;
  return resolves(program);
}

/** Reads as English: mostly plain words, at least one stopword, no shell syntax. */
export function isSentence(text: string): boolean {
  const ws = words(text.replace(/[.,;:!?]+(\s|$)/g, '$1'));
  const plain = ws.filter((w) => /^[A-Za-z][a-z'-]*$/.test(w));
  // A file name, flag or path among few words (`node check.mjs a`, `composer show vendor/pkg`) makes it code, not English.
  const codeish = ws.some((w) => /\w[./]\w|^-|=|\$|^["']/.test(w));
  return ws.length >= 3 && plain.length / ws.length > (codeish ? 0.75 : 0.6) && plain.some((w) => STOPWORDS.has(w.toLowerCase()));
}

/**
 * A shell compound command: `if …; then …; fi`, `for/while/until …; do …; done`,
 * `case … in … esac`. The keywords alone could start a sentence; with their terminators
 * and a `;` they are unmistakably shell.
 */
function isCompoundCommand(text: string): boolean {
  return /^(?:if\s.*;\s*then\s.*\bfi|(?:for|while|until)\s.*;\s*do\s.*\bdone|case\s.*\sin\s.*\besac)\b/s.test(text);
}

/** Keywords that only make sense as shell when the compound form is complete. */
const COMPOUND_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'select', 'function', 'time', '!']);

/** `explicit`: the text of an `<automated>` element (one line or a whole script). */
export function looksLikeExplicitCommand(text: string, resolves: ProgramResolver = NO_PROGRAMS): boolean {
  const t = text.trim();
  if (!t || isPlaceholder(t)) return false;
  if (isCompoundCommand(t) || /\n/.test(t)) return true;
  // Anything but a sentence with shell syntax or a command-like start runs, whatever its first
  // word: `zig build test` runs whether or not zig is installed here.
  if (!isSentence(t) && (hasShellSyntax(t) || /^[\w./$"'[(!{-]/.test(t))) return true;
  // A sentence is a command only when its first word resolves (the one case that needs the
  // slow shell lexer).
  const first = firstProgram(t);
  return first !== null && !COMPOUND_KEYWORDS.has(first.program) && programResolves(first.program, first.args.length > 0, resolves) && !(first.program === 'test' || first.program === '[');
}

/** The common test of `code` and `bare`: one line whose first word resolves. */
function resolvedCommand(t: string, resolves: ProgramResolver): { program: string; args: string[] } | null {
  if (!t || isPlaceholder(t) || /\n/.test(t)) return null;
  if (/(^|[\s=.(/])<[a-z][a-z0-9_-]*>/.test(t)) return null; // `curl https://x.<account>.dev` is a template
  if (/\[(?:YOUR|your)[_ ]|\{\{|\bYOUR_[A-Z]|(?:^|[^$\w])\{[A-Za-z_][\w-]*\}/.test(t)) return null; // `{file}`, `YOUR_KEY`
  if (/(["'])(?:\.{3}|…)\1/.test(t) || /(?:^|\s)(?:\.{3}|…)(?=\s|$)/.test(t)) return null; // `-d '{"id": "..."}'`, `cd web && ... exec`: something left out for the reader to fill in
  const tokens = shellTokens(t);
  if (!tokens) return null; // unbalanced quotes: not something a shell would run as meant
  // Lexed once: the tokens of `t` serve unless a leading `(` is to be dropped first.
  const first = t.startsWith('(') ? firstProgram(t.replace(/^\(\s*/, '')) : firstCommand(tokens);
  if (!first) return null;
  // The program word must end where a shell word ends: `sum(2, 3)`, `test.each`, `env.PORT` are code, not commands.
  const at = t.indexOf(first.program);
  if (at === -1 || !/^(?:\s|$|[;|&<>])/.test(t.slice(at + first.program.length))) return null;
  if (COMPOUND_KEYWORDS.has(first.program) && !isCompoundCommand(t)) return null;
  if (!programResolves(first.program, first.args.length > 0, resolves)) return null;
  return first;
}

/** `code`: an inline code span (one line). */
export function looksLikeCodeCommand(text: string, resolves: ProgramResolver = NO_PROGRAMS): boolean {
  const t = text.trim();
  if (isCompoundCommand(t)) return true;
  const first = resolvedCommand(t, resolves);
  if (!first) return false;
  // `test` / `[` alone or followed by words is prose (`test the flow`); with an operator it is a test.
  if ((first.program === 'test' || first.program === '[') && !/^(?:-[a-zA-Z]|!|"|'|\$)/.test(first.args[0] ?? '')) return false;
  // A bare builtin word without arguments (`cd`, `echo`) is a mention, not a check.
  if (first.args.length === 0 && SHELL_BUILTINS.has(first.program) && first.program !== 'true' && first.program !== 'false') return false;
  return !isSentence(t) || hasShellSyntax(t);
}

/** A word of letters only, one of them beyond ASCII (`grün`, `é`, `проверка`); not `café.txt` or `--naïve=1`. */
const NON_ENGLISH_WORD = /^(?=[^\x00-\x7f]|[A-Za-z]+[^\x00-\x7f])[\p{L}\p{M}'’-]+[.,;:!?]*$/u;

/**
 * Words of Spanish, Portuguese, French, German and Italian sentences that are written in ASCII and
 * are no command's argument (`npm run dev y luego abrir`, `npm test pasa completo`): like a word
 * with letters beyond ASCII, they start what the line says of the command. Only words that are
 * not also English or a common argument (no `de`, `die`, `con`, `e`).
 */
const LATIN_SENTENCE_WORDS = new Set(
  `luego despues entonces debe deben tiene pasa pasan pasar compila compilar sin para los las del
  depois deve devem passa passam passar sem
  doit doivent passe passent passer sans puis ensuite avec
  muss sollte soll ohne und oder dann ebenfalls auch
  devono passare senza`.split(/\s+/),
);

/** A character of Chinese, Japanese (kana) or Korean script. */
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff01-\uff60]/;

/** Program names that are also everyday English verbs (for the one-word-object test above). */
const ENGLISH_VERBS = new Set(['go', 'find', 'cat', 'head', 'tail', 'sort', 'cut', 'echo', 'env', 'stat', 'open', 'see', 'watch', 'time', 'test', 'run', 'read', 'wait', 'kill', 'type', 'install', 'join', 'look', 'file', 'more', 'less', 'touch', 'split', 'yes', 'host', 'last', 'write']);

/** `bare`: an unquoted line of prose that may be a command. */
export function looksLikeBareCommand(text: string, resolves: ProgramResolver = NO_PROGRAMS): boolean {
  const t = text.trim();
  if (!looksLikeCodeCommand(t, resolves)) return false;
  const first = firstProgram(t.replace(/^\(\s*/, ''))!;
  const rest = first.args.filter((w) => !/^["']/.test(w));
  // Every unquoted word counts, past the first command too: in `notes/a.py app.run() is the
  // last line` the shell would stop reading at `(`, a reader does not.
  const unquoted = isCompoundCommand(t) ? [] : t.replace(/"[^"]*"|'[^']*'/g, ' ').split(/\s+/).slice(1);
  // A word glued to a comma (`passes,`) ends a clause of prose: `a passes, b shows x` is two.
  if (unquoted.some((w) => /[^,],$/.test(w))) return false;
  if ([...rest, ...unquoted].some((w) => STOPWORDS.has(w.toLowerCase().replace(/^[([]+/, '').replace(/[.,;:!?)\]]+$/, '')))) return false;
  // Words in Chinese, Japanese or Korean after the command are what the line says of it (`curl GET /api 返回 JSON`),
  // and so is a plain word with letters beyond ASCII (`npx jest a.test.js muss grün sein`): an argument
  // of that shape is rare, a sentence in German, French or Portuguese is not, and where it ends is unknown.
  if (unquoted.some((w) => CJK.test(w) || NON_ENGLISH_WORD.test(w) || LATIN_SENTENCE_WORDS.has(w.toLowerCase()))) return false;
  // `go home`, `find out`, `open settings`: one plain word after a program that is also an
  // English verb is prose; `cargo check`, `make build`, `npm test` are not verbs-then-object.
  if (rest.length === 1 && /^[a-z]+$/.test(rest[0]!) && ENGLISH_VERBS.has(first.program)) return false;
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

/**
 * Subcommand and script words that name a process meant to keep running: a development
 * server, a watcher, a database browser, a listener, a serial or log monitor, a queue consumer
 * (`dev`, `start`, `serve`, `watch`, `studio`, `preview`, `runserver`, `listen`, `monitor`,
 * `consume`; a dotted task name by its last name: `mix phx.server`). A script name of parts (`start:dev`, `db:studio`, `build:server`) is one when
 * any part is `watch`, its first part is such a word, or its last part is (not `server`) after a
 * first part that is not a one-shot verb: `build:dev` and `build:server` build, `db:studio` serves.
 */
const LONG_RUNNING_PARTS = new Set(['dev', 'start', 'serve', 'server', 'watch', 'studio', 'preview', 'runserver', 'listen', 'monitor', 'consume']);
const ONE_SHOT_PARTS = new Set(['build', 'test', 'lint', 'check', 'compile', 'typecheck', 'format', 'generate', 'deploy', 'migrate']);
/**
 * A subcommand or script name's parts, lower case (`start:dev` → start, dev), or null when the
 * word is no such name (a path, a flag, a value). After a dot only the last name counts:
 * `mix phx.server` serves and `ecto.reset` resets, `server.js` and `deploy.yaml` are files.
 */
function scriptNameParts(word: string): string[] | null {
  if (!/^[a-z0-9]+(?:[:.-][a-z0-9]+){0,2}$/i.test(word)) return null;
  return word.toLowerCase().split('.').pop()!.split(/[:-]/);
}

function longRunningWord(word: string): boolean {
  const parts = scriptNameParts(word);
  if (parts === null) return false;
  const last = parts[parts.length - 1]!;
  return parts.includes('watch') || LONG_RUNNING_PARTS.has(parts[0]!) || (last !== 'server' && LONG_RUNNING_PARTS.has(last) && !ONE_SHOT_PARTS.has(parts[0]!));
}
/** Flags that make such a command run once (`convex dev --once`). */
const RUN_ONCE_FLAG = /^--(?:once|no-watch|watch=false)$/;
/**
 * `up` brings a set of services up and stays attached to them (`docker compose up --build`,
 * `tilt up`) unless told to detach or only wait until they are healthy (`-d`, `--detach`, `--wait`).
 */
const DETACH_FLAG = /^(?:-d|--detach|--wait)$/;
/** Words that hand over to a script or subcommand named by the next word (`npm run dev`, `x exec serve`). */
const RUNNER_WORDS = new Set(['run', 'exec', 'x', 'dlx']);
/** A URL on this machine (`http://localhost/...`, `localhost:3000`): something must already be listening there. */
export const LOCAL_URL = /(?:\bhttps?:\/\/(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?=[:/\s"']|$)|(?<![\w.:/-])(?:localhost|127\.0\.0\.1|0\.0\.0\.0):\d+)/i;

/**
 * Does a check start a process that does not end by itself, in the foreground (`npm run dev`,
 * `manage.py runserver`, `vite --watch`, `pnpm start:dev && curl ...`), or talk to a local
 * server that nothing before it starts (`curl http://localhost:3000` first)? As a check either
 * would hang until the timeout or fail whatever the code does: it is the author's manual
 * step, not a pass/fail command. A server started in the background (`... &`) and then talked
 * to (`... & sleep 3 && curl ...`) runs; a script that ENDS with a command sent to the background
 * (`uvicorn app:app --port 8000 &`) only starts it: its status is always 0 and verifies nothing.
 *
 * Only the shape of the words is read: the first words after the program, before any flag
 * (after a runner word such as `run`), unquoted, a longRunningWord, unless a flag says it runs
 * once (`--once`); or a `--watch` flag.
 */
export function isLongRunning(script: string): boolean {
  const unquoted = script
    .replace(/\\\n/g, ' ')
    .replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, 'Q')
    .replace(/\d*>&\d*-?|&>>?/g, '>'); // `2>&1`, `&>log` redirect; they do not background
  let background = false;
  // Whether the last command of the script runs in the background: nothing after it waits for it
  // or reads what it serves, so the script's status is always 0 and the process outlives the check.
  let endsInBackground = false;
  // Whether anything after a command sent to the background is more than a builtin (`sleep 5`,
  // `echo "check the page"`, `kill $PID`), or waits for it (`wait`): only then does the script use
  // what it started, or end with it.
  let usedAfterBackground = false;
  for (const line of unquoted.split('\n')) {
    const code = line.replace(/(^|\s)#.*$/, '$1');
    const parts = code.split(/(&&|\|\||;|\|&?|&)/);
    for (let i = 0; i < parts.length; i += 2) {
      const seg = parts[i]!.replace(/^[\s()]+|[\s()]+$/g, '');
      if (!seg) continue;
      if (parts[i + 1] === '&') {
        background = true;
        endsInBackground = true;
        continue;
      }
      endsInBackground = false;
      const words = seg.split(/\s+/);
      while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) words.shift();
      if (background && words.length > 0 && (!SHELL_BUILTINS.has(words[0]!) || words[0] === 'wait')) usedAfterBackground = true;
      if (words.length < 2 || SHELL_BUILTINS.has(words[0]!)) continue; // `cd dev` is a directory
      // `--watch`, and `port-forward` wherever it stands (`kubectl -n api port-forward svc/api 8080`).
      if (words.slice(1).some((w) => w === '--watch' || w === 'port-forward')) return true;
      // The words before the first flag (after it, a word may be the flag's value: `-t web-server:1`).
      const firstFlag = words.findIndex((w, k) => k > 0 && w.startsWith('-'));
      const lead = words.slice(1, firstFlag === -1 ? undefined : firstFlag);
      const look = RUNNER_WORDS.has(lead[0] ?? '') ? lead.slice(1, 3) : lead.slice(0, 2);
      if (look.some(longRunningWord) && !words.some((w) => RUN_ONCE_FLAG.test(w))) return true;
      if (look.includes('up') && !words.some((w) => DETACH_FLAG.test(w))) return true;
    }
  }
  if (endsInBackground) return true;
  // `npm run dev -- --open & sleep 5 && echo "check the tabs"`: started, waited for, never used.
  if (background) return !usedAfterBackground;
  // The first command that is not a builtin (`cd`, `sleep`) talks to the local server: nothing
  // before it started one (`docker compose up -d && curl localhost:8000` starts its own).
  const first = script.split(/&&|\|\||[;|\n]/).map((c) => c.trim()).find((c) => c !== '' && !c.startsWith('#') && !SHELL_BUILTINS.has(c.split(/\s+/)[0]!));
  return first !== undefined && LOCAL_URL.test(first);
}

/**
 * Subcommand and script words that publish, push or deploy outside the project, apply or upgrade
 * infrastructure, or drop, delete or reset data (`npm publish`, `git push`, `docker push`,
 * `deployctl deploy`, `terraform apply`, `helm upgrade`, `dotnet ef database drop`, `prisma migrate
 * reset`, `npm run db:reset`, `mix ecto.drop`). Such a command changes
 * something no restore brings back and no loop should repeat: what it does is the author's step.
 */
const OUTWARD_PARTS = new Set(['publish', 'push', 'deploy', 'submit', 'upload', 'apply', 'upgrade', 'drop', 'destroy', 'delete', 'purge', 'wipe', 'reset', 'fresh']);
/** Flags that make such a command only show what it would do. */
const DRY_RUN_FLAG = /^(?:--dry-?run(?:=(?!false\b).*)?|--what-?if|-WhatIf|--check)$/i;
function outwardWord(word: string): boolean {
  const parts = scriptNameParts(word);
  if (parts === null) return false;
  return OUTWARD_PARTS.has(parts[0]!) || (parts.length > 1 && OUTWARD_PARTS.has(parts[parts.length - 1]!) && !ONE_SHOT_PARTS.has(parts[0]!));
}

/**
 * Does a check publish, push or deploy, or drop, delete or reset data? Read like isLongRunning:
 * the words after each program before its first flag (after a runner word, `npm run db:reset`),
 * the subcommand path included (`dotnet ef database drop`), unless a flag makes it a dry run
 * (`npm publish --dry-run`, `kubectl delete --dry-run=client`).
 */
export function publishesOrDestroys(script: string): boolean {
  for (const cmd of scriptCommands(script)) {
    if (SHELL_BUILTINS.has(cmd.program) || cmd.args.some((a) => DRY_RUN_FLAG.test(a))) continue;
    const firstFlag = cmd.args.findIndex((a) => a.startsWith('-'));
    const lead = cmd.args.slice(0, firstFlag === -1 ? undefined : firstFlag);
    const look = RUNNER_WORDS.has(lead[0] ?? '') ? lead.slice(1, 3) : lead.slice(0, 3);
    for (const word of look) {
      if (outwardWord(word)) return true;
      // The words after a verifying subcommand are its arguments, not a subcommand path:
      // `cargo test delete` runs the tests named delete, `go vet ./reset` vets a package.
      if (VERIFYING_SUBCOMMANDS.has(word.toLowerCase())) break;
    }
  }
  return false;
}

/** Subcommands that only verify (a test filter or a target may follow them). */
const VERIFYING_SUBCOMMANDS = new Set(['test', 'tests', 'check', 'lint', 'build', 'compile', 'typecheck', 'vet', 'verify', 'spec', 'bench', 'fmt', 'format']);

/** A script whose last command counts what a pipe gives it (`git log --oneline | wc -l`): it exits 0 whatever the count. */
export function endsInCount(script: string): boolean {
  const cmds = scriptCommands(script);
  const last = cmds[cmds.length - 1];
  return cmds.length >= 2 && last !== undefined && last.program === 'wc' && cmds[cmds.length - 2]!.next === '|';
}

/** Programs that search for text: what they are said to find (`no matches`, `no importers`) is their verdict. */
const SEARCH_PROGRAMS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'zgrep']);

/** A command whose first program searches for text (`grep -rn x src`, `rg x`, `git grep x`). */
export function isSearch(command: string): boolean {
  const tokens = shellTokens(command);
  const first = tokens ? simpleCommands(tokens)[0] : undefined;
  if (!first) return false;
  return SEARCH_PROGRAMS.has(first.program) || (first.program === 'git' && first.args[0] === 'grep');
}

/** Filters that read their input from stdin when given no file: `grep PATTERN`, `jq FILTER`, `wc -l`, `sort`, `uniq`. */
const STDIN_FILTERS = new Set(['grep', 'egrep', 'fgrep', 'jq', 'wc', 'sort', 'uniq']);
/** grep options that take the next word as their value. */
const GREP_VALUE_OPTIONS = new Set(['-e', '-f', '-m', '-A', '-B', '-C', '-d', '-D', '--regexp', '--file', '--max-count', '--include', '--exclude', '--exclude-dir', '--color', '--label']);

/**
 * A command whose first program is a filter given nothing to read (`grep "opener:default"`,
 * `jq '.name'`, `wc -l`): it reads stdin, and a check's stdin is closed, so as written it can only
 * fail. In prose it names a pattern or a filter, not the author's whole command. A recursive grep
 * (`-r`), a file operand, or a pipe into a later stage are input; `rg` searches the directory.
 */
export function readsNoInput(command: string): boolean {
  const tokens = shellTokens(command);
  const first = tokens ? simpleCommands(tokens)[0] : undefined;
  if (!first || !STDIN_FILTERS.has(first.program)) return false;
  let pattern = first.program === 'grep' || first.program === 'egrep' || first.program === 'fgrep' || first.program === 'jq';
  const operands: string[] = [];
  for (let i = 0; i < first.args.length; i++) {
    const a = first.args[i]!;
    if (a === '--') {
      operands.push(...first.args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      operands.push(a);
      continue;
    }
    if (pattern && first.program !== 'jq') {
      if (/^-[A-Za-z]*[rR]|^--(?:recursive|dereference-recursive)$|^-d$|^--directories=recurse$/.test(a) && !GREP_VALUE_OPTIONS.has(a)) return false;
      if (a === '-e' || a === '--regexp' || a.startsWith('--regexp=') || a === '-f' || a === '--file' || a.startsWith('--file=')) pattern = false; // the pattern came as an option
      if (GREP_VALUE_OPTIONS.has(a)) i++;
    }
  }
  return operands.length <= (pattern ? 1 : 0);
}
