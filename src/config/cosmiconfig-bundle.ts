/** The entry of dist/lib/cosmiconfig.js: cosmiconfig on its own, for load-cosmiconfig.ts. */
export { cosmiconfigSync } from 'cosmiconfig';
