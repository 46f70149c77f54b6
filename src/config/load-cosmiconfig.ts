/**
 * cosmiconfig, loaded on first use. Only a config file with `$import` needs it (see
 * read-json-file.ts), so every other start of a command that reads config skips parsing and
 * running it and its YAML parser (~100 KB; ~5 ms of `ralf plan` and `ralf config`). In the built
 * CLI it is its own bundle, dist/lib/cosmiconfig.js; from source, the package itself.
 */
import { createRequire } from 'node:module';
import { isBundled, requireBundle } from '../bundle/require-bundle.js';

export type Cosmiconfig = typeof import('cosmiconfig');

export function loadCosmiconfig(): Cosmiconfig {
  return (isBundled ? requireBundle('lib', 'cosmiconfig') : createRequire(import.meta.url)('cosmiconfig')) as Cosmiconfig;
}
