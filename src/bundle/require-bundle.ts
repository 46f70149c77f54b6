declare const RALF_BUNDLED: boolean | undefined;

/** True in the built CLI (dist/), false when running from source (tests, tsx). */
export const isBundled = typeof RALF_BUNDLED !== 'undefined' && RALF_BUNDLED;

/**
 * A bundle of the built CLI: dist/cmd/<name>.js (commands) or dist/lib/<name>.js (parts a
 * command needs only sometimes), required from the entry or from another bundle. CommonJS
 * require(), not import(): Node's ESM loader would cost ~20 ms of export scanning per call.
 * No code cache: measured, a V8 code cache saved ~5 ms per verify and ~20 ms per report
 * (docs/DEVELOPING.md), nothing a user notices next to a 30 s agent iteration.
 */
export function requireBundle(kind: 'cmd' | 'lib', name: string): unknown {
  const dist = /[\\/](cmd|lib)$/.test(__dirname) ? `${__dirname}/..` : __dirname;
  return require((require('node:path') as typeof import('node:path')).resolve(dist, kind, `${name}.js`));
}
