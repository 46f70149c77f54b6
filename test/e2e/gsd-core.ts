/**
 * The real GSD Core (`@opengsd/gsd-core`) and the Node >= 24 it requires, for the
 * coexistence tests. Both come from the npm registry as plain tarballs (`npm pack`: no
 * dependencies, no install scripts; GSD's installer needs only its own files) into
 * node_modules/.cache/ralf-e2e/, once; later runs read them from there (or npm's cache).
 */
import { execa } from 'execa';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/cli.js';

export const GSD_CORE_VERSION = '1.14.0';
export const NODE24_VERSION = '24.21.0';

const cacheDir = join(repoRoot, 'node_modules', '.cache', 'ralf-e2e');

async function unpacked(spec: string, dirName: string): Promise<string> {
  const dir = join(cacheDir, dirName);
  if (existsSync(join(dir, 'package', 'package.json'))) return join(dir, 'package');
  mkdirSync(dir, { recursive: true });
  const packed = await execa('npm', ['pack', spec, '--pack-destination', dir, '--silent'], { reject: false, timeout: 300_000 });
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (packed.exitCode !== 0 || !tgz) throw new Error(`cannot fetch ${spec} from the npm registry (npm pack exited ${packed.exitCode}): ${packed.stderr}`);
  await execa('tar', ['xzf', join(dir, tgz), '-C', dir]);
  return join(dir, 'package');
}

export interface GsdCore {
  /** A Node >= 24 binary (GSD Core's engines). */
  node: string;
  /** GSD Core's installer (bin/install.js). */
  installer: string;
}

export async function gsdCore(): Promise<GsdCore> {
  const nodePkg = await unpacked(`node-${process.platform}-${process.arch}@${NODE24_VERSION}`, `node-${NODE24_VERSION}`);
  const gsd = await unpacked(`@opengsd/gsd-core@${GSD_CORE_VERSION}`, `gsd-core-${GSD_CORE_VERSION}`);
  return { node: join(nodePkg, 'bin', 'node'), installer: join(gsd, 'bin', 'install.js') };
}

/** Runs GSD Core's own installer for one host into `configDir` (HOME is the sandbox's). */
export async function installGsdCore(gsd: GsdCore, host: 'claude' | 'opencode', configDir: string, home: string): Promise<void> {
  const r = await execa(gsd.node, [gsd.installer, `--${host}`, '--global', '--config-dir', configDir], {
    env: { PATH: process.env.PATH, HOME: home, npm_config_offline: 'true', CI: 'true' },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 120_000,
  });
  if (r.exitCode !== 0) throw new Error(`GSD Core's installer failed (${r.exitCode}):\n${r.stdout}\n${r.stderr}`);
}

export const GSD_CC_VERSION = '1.32.0';

/** The original GSD (`get-shit-done-cc`, Node >= 20) installer, from the npm registry once, then the cache. */
export async function gsdCcInstaller(): Promise<string> {
  return join(await unpacked(`get-shit-done-cc@${GSD_CC_VERSION}`, `get-shit-done-cc-${GSD_CC_VERSION}`), 'bin', 'install.js');
}

/** Runs get-shit-done-cc's own installer for one host into `configDir` (HOME is the sandbox's). */
export async function installGsdCc(installer: string, host: 'claude' | 'opencode', configDir: string, home: string): Promise<void> {
  const r = await execa(process.execPath, [installer, `--${host}`, '--global', '--config-dir', configDir], {
    env: { PATH: process.env.PATH, HOME: home, npm_config_offline: 'true', CI: 'true' },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 120_000,
  });
  if (r.exitCode !== 0) throw new Error(`get-shit-done-cc's installer failed (${r.exitCode}):\n${r.stdout}\n${r.stderr}`);
}
