import { rmSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pointsOutside, rule4Findings } from '../../src/git/rule4.js';
import { snapshotWorkingTree } from '../../src/git/snapshot.js';
import { commitAll, makeRepo, write } from './helpers.js';

const pkg = (deps: Record<string, string>, dev: Record<string, string> = {}) =>
  JSON.stringify({ name: 'app', version: '1.0.0', dependencies: deps, devDependencies: dev }, null, 2) + '\n';

async function setup(files: Record<string, string>) {
  const root = makeRepo({ 'README.md': 'app\n', ...files });
  const fromTree = (await snapshotWorkingTree(root))!;
  return {
    root,
    fromTree,
    async findings(taskFiles: string[], declaredFiles?: string[]) {
      const toTree = (await snapshotWorkingTree(root))!;
      return rule4Findings({ root, fromTree, toTree, taskFiles, declaredFiles });
    },
  };
}

describe('rule4Findings', () => {
  it('finds nothing for ordinary edits inside the task files', async () => {
    const t = await setup({ 'src/a.ts': 'a\n', 'package.json': pkg({ zod: '^4' }) });
    write(t.root, { 'src/a.ts': 'a2\n', 'src/b.ts': 'b\n' });
    expect(await t.findings(['src/a.ts'])).toEqual([]);
  });

  it('flags dependencies added to package.json (all four sections), not version bumps', async () => {
    const t = await setup({ 'package.json': pkg({ zod: '^4.0.0' }) });
    write(t.root, {
      'package.json': JSON.stringify({
        dependencies: { zod: '^4.1.0', lodash: '^4' },
        devDependencies: { vitest: '^3' },
        peerDependencies: { react: '*' },
        optionalDependencies: { fsevents: '*' },
      }),
    });
    expect(await t.findings(['src/a.ts'])).toEqual([
      'new dependency in package.json: fsevents (optionalDependencies)',
      'new dependency in package.json: lodash (dependencies)',
      'new dependency in package.json: react (peerDependencies)',
      'new dependency in package.json: vitest (devDependencies)',
    ]);
    // Declared by the task: allowed.
    expect(await t.findings(['src/a.ts', 'package.json'])).toEqual([]);
    expect(await t.findings(['src/a.ts'], ['./package.json'])).toEqual([]);
  });

  it('does not flag a lockfile change alone', async () => {
    const t = await setup({ 'package.json': pkg({ zod: '^4' }), 'package-lock.json': '{"lockfileVersion":3}\n', 'Cargo.lock': 'x\n', 'go.sum': 'x\n' });
    write(t.root, { 'package-lock.json': '{"lockfileVersion":3,"packages":{}}\n', 'Cargo.lock': 'y\n', 'go.sum': 'y\n', 'yarn.lock': 'new\n', 'pnpm-lock.yaml': 'new\n' });
    expect(await t.findings([])).toEqual([]);
  });

  it('flags dependencies in the other common manifests', async () => {
    const t = await setup({
      'requirements.txt': 'requests==2.0\n',
      'pyproject.toml': '[project]\nname = "x"\ndependencies = [\n  "httpx>=0.27",\n]\n',
      'Cargo.toml': '[package]\nname = "x"\n\n[dependencies]\nserde = "1"\n',
      'go.mod': 'module example.com/x\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b v1.0.0\n)\n',
      'Gemfile': "source 'https://rubygems.org'\ngem 'rails'\n",
      'composer.json': '{"require": {"php": ">=8.1", "monolog/monolog": "^3"}}\n',
    });
    write(t.root, {
      'requirements.txt': 'requests==2.31\n# comment\nflask>=3\n',
      'pyproject.toml': '[project]\nname = "x"\ndependencies = [\n  "httpx>=0.28",\n  "pydantic[email]>=2",\n]\n',
      'Cargo.toml': '[package]\nname = "x"\n\n[dependencies]\nserde = "1.0.200"\ntokio = { version = "1", features = ["full"] }\n\n[dev-dependencies.proptest]\nversion = "1"\n',
      'go.mod': 'module example.com/x\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b v1.1.0\n\tgithub.com/c/d v0.1.0\n\tgithub.com/e/f v0.1.0 // indirect\n)\n',
      'Gemfile': "source 'https://rubygems.org'\ngem 'rails'\ngem \"sidekiq\", '~> 7'\n",
      'composer.json': '{"require": {"php": ">=8.2", "monolog/monolog": "^3", "guzzlehttp/guzzle": "^7"}}\n',
    });
    expect(await t.findings([])).toEqual([
      'new dependency in Cargo.toml: proptest (dev-dependencies)',
      'new dependency in Cargo.toml: tokio (dependencies)',
      'new dependency in Gemfile: sidekiq (gem)',
      'new dependency in composer.json: guzzlehttp/guzzle (require)',
      'new dependency in go.mod: github.com/c/d (require)',
      'new dependency in pyproject.toml: pydantic (project.dependencies)',
      'new dependency in requirements.txt: flask (requirements)',
    ]);
  });

  it('flags new migration and schema files unless declared', async () => {
    const t = await setup({ 'prisma/schema.prisma': 'model A {}\n', 'db/migrate/.keep': '', 'src/a.ts': 'a\n' });
    write(t.root, {
      'prisma/schema.prisma': 'model A {}\nmodel B {}\n',
      'db/migrate/20240101_create_users.rb': 'class CreateUsers; end\n',
      'supabase/migrations/0001_init.sql': 'create table t();\n',
      'src/db/migrations/002.ts': 'export {}\n',
      'db/seed.sql': 'insert\n',
      'src/users_migration.ts': 'x\n',
      'api/schema.graphql': 'type Query { a: Int }\n',
      'src/migration-notes.md': 'not a migration\n',
      'src/a.ts': 'a2\n',
    });
    expect(await t.findings(['src/a.ts'])).toEqual([
      'new migration file: db/migrate/20240101_create_users.rb',
      'new migration file: db/seed.sql',
      'new migration file: src/db/migrations/002.ts',
      'new migration file: src/users_migration.ts',
      'new migration file: supabase/migrations/0001_init.sql',
      'new schema file: api/schema.graphql',
      'schema file changed: prisma/schema.prisma',
    ]);
    expect(
      await t.findings(['src/a.ts', 'prisma/schema.prisma', 'db/', 'supabase/migrations/*.sql', 'src/**/*migration*', 'api/schema.graphql']),
    ).toEqual([]);
  });

  it('flags deleted (and renamed-away) files outside the task files', async () => {
    const t = await setup({ 'src/a.ts': 'a\n', 'src/old/x.ts': 'x\n', 'docs/guide.md': 'g\n', 'lib/util.ts': 'export const u = 1;\n'.repeat(10) });
    rmSync(join(t.root, 'src/a.ts'));
    rmSync(join(t.root, 'src/old/x.ts'));
    rmSync(join(t.root, 'docs/guide.md'));
    renameSync(join(t.root, 'lib'), join(t.root, 'lib2'));
    expect(await t.findings(['src/a.ts', 'src/old'])).toEqual([
      "deleted file outside the task's <files>: docs/guide.md",
      "deleted file outside the task's <files>: lib/util.ts (renamed to lib2/util.ts)",
    ]);
    expect(await t.findings(['src/**', 'docs/*.md', 'lib/util.ts'])).toEqual([]);
  });

  it('flags a symlink made or a file replaced by one when it points out of the project, declared or not; a link inside is ordinary', async () => {
    const t = await setup({ 'src/a.ts': 'a\n', 'src/b.ts': 'b\n' });
    rmSync(join(t.root, 'src/a.ts'));
    symlinkSync('/etc/hostname', join(t.root, 'src/a.ts'));
    symlinkSync('../../outside/c.ts', join(t.root, 'src/c.ts'));
    symlinkSync('../README.md', join(t.root, 'src/readme.md'));
    symlinkSync('b.ts', join(t.root, 'src/d.ts'));
    expect(await t.findings(['src/**'])).toEqual([
      'symlink pointing out of the project: src/a.ts -> /etc/hostname',
      'symlink pointing out of the project: src/c.ts -> ../../outside/c.ts',
    ]);
    expect(pointsOutside('a/b/link', '../../x')).toBe(false);
    expect(pointsOutside('a/b/link', '../../../x')).toBe(true);
    expect(pointsOutside('link', 'C:\\x')).toBe(true);
  });

  it('a tracked directory replaced by a symlink: the snapshot holds the link (git refuses to stage the files "beyond" it) and the guard finds it', async () => {
    const t = await setup({ 'src/a.ts': 'a\n', 'src/b.ts': 'b\n' });
    rmSync(join(t.root, 'src'), { recursive: true });
    symlinkSync('/etc', join(t.root, 'src'));
    expect(await t.findings(['src/**'])).toEqual(['symlink pointing out of the project: src -> /etc']);
  });

  it('compares against a commit too, and ignores the loop state', async () => {
    const root = makeRepo({ 'package.json': pkg({}) });
    const start = commitAll(root, { '.planning/ralf/x.json': '{}' });
    rmSync(join(root, '.planning/ralf/x.json'));
    write(root, { 'package.json': pkg({ express: '^4' }) });
    const toTree = (await snapshotWorkingTree(root))!;
    expect(await rule4Findings({ root, fromTree: start, toTree, taskFiles: [] })).toEqual([
      'new dependency in package.json: express (dependencies)',
    ]);
  });
});

describe('rule4Findings in a subdirectory project', () => {
  it('reports paths relative to the project root', async () => {
    const repo = makeRepo({ 'other/x.txt': 'x\n', 'app/package.json': pkg({}), 'app/src/a.ts': 'a\n' });
    const root = join(repo, 'app');
    const fromTree = (await snapshotWorkingTree(root))!;
    write(repo, { 'app/package.json': pkg({ hono: '^4' }) });
    rmSync(join(repo, 'app/src/a.ts'));
    rmSync(join(repo, 'other/x.txt'));
    const toTree = (await snapshotWorkingTree(root))!;
    expect(await rule4Findings({ root, fromTree, toTree, taskFiles: [] })).toEqual([
      "deleted file outside the task's <files>: src/a.ts",
      'new dependency in package.json: hono (dependencies)',
    ]);
  });
});
