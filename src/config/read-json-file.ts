// cosmiconfig's public factory also reads a "meta config" from the current directory
// (package.json, .config/config.*), which would let an unrelated project file change how
// ralf loads its config. Its explorer with explicit options does just the loading.
import { ExplorerSync } from 'cosmiconfig/dist/ExplorerSync.js';
import { existsSync } from 'node:fs';
import { RalfError, lineColumnAt } from '../errors.js';

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
  try {
    return JSON.parse(text);
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
}

let explorer: ExplorerSync | undefined;

/**
 * Loads one JSON config file through cosmiconfig (its loader pipeline), with our
 * error reporting. Returns undefined when the file does not exist. Never writes.
 */
export function readJsonFile(path: string): { value: unknown } | undefined {
  explorer ??= new ExplorerSync({
    moduleName: 'ralf',
    cache: false,
    searchStrategy: 'none',
    searchPlaces: [],
    ignoreEmptySearchPlaces: false,
    stopDir: undefined,
    packageProp: 'ralf',
    transform: (result) => result,
    metaConfigFilePath: null,
    mergeImportArrays: true,
    mergeSearchPlaces: true,
    applyPackagePropertyPathToConfiguration: false,
    loaders: { '.json': (filepath: string, content: string) => parseJson(filepath, content) },
  });
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
    if (code === 'EACCES' || code === 'EPERM') {
      throw new RalfError('config_invalid', `${path}: permission denied`, {
        problems: [{ file: path, message: 'cannot read the file (permission denied)', hint: `Make it readable: chmod u+r ${path}` }],
      });
    }
    throw err;
  }
}
