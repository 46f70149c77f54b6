/**
 * The registered runner extractors, in priority order (a line that two shapes could read is
 * read by the earlier). Adding one: a file here implementing `RunnerExtractor`, a fixture
 * folder `test/fixtures/fingerprint-extractors/<name>/`, and an entry below.
 */
import type { RunnerExtractor } from './contract.js';
import { ctest } from './ctest.js';
import { denoTest } from './deno-test.js';
import { dotnetTest } from './dotnet-test.js';
import { goTest } from './go-test.js';
import { gradle } from './gradle.js';
import { jest } from './jest.js';
import { libtest } from './libtest.js';
import { nodeTest } from './node-test.js';
import { numberedFailures } from './numbered-failures.js';
import { pytest } from './pytest.js';
import { surefire } from './surefire.js';
import { tap } from './tap.js';
import { unittest } from './unittest.js';
import { vitest } from './vitest.js';

export type { BlockState, RunnerExtractor } from './contract.js';

export const EXTRACTORS: readonly RunnerExtractor[] = [
  vitest,
  jest,
  pytest,
  goTest,
  libtest,
  tap,
  nodeTest,
  unittest,
  dotnetTest,
  surefire,
  gradle,
  denoTest,
  ctest,
  numberedFailures,
];
