/**
 * Where the demo's files are: `examples/demo-project/` (the project, with a real GSD
 * PLAN.md) and `examples/demo-agent/scripted-agent.mjs` (the scripted agent), shipped in
 * the npm package next to `dist/`. The built command lives at dist/cmd/demo.js and this
 * source at src/demo/assets.ts: both two levels below the package root.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RalfError } from '../errors.js';

export interface DemoAssets {
  project: string;
  agent: string;
}

export function demoAssets(): DemoAssets {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const root of [resolve(here, '..', '..'), resolve(here, '..')]) {
    const project = join(root, 'examples', 'demo-project');
    const agent = join(root, 'examples', 'demo-agent', 'scripted-agent.mjs');
    if (existsSync(join(project, '.planning')) && existsSync(agent)) return { project, agent };
  }
  throw new RalfError('demo_assets_missing', 'the demo project was not found next to the ralf bundle (examples/demo-project)', {
    exitCode: 1,
    problems: [{ message: `looked in ${resolve(here, '..', '..', 'examples')}`, hint: 'reinstall ralf-lite; the package ships examples/ next to dist/' }],
  });
}
