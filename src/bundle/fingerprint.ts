/**
 * Loads the fingerprint module (normalisation, extractors, streamed scan) when a check first
 * prints something or fails: a separate bundle (dist/lib/fingerprint.js, scripts/build.mjs),
 * so a verify whose checks pass quietly (`test -f`, `grep -q`, `true`) never parses it.
 * Synchronous, because the first output chunk must be scanned as it arrives.
 */
import { isBundled, requireBundle } from './require-bundle.js';

export type FingerprintModule = typeof import('../fingerprint/index.js');

let loaded: FingerprintModule | null = null;

/**
 * Running from source (tests) there is no bundle to require: the module is imported up front
 * instead (`preloadFingerprintModule`), and this returns it.
 */
export function fingerprintModule(): FingerprintModule {
  loaded ??= requireBundle('lib', 'fingerprint') as FingerprintModule;
  return loaded;
}

/** From source, imports the module now (a no-op in the built CLI, which requires it on first use). */
export async function preloadFingerprintModule(): Promise<void> {
  if (isBundled || loaded) return;
  // Computed: the bundler must not inline it into the command bundles.
  loaded = (await import(['..', 'fingerprint', 'index.js'].join('/'))) as FingerprintModule;
}
