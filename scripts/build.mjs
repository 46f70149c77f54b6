// Bundles the CLI into one ESM file (dist/ralf.js). Subcommands are dynamic
// imports, which esbuild keeps lazy inside the single file (each module is
// initialised on first use), so start-up evaluates only what a command needs.
import { build } from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

try {
// cosmiconfig requires loaders for formats ralf never reads (TypeScript, JS, YAML; its JSON
// parser is replaced by ours). Stub them so they don't bloat the bundle or its parse time.
const unusedCosmiconfigLoaders = {
  name: 'stub-unused-cosmiconfig-loaders',
  setup(b) {
    b.onResolve({ filter: /^(typescript|js-yaml|parse-json|import-fresh)$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/cosmiconfig/`) ? { path: args.path, namespace: 'ralf-stub' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'ralf-stub' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not bundled into ralf (cosmiconfig loader not used)`)});`,
      loader: 'js',
    }));
  },
};

await build({
  plugins: [unusedCosmiconfigLoaders],
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
