import type { CommandModule } from './commands.js';

declare const RALF_BUNDLED: boolean | undefined;

/**
 * Loads a subcommand's module. In the built CLI each command is its own CommonJS bundle
 * (dist/cmd/<name>.js) loaded with require(): an import() here would route through
 * Node's ESM loader and cost ~20 ms of CJS export scanning per call.
 */
export function loadCommandModule(name: string): Promise<CommandModule> {
  if (typeof RALF_BUNDLED !== 'undefined' && RALF_BUNDLED) {
    const requireCommand = require;
    return Promise.resolve(requireCommand(`${__dirname}/cmd/${name}.js`) as CommandModule);
  }
  // A computed specifier keeps the bundler from pulling every command into the entry.
  const specifier = ['..', 'commands', `${name}.js`].join('/');
  return import(specifier) as Promise<CommandModule>;
}
