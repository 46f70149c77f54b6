/**
 * Best-effort name of the tool that produced the output (reported by `--json`; the
 * fingerprint itself never depends on it). Test runners and compilers win over the
 * wrappers that ran them (npm, make, bash).
 */
import type { Line } from './lines.js';

const SIGNATURES: Array<[tool: string, re: RegExp]> = [
  ['vitest', /^\s*RUN\s+v\d+\.\d+|⎯⎯ Failed (?:Tests|Suites)|^\s*Test Files\s{2}/],
  ['jest', /^\s*Test Suites:\s|^\s*●\s\S/],
  ['pytest', /(?<!=)=+ (?:test session starts|short test summary info) =+/],
  ['node-test', /^TAP version \d+|^ℹ (?:tests|pass|fail) \d+|^# (?:pass|fail) \d+$/],
  ['mocha', /^\s*\d+ passing \(\d/],
  ['rspec', /^\d+ examples?, \d+ failures?/],
  ['phpunit', /^PHPUnit \d+\.\d+/],
  ['go', /^--- FAIL: |^(?:FAIL|ok)\s+\S+\s+(?:[\d.]+s|\[build failed\])|\.go:\d+:\d+: /],
  ['cargo', /^\s*(?:Compiling|Finished) .*(?:v\d+\.\d+|profile)|^error\[E\d{4}\]|^test result: /],
  ['tsc', /\berror TS\d{3,5}:/],
  ['eslint', /^\s*\d+:\d+\s+(?:error|warning)\s+.*\s{2}[\w@/-]+$|✖ \d+ problems? \(/],
  ['mypy', /^Found \d+ errors? in \d+ files? \(checked|: error: .*\s\s\[[\w-]+\]$/],
  ['ruff', /:\d+:\d+: [A-Z]{1,3}\d{3,4}\b/],
  ['gcc', /\.(?:c|cc|cpp|cxx|h|hpp|hh):\d+:\d+: (?:fatal )?error:|^collect2: error|^\/usr\/bin\/ld: /],
  ['javac', /\.java:\d+: error:/],
  ['maven', /^\[(?:INFO|ERROR)\] (?:BUILD|Tests run|---)/],
  ['gradle', /^> Task :|^BUILD FAILED in /],
  ['dotnet', /\berror CS\d{4}\b|\.csproj\b/],
  ['python', /^Traceback \(most recent call last\):/],
  ['node', /^Node\.js v\d+|\(node:internal\//],
  ['curl', /^curl: \(\d+\)/],
  ['make', /^make(?:\[\d+\])?: /],
  ['bash', /: line \d+: |: command not found$/],
  ['npm', /^> \S+@\S+ \S+|^npm (?:ERR!|error) /],
];

/** The most specific tool whose signature appears in the output, or null. */
export function detectTool(lines: Line[]): string | null {
  let best = SIGNATURES.length;
  for (const { text } of lines) {
    if (text.length === 0) continue;
    for (let k = 0; k < best; k++) {
      if (SIGNATURES[k]![1].test(text)) {
        best = k;
        break;
      }
    }
    if (best === 0) break;
  }
  return best < SIGNATURES.length ? SIGNATURES[best]![0] : null;
}
