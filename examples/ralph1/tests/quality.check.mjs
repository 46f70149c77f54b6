// ralph1's quality gate: the whole project's checks, run after every requirement.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

if (!existsSync('wordcount.mjs')) {
  console.error('Error: wordcount.mjs is missing');
  process.exit(1);
}
const { countWords } = await import(new URL('../wordcount.mjs', import.meta.url));
for (const [text, want] of [['', 0], ['one', 1], ['  two  words ', 2]]) {
  if (countWords(text) !== want) {
    console.error(`Error: countWords(${JSON.stringify(text)}) is ${countWords(text)}, expected ${want}`);
    process.exit(1);
  }
}
const printed = execFileSync(process.execPath, ['wordcount.mjs', 'a', 'b', 'c'], { encoding: 'utf8' }).trim();
if (printed !== '3') {
  console.error(`Error: node wordcount.mjs a b c printed ${JSON.stringify(printed)}, expected "3"`);
  process.exit(1);
}
console.log('quality gate: ok');
