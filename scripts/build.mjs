// Builds the CLI into dist/ as CommonJS (Node 20's ESM loader alone costs ~15 ms of
// start-up; CJS ~3 ms), with no node_modules needed at run time:
//   dist/ralf.js          the entry: argument dispatch, help, version, error rendering (small)
//   dist/cmd/<name>.js    one self-contained bundle per subcommand, require()d on demand
//   dist/lib/<name>.js    parts a command needs only sometimes (config loading + plan parsing,
//                         which a `task verify` with a warm plan cache skips; cosmiconfig, which
//                         only a config with `$import` needs)
//   dist/package.json     {"type":"commonjs"} so .js files here are CommonJS
// One file per command keeps every invocation's parse cost to what that command needs:
// a single file holding remark, execa, zod and gray-matter costs ~25 ms more per call.
import { build } from 'esbuild';
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  // Less to parse on every call; identifiers stay readable in stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  // What cosmiconfig require()s only inside loaders and search modes ralf never uses (its own
  // loaders read JSON and refuse the rest; no search): not bundled. typescript alone is 6 MB;
  // parse-json and import-fresh ~60 KB that every config load would parse.
  external: ['typescript', 'import-fresh', 'parse-json'],
  define: { RALF_VERSION: JSON.stringify(pkg.version), RALF_BUNDLED: 'true', 'import.meta.url': '__ralfImportMetaUrl' },
  banner: { js: "const __ralfImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

const commandEntries = Object.fromEntries(
  readdirSync('src/commands')
    .filter((f) => f.endsWith('.ts'))
    .map((f) => [`cmd/${f.slice(0, -3)}`, `src/commands/${f}`]),
);
const libraryEntries = { 'lib/planning': 'src/engine/shell/planning-deps.ts', 'lib/plan-status': 'src/engine/shell/read-plan-status.ts', 'lib/human-decisions': 'src/engine/shell/human-decisions.ts', 'lib/fingerprint': 'src/fingerprint/index.ts', 'lib/cosmiconfig': 'src/config/cosmiconfig-bundle.ts' };

try {
  // No rm -rf of dist/: tests running in parallel with a rebuild must not see it vanish.
  mkdirSync('dist', { recursive: true });
  await Promise.all([
    build({ ...common, entryPoints: { ralf: 'src/cli.ts' }, outdir: 'dist', banner: { js: `#!/usr/bin/env node\n${common.banner.js}` } }),
    build({ ...common, entryPoints: { ...commandEntries, ...libraryEntries }, outdir: 'dist' }),
    // The OpenCode plugin: an ES module OpenCode imports (package export and installed copy).
    build({ ...common, format: 'esm', define: {}, banner: {}, minifyWhitespace: false, minifySyntax: false, entryPoints: { 'opencode-plugin': 'src/hook/opencode-plugin.ts' }, outExtension: { '.js': '.mjs' }, outdir: 'dist' }),
  ]);
} catch {
  process.exit(1); // esbuild already printed the errors
}
writeFileSync('dist/package.json', `${JSON.stringify({ type: 'commonjs', name: 'ralf-lite-dist', version: pkg.version }, null, 2)}\n`);
chmodSync('dist/ralf.js', 0o755);
