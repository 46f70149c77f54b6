// Bundles the CLI into one ESM file (dist/ralf.js). Subcommands are dynamic
// imports, which esbuild keeps lazy inside the single file (each module is
// initialised on first use), so start-up evaluates only what a command needs.
import { build } from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

try {
await build({
  entryPoints: { ralf: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  define: { RALF_VERSION: JSON.stringify(pkg.version) },
  // CommonJS dependencies (cosmiconfig, gray-matter) call require(); give the ESM bundle one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __ralfRequire } from 'node:module';\nconst require = __ralfRequire(import.meta.url);",
  },
});
} catch {
  process.exit(1); // esbuild already printed the errors
}
chmodSync('dist/ralf.js', 0o755);
