/**
 * The runner-extractor contract. An extractor recognises ONE shape of per-test failure
 * report shared by a family of runners (`--- FAIL: name`, `not ok N - name`, `● a › b`,
 * numbered `1) name` lists) and says, line by line, where a failing unit's block starts and
 * what the unit is called. The block reader (`../units.ts`) does the rest for every
 * extractor alike: the block's end, its first error (message line) and value lines.
 *
 * Rules: pure functions of one cleaned line (plus the small `BlockState`), general over the
 * runners sharing the shape, never naming a project or a fixture; null when the shape is
 * absent, so that the generic core decides alone. Each extractor has its own file here, its
 * own fixture folder (`test/fixtures/fingerprint-extractors/<name>/`: real outputs and the
 * units expected from them) and one entry in the list of `./index.ts`.
 */
import { SPACES } from '../normalize.js';
import type { Line } from '../lines.js';

/** What the block reader knows of the report so far, for runners whose headers need it. */
export interface BlockState {
  /** The file of the latest `FAIL <file>` line (jest prints test names without it). */
  file: string | null;
  /** Inside a numbered failures list (mocha `N failing`, rspec `Failures:`, phpunit). */
  numbered: boolean;
}

export interface RunnerExtractor {
  /** The shape's name: also its fixture folder and the `runner` of the units it finds. */
  readonly name: string;
  /**
   * Detects the header of one failing unit's block on a cleaned line: the unit's name as
   * printed (durations removed, files as basenames), or null.
   */
  header(text: string, state: BlockState): string | null;
  /**
   * A line that opens a part of the report (`FAIL test/a.test.js`, `2 failing`): updates
   * `state` and returns true. It is no unit, and it ends the block before it.
   */
  section?(text: string, state: BlockState): boolean;
  /** A one-line failure marker without a block (`test x ... FAILED`): the unit's name, or null. */
  marker?(text: string): string | null;
  /** The first error inside a block when this runner marks it (pytest's `E ` lines), or null. */
  firstError?(lines: readonly Line[], from: number, to: number): { index: number; text: string } | null;
  /** A name the runner continues over the next lines (mocha): the whole name and its last line. */
  title?(lines: readonly Line[], header: number, name: string): { name: string; end: number };
  /** Where a unit's error is when its block has none (go test -v prints it above the header). */
  errorBefore?(lines: readonly Line[], header: number, name: string): { from: number; to: number } | null;
}

const DURATION_SUFFIX = /\s+\(?\[?\d+(?:\.\d+)?\s*(?:ms|s|µs|μs|sec)\]?\)?\s*$/;

/** A unit name as printed, without its trailing duration and with single spaces. */
export function cleanName(name: string): string {
  return name.replace(DURATION_SUFFIX, '').replace(SPACES, ' ').trim();
}
