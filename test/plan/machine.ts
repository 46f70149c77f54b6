/**
 * The machine the plan tests read plans on: a developer machine with the usual toolchains
 * installed (Node with npm and bun, Python, Rust, Go, make, sqlite3, coreutils, git, curl). Program resolution is the
 * CLI's edge (PATH and node_modules/.bin); tests inject this fixed machine so their results do
 * not depend on what the test runner has installed. It is input, not a list the product keeps.
 */
import type { ProgramResolver } from '../../src/plan/command-like.js';

const INSTALLED = new Set(
  `node npm npx pnpm yarn tsc vitest jest eslint prettier playwright python python3 pip pytest uv cargo rustc go make cmake
  bun sqlite3 grep ls cat head tail wc find diff sort uniq cut tr sed awk jq xargs env git curl wget docker bash sh`.split(/\s+/),
);

export const DEV_MACHINE: ProgramResolver = (name) => INSTALLED.has(name);
