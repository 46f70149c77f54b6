import type { CommandModule } from './commands.js';

declare const RALF_BUNDLED: boolean | undefined;

/**
 * Loads a subcommand's module. In the built CLI each command is its own CommonJS bundle
 * (dist/cmd/<name>.js) loaded with require(): an import() here would route through
 * Node's ESM loader and cost ~20 ms of CJS export scanning per call.
 */
export function loadCommandModule(name: string): Promise<CommandModule> {
  if (typeof RALF_BUNDLED !== 'undefined' && RALF_BUNDLED) {
    // From the entry (dist/ralf.js) or from another command's bundle (dist/cmd/*.js).
    const dir = /[\\/]cmd$/.test(__dirname) ? __dirname : `${__dirname}/cmd`;
    const file = `${dir}/${name}.js`;
    return Promise.resolve((process.env.RALF_NO_CODE_CACHE ? require(file) : requireWithCodeCache(file)) as CommandModule);
  }
  // A computed specifier keeps the bundler from pulling every command into the entry.
  const specifier = ['..', 'commands', `${name}.js`].join('/');
  return import(specifier) as Promise<CommandModule>;
}

/**
 * require() with a V8 code cache (Node 20 has no built-in compile cache): the first run of a
 * command saves the compiled code of everything it executed; later runs skip parsing and
 * compiling it. The cache lives in a private per-user directory under the OS temp dir, keyed by
 * Node version and the bundle's path, size and mtime; any problem falls back to plain require().
 * RALF_NO_CODE_CACHE=1 turns it off.
 */
function requireWithCodeCache(file: string): unknown {
  const fs = require('node:fs') as typeof import('node:fs');
  const path = require('node:path') as typeof import('node:path');
  const os = require('node:os') as typeof import('node:os');
  const vm = require('node:vm') as typeof import('node:vm');
  const Module = require('node:module') as typeof import('node:module') & {
    wrap(source: string): string;
    new (id: string, parent?: unknown): NodeJS.Module & { paths: string[]; filename: string; loaded: boolean };
    _nodeModulePaths(dir: string): string[];
  };
  let source: string;
  let stat: import('node:fs').Stats;
  try {
    source = fs.readFileSync(file, 'utf8');
    stat = fs.statSync(file);
  } catch {
    return require(file);
  }
  // Bundles may still contain import() (e.g. of an ESM-only file); vm needs to be told how to
  // load it. Node releases without this constant get the plain require().
  const importModuleDynamically = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  if (importModuleDynamically === undefined) return require(file);
  const uid = process.getuid?.() ?? 0;
  const dir = path.join(os.tmpdir(), `ralf-lite-v8-${uid}`);
  const key = `${process.version}-${process.arch}-${stat.size}-${Math.round(stat.mtimeMs)}-${Buffer.from(file).toString('base64url').slice(-40)}`;
  const cacheFile = path.join(dir, `${path.basename(file, '.js')}-${key}.bin`);
  let cachedData: Buffer | undefined;
  try {
    // Only trust a directory that is ours and not writable by others.
    const d = fs.statSync(dir);
    if (d.uid === uid && (d.mode & 0o022) === 0) cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, importModuleDynamically, ...(cachedData ? { cachedData } : {}) });
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  (script.runInThisContext() as (...args: unknown[]) => void).call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => {
      try {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const tmp = `${cacheFile}.${process.pid}`;
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, cacheFile);
      } catch {
        /* a cache is optional */
      }
    });
  }
  return mod.exports;
}
