/**
 * require() with a V8 code cache (Node 20 has no built-in compile cache): the first run of a
 * bundle saves the compiled code of everything it executed; later runs skip parsing and
 * compiling it. RALF_NO_CODE_CACHE=1 turns it off; any problem falls back to plain require().
 *
 * One cache file per bundle path, in a private per-user directory under the OS temp dir. The
 * file starts with the key it was made for (Node version, arch, the bundle's full path, size,
 * mtime, ctime and inode) and is used only when that key matches exactly: V8 itself checks
 * little more than the source length, so running bytecode of a different build of the same
 * length must be impossible (npm gives every installed file the same mtime; ctime and inode
 * still differ). A changed bundle rewrites its file in place; files whose bundle is gone
 * (old checkouts, test copies) are pruned whenever a cache is written, which is rare.
 * The cache holds what one run compiled: `ralf task start` compiles less than `task verify`.
 * So the first few runs of a build each rewrite it with everything they compiled (what came
 * from the cache and what was new); after REFRESH_RUNS runs it is left alone.
 */
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { fastHash } from '../fast-hash.js';

type ModuleInternals = typeof Module & {
  wrap(source: string): string;
  new (id: string, parent?: unknown): NodeJS.Module & { paths: string[]; filename: string; loaded: boolean };
  _nodeModulePaths(dir: string): string[];
};

const MAGIC = 'ralf-v8-cache 2\n';
const REFRESH_RUNS = 4;
/** A cache file not written for this long may be pruned when its bundle is gone. */
const PRUNE_AFTER_MS = 60 * 60 * 1000;

export function requireWithCodeCache(file: string, parent: NodeJS.Module | undefined): unknown {
  // Required here, not imported: the entry bundle must not load them for `--version`.
  const vm = require('node:vm') as typeof import('node:vm');
  const os = require('node:os') as typeof import('node:os');
  let source: string;
  let stat: fs.Stats;
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
  const key = `${MAGIC}${process.version} ${process.arch} ${stat.size} ${stat.mtimeMs} ${stat.ctimeMs} ${stat.ino} ${file}\n`;
  const cacheFile = path.join(dir, `${path.basename(file, '.js')}-${fastHash(file).slice(0, 12)}.bin`);
  const cached = readCache(dir, uid, cacheFile, key);
  const cachedData = cached?.data;
  const script = new vm.Script((Module as ModuleInternals).wrap(source), { filename: file, importModuleDynamically, ...(cachedData ? { cachedData } : {}) });
  const mod = new (Module as ModuleInternals)(file, parent);
  mod.filename = file;
  mod.paths = (Module as ModuleInternals)._nodeModulePaths(path.dirname(file));
  (script.runInThisContext() as (...args: unknown[]) => void).call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  const runs = cached === undefined || script.cachedDataRejected ? 0 : cached.runs;
  if (runs < REFRESH_RUNS) {
    // At exit: the cache then holds everything this run compiled, not just the top level.
    process.once('exit', () => writeCache(dir, cacheFile, key, runs + 1, script));
  }
  return mod.exports;
}

function readCache(dir: string, uid: number, cacheFile: string, key: string): { data: Buffer; runs: number } | undefined {
  try {
    // Only trust a directory that is ours and not writable by others.
    const d = fs.statSync(dir);
    if (d.uid !== uid || (d.mode & 0o022) !== 0) return undefined;
    const bytes = fs.readFileSync(cacheFile);
    const keyBytes = Buffer.byteLength(key);
    if (bytes.length <= keyBytes || bytes.toString('utf8', 0, keyBytes) !== key) return undefined;
    // `runs <n>\n` after the key, then V8's data.
    const eol = bytes.indexOf(10, keyBytes);
    const runs = /^runs (\d+)$/.exec(bytes.toString('utf8', keyBytes, eol))?.[1];
    if (eol === -1 || runs === undefined) return undefined;
    return { data: bytes.subarray(eol + 1), runs: Number(runs) };
  } catch {
    return undefined;
  }
}

function writeCache(dir: string, cacheFile: string, key: string, runs: number, script: import('node:vm').Script): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.concat([Buffer.from(`${key}runs ${runs}\n`), script.createCachedData()]));
    fs.renameSync(tmp, cacheFile);
    if (runs === 1) pruneOrphans(dir);
  } catch {
    /* a cache is optional */
  }
}

/** Removes cache files (and stray temp files) of bundles that no longer exist. */
export function pruneOrphans(dir: string, now = Date.now()): void {
  for (const name of fs.readdirSync(dir)) {
    const full = path.join(dir, name);
    try {
      if (now - fs.statSync(full).mtimeMs < PRUNE_AFTER_MS) continue;
      if (name.endsWith('.bin') && bundleExists(full)) continue;
      fs.unlinkSync(full);
    } catch {
      /* raced with another process, or not ours to judge */
    }
  }
}

function bundleExists(cacheFile: string): boolean {
  const fd = fs.openSync(cacheFile, 'r');
  try {
    const head = Buffer.alloc(4096);
    const text = head.toString('utf8', 0, fs.readSync(fd, head, 0, head.length, 0));
    if (!text.startsWith(MAGIC)) return false; // an older format
    const line = text.slice(MAGIC.length, text.indexOf('\n', MAGIC.length));
    const file = line.split(' ').slice(6).join(' ');
    return file !== '' && fs.existsSync(file);
  } finally {
    fs.closeSync(fd);
  }
}
