// The npm registry reachable from our machines serves only some platforms' optional
// packages (e.g. opencode-darwin-arm64 is a 404), so `npm install` leaves optional-dependency
// edges in package-lock.json that point at nothing, and `npm ci` then rejects the lockfile
// ("Missing: ... from lock file"). This drops those dangling optional edges; optional
// packages are optional, so the install is the same. Run after every `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
let dropped = 0;
for (const [path, entry] of Object.entries(lock.packages ?? {})) {
  if (!entry.optionalDependencies) continue;
  for (const name of Object.keys(entry.optionalDependencies)) {
    const nested = path === '' ? `node_modules/${name}` : `${path}/node_modules/${name}`;
    if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`]) {
      delete entry.optionalDependencies[name];
      dropped++;
    }
  }
}
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`fix-lockfile: dropped ${dropped} optional edge(s) with no lockfile entry`);
