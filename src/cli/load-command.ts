import { isBundled, requireBundle } from '../bundle/require-bundle.js';
import type { CommandModule } from './commands.js';

/** Loads a subcommand's module: its own bundle (dist/cmd/<name>.js) in the built CLI. */
export function loadCommandModule(name: string): Promise<CommandModule> {
  if (isBundled) return Promise.resolve(requireBundle('cmd', name) as CommandModule);
  // A computed specifier keeps the bundler from pulling every command into the entry.
  const specifier = ['..', 'commands', `${name}.js`].join('/');
  return import(specifier) as Promise<CommandModule>;
}
