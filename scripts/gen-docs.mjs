// Regenerates the files derived from the config schema: schemas/ralf-lite.schema.json and
// the README's configuration reference. Tests fail when either is stale.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const cli = (...args) => execFileSync(process.execPath, ['dist/ralf.js', ...args], { encoding: 'utf8' });
writeFileSync('schemas/ralf-lite.schema.json', cli('config', 'schema'));
const readme = readFileSync('README.md', 'utf8');
const next = readme.replace(
  /(<!-- config-reference:start -->\n)[\s\S]*?(<!-- config-reference:end -->)/,
  (_m, start, end) => `${start}${cli('config', 'schema', '--markdown')}${end}`,
);
writeFileSync('README.md', next);
console.log('updated schemas/ralf-lite.schema.json and README.md');
