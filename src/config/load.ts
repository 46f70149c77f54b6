import { join, resolve } from 'node:path';
import { findProjectRoot } from '../fs/project-root.js';
import deepmerge from 'deepmerge';
import { RalfError, type Problem } from '../errors.js';
import { homeOf, hosts, type HostName } from '../hosts/host.js';
import { selectHost } from '../hosts/select-host.js';
import { readJsonFile } from './read-json-file.js';
import { DEFAULT_CONFIG, RalfLiteConfig } from './schema.js';
import { validateLayer } from './validate.js';

export interface ConfigFile {
  /** `user`: GSD's user defaults (~/.gsd/defaults.json); `global`: the host's get-shit-done/config.json. */
  layer: 'user' | 'global' | 'project';
  path: string;
  exists: boolean;
  /** The file has a `ralf_lite` key. */
  has_ralf_lite: boolean;
}

export interface EffectiveConfig {
  config: RalfLiteConfig;
  /** Dotted leaf key → `default` or the path of the file that set it. */
  sources: Record<string, string>;
  files: ConfigFile[];
  host: HostName;
  host_source: string;
  config_dir: string;
  config_dir_source: string;
  /** The directory holding `.planning/` (null when none was found). */
  project_root: string | null;
  /** The whole `.planning/config.json` (GSD's keys too), for fallbacks such as `workflow.test_command`. */
  project_config: Record<string, unknown> | null;
}

export interface LoadConfigOptions {
  cwd?: string | undefined;
  host?: string | undefined;
  configDir?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  home?: string | undefined;
}

export const GLOBAL_CONFIG_RELATIVE = join('get-shit-done', 'config.json');
/** GSD's user-level defaults, under `$GSD_HOME` or the home directory (what GSD's installers write). */
export const GSD_DEFAULTS_RELATIVE = join('.gsd', 'defaults.json');
export const PROJECT_CONFIG_RELATIVE = join('.planning', 'config.json');

export { findProjectRoot };

const overwriteArrays = (_target: unknown[], source: unknown[]) => source;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Dotted paths of the leaves of a config object (arrays are leaves). */
function leafPaths(value: Record<string, unknown>, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(v) && Object.keys(v).length > 0) out.push(...leafPaths(v, path));
    else out.push(path);
  }
  return out;
}

interface Layer {
  file: ConfigFile;
  value: Record<string, unknown> | undefined;
  whole: Record<string, unknown> | null;
}

function readLayer(layer: ConfigFile['layer'], path: string, problems: Problem[]): Layer {
  const read = readJsonFile(path);
  const file: ConfigFile = { layer, path, exists: read !== undefined, has_ralf_lite: false };
  if (!read) return { file, value: undefined, whole: null };
  if (!isPlainObject(read.value)) {
    problems.push({ file: path, message: 'the file must hold a JSON object', expected: 'an object', received: read.value === null ? 'null' : Array.isArray(read.value) ? 'an array' : typeof read.value });
    return { file, value: undefined, whole: null };
  }
  const whole = read.value;
  if (!('ralf_lite' in whole)) return { file, value: undefined, whole };
  file.has_ralf_lite = true;
  const value = whole.ralf_lite;
  if (!isPlainObject(value)) {
    problems.push({ file: path, key: 'ralf_lite', message: 'invalid value', expected: 'an object', received: value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value });
    return { file, value: undefined, whole };
  }
  problems.push(...validateLayer(value, path));
  return { file, value, whole };
}

/**
 * GSD's user defaults file: `$GSD_HOME/.gsd/defaults.json`, else `~/.gsd/defaults.json`. GSD's
 * installers (get-shit-done-cc 1.42, GSD Core 1.14) create it for non-Claude runtimes and
 * `/gsd-settings` saves into it; GSD itself reads it as `GSD_HOME || homedir()`.
 */
export function gsdDefaultsPath(env: NodeJS.ProcessEnv, home?: string): string {
  return join(env.GSD_HOME ? resolve(env.GSD_HOME) : homeOf({ env, home }), GSD_DEFAULTS_RELATIVE);
}

/**
 * The effective `ralf_lite` config: built-in defaults < GSD's user defaults
 * (`~/.gsd/defaults.json`) < the host's global file (`get-shit-done/config.json` in its
 * config dir: more specific, one host) < project overrides (`.planning/config.json`).
 * Objects merge deeply, arrays replace; every leaf remembers the layer that set it.
 * Reading config never writes. All problems are collected, then thrown together.
 */
export function loadConfig(options: LoadConfigOptions = {}): EffectiveConfig {
  const env = options.env ?? process.env;
  const cwd = resolve(options.cwd ?? process.cwd());
  const { host, source: hostSource } = selectHost(options.host, env);
  const { dir: configDir, source: configDirSource } = hosts[host.name].resolveConfigDir({ flag: options.configDir, env, home: options.home });
  const problems: Problem[] = [];

  const userLayer = readLayer('user', gsdDefaultsPath(env, options.home), problems);
  const globalLayer = readLayer('global', join(configDir, GLOBAL_CONFIG_RELATIVE), problems);
  const projectRoot = findProjectRoot(cwd);
  const projectLayer = projectRoot
    ? readLayer('project', join(projectRoot, PROJECT_CONFIG_RELATIVE), problems)
    : undefined;

  if (problems.length > 0) {
    throw new RalfError('config_invalid', `invalid ralf_lite configuration (${problems.length} problem${problems.length > 1 ? 's' : ''})`, { problems });
  }

  const layers = [userLayer, globalLayer, projectLayer].filter((l): l is Layer => l !== undefined);
  const sources: Record<string, string> = {};
  for (const key of leafPaths(DEFAULT_CONFIG as unknown as Record<string, unknown>)) sources[key] = 'default';
  let merged: Record<string, unknown> = DEFAULT_CONFIG as unknown as Record<string, unknown>;
  for (const layer of layers) {
    if (!layer.value) continue;
    merged = deepmerge(merged, layer.value, { arrayMerge: overwriteArrays });
    for (const key of leafPaths(layer.value)) sources[key] = layer.file.path;
  }
  // Each layer was valid on its own; the merge of valid layers is valid too, but parse
  // once more so defaults fill in and the result has exactly the schema's shape.
  const config = RalfLiteConfig.parse(merged);

  return {
    config,
    sources,
    files: layers.map((l) => l.file),
    host: host.name,
    host_source: hostSource,
    config_dir: configDir,
    config_dir_source: configDirSource,
    project_root: projectRoot,
    project_config: projectLayer?.whole ?? null,
  };
}
