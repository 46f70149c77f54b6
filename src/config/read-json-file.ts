import type { LoaderSync, PublicExplorerSync } from 'cosmiconfig';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RalfError, lineColumnAt } from '../errors.js';
import { MiB, readRegularFile } from '../fs/read-regular-file.js';
import { findDuplicateKey } from './json-duplicate-keys.js';
import { loadCosmiconfig } from './load-cosmiconfig.js';

/** Parses JSON text; a syntax error becomes a RalfError naming the file, line and column. */
function parseJson(path: string, text: string): unknown {
  if (text.charCodeAt(0) === 0xfeff) {
    throw new RalfError('config_invalid', `${path}: file starts with a UTF-8 byte-order mark`, {
      problems: [{ file: path, line: 1, column: 1, message: 'byte-order mark (BOM) before the JSON', hint: 'Save the file as UTF-8 without BOM.' }],
    });
  }
  if (text.trim() === '') {
    throw new RalfError('config_invalid', `${path}: file is empty`, {
      problems: [{ file: path, line: 1, column: 1, message: 'empty file is not valid JSON', hint: 'Write {} or delete the file.' }],
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    const position = /at position (\d+)/.exec(message)?.[1];
    const offset = position !== undefined ? Number(position) : text.length;
    const { line, column } = lineColumnAt(text, offset);
    const what = message.replace(/\s*in JSON at position \d+.*$/s, '').replace(/^JSON\.parse: /, '');
    throw new RalfError('config_invalid', `${path}:${line}:${column}: invalid JSON: ${what}`, {
      problems: [{ file: path, line, column, message: `invalid JSON: ${what}`, hint: 'Fix the JSON syntax (trailing commas and comments are not allowed).' }],
    });
  }
  const dup = findDuplicateKey(text);
  if (dup) {
    const { line, column } = lineColumnAt(text, dup.offset);
    const first = lineColumnAt(text, dup.firstOffset).line;
    throw new RalfError('config_invalid', `${path}:${line}:${column}: duplicate key ${JSON.stringify(dup.key)} (also on line ${first})`, {
      problems: [{ file: path, line, column, key: dup.key, message: `duplicate key (also on line ${first}); JSON keeps only the last one`, hint: 'Keep one of the two entries.' }],
    });
  }
  return value;
}

/** ralf's config files are JSON; `$import` of any other kind of file is refused, never run. */
const notJson: LoaderSync = (filepath) => {
  throw new RalfError('config_invalid', `${filepath}: ralf reads JSON config files only`, {
    problems: [{ file: filepath, message: 'not a JSON file (reached through `$import`?)', hint: 'Import only .json files into a ralf config.' }],
  });
};

let explorer: PublicExplorerSync | undefined;

/**
 * cosmiconfig's factory reads a "meta config" (a `cosmiconfig` key in package.json, or
 * `.config/config.{json,yaml,js,...}`) from the process's current directory, and its options
 * override the caller's: a project file could change how ralf reads its config, or run
 * JavaScript (`.config/config.js`). There is no option to turn that lookup off, so the
 * explorer is made while the current directory is ralf's own (where no such file is); what
 * it was made with is fixed from then on.
 */
function createExplorer(): PublicExplorerSync {
  const options = {
    searchStrategy: 'none' as const,
    searchPlaces: [],
    cache: false,
    loaders: { '.json': (filepath: string, content: string) => parseJson(filepath, content), '.yaml': notJson, '.yml': notJson, '.js': notJson, '.ts': notJson, '.cjs': notJson, '.mjs': notJson, noExt: notJson },
  };
  let previous: string | null = null;
  let moved = false;
  try {
    previous = process.cwd();
  } catch {
    /* the current directory was deleted: cosmiconfig would fail on it */
  }
  try {
    process.chdir(ownDirectory());
    moved = true;
  } catch {
    /* a worker thread cannot chdir: nothing else to do */
  }
  try {
    return loadCosmiconfig().cosmiconfigSync('ralf', options);
  } finally {
    if (moved && previous !== null) process.chdir(previous);
  }
}

function ownDirectory(): string {
  return dirname(fileURLToPath(import.meta.url));
}

/**
 * Loads one JSON config file through cosmiconfig (its loader pipeline), with our
 * error reporting. Returns undefined when the file does not exist. Never writes.
 */
export function readJsonFile(path: string): { value: unknown } | undefined {
  // A FIFO (blocks forever), a device or a link to /dev/zero (never ends), a huge file: refused
  // (exit 2). The bytes come from that one non-blocking, fstat'ed descriptor, so a path swapped
  // for a FIFO after the check cannot hang a second read.
  let bytes: Buffer | null;
  try {
    bytes = readRegularFile(path, { maxBytes: 4 * MiB, what: 'config file', kind: 'config_invalid' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return undefined;
    if (code === 'EACCES' || code === 'EPERM') throw permissionDenied(path);
    if (err instanceof RalfError && err.kind === 'config_invalid' && /is a directory/.test(err.message)) {
      throw new RalfError('config_invalid', `${path} is a directory, expected a JSON file`, {
        problems: [{ file: path, message: 'is a directory', hint: 'Remove or rename the directory; config must be a JSON file.' }],
      });
    }
    throw err;
  }
  if (bytes === null) return undefined;
  const value = parseJson(path, bytes.toString('utf8'));
  // Only a `$import` chain needs cosmiconfig (it resolves and merges the imported files); it
  // reads this file again, so that path keeps a narrow check-then-read window.
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, '$import')) return { value };
  explorer ??= createExplorer();
  try {
    const result = explorer.load(path);
    // cosmiconfig answers null both for a missing file and for a file holding `null`.
    if (result === null) return existsSync(path) ? { value: null } : undefined;
    // cosmiconfig reports a whitespace-only file as empty without calling the loader.
    if (result.isEmpty) parseJson(path, '');
    return { value: result.config };
  } catch (err) {
    if (err instanceof RalfError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'EISDIR') {
      throw new RalfError('config_invalid', `${path} is a directory, expected a JSON file`, {
        problems: [{ file: path, message: 'is a directory', hint: 'Remove or rename the directory; config must be a JSON file.' }],
      });
    }
    if (code === 'EACCES' || code === 'EPERM') throw permissionDenied(path);
    throw err;
  }
}

function permissionDenied(path: string): RalfError {
  return new RalfError('config_invalid', `${path}: permission denied`, {
    problems: [{ file: path, message: 'cannot read the file (permission denied)', hint: `Make it readable: chmod u+r ${path}` }],
  });
}
