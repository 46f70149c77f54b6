import { existsSync } from 'node:fs';

if (!existsSync('slug.mjs')) {
  console.error('Error: slug.mjs is missing');
  process.exit(1);
}
const { slugify } = await import(new URL('../slug.mjs', import.meta.url));
for (const [text, want] of [['Hello, World!', 'hello-world'], ['  a--b  ', 'a-b'], ['Ünïcode 2', 'n-code-2']]) {
  if (slugify(text) !== want) {
    console.error(`Error: slugify(${JSON.stringify(text)}) is ${JSON.stringify(slugify(text))}, expected ${JSON.stringify(want)}`);
    process.exit(1);
  }
}
console.log('ok');
