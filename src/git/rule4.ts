import { runGit } from './run-git.js';
import { changedFiles, type FileChange } from './diff.js';
import { addedDependencies, manifestKind } from './manifests.js';
import { isDeclared } from './path-match.js';

export interface Rule4Input {
  root: string;
  /** Where the task started (tree or commit). */
  fromTree: string;
  /** The current snapshot (tree or commit). */
  toTree: string;
  /** The task's `<files>`. */
  taskFiles: string[];
  /** Other paths the plan declares (e.g. frontmatter `files_modified`). */
  declaredFiles?: string[];
  /** `changedFiles(root, fromTree, toTree)` when the caller has it already (saves a git process). */
  changes?: FileChange[];
}

/** New migration files: added paths only (editing an existing one is ordinary work). */
const MIGRATION_PATTERNS: RegExp[] = [
  /(^|\/)migrations?\//i, // **/migrations/**, supabase/migrations/**, prisma/migrations/**
  /(^|\/)migrate\//i, // **/migrate/** (Rails db/migrate)
  /(^|\/)alembic\/versions\//i,
  /(^|\/)(db|database)\/(.*\/)?[^/]+\.sql$/i, // *.sql under db/
  /(^|\/)drizzle\/(.*\/)?[^/]+\.sql$/i,
  /(^|\/)[^/]*[._-]migration\.[^/]+$/i, // *_migration.*, *.migration.ts
];

/** Schema definitions: added or changed. */
const SCHEMA_PATTERNS: RegExp[] = [
  /(^|\/)schema\.(sql|graphql|gql|prisma|rb)$/i,
  /(^|\/)prisma\/(.*\/)?[^/]+\.prisma$/i, // prisma/schema.prisma and multi-file prisma/schema/*.prisma
  /(^|\/)structure\.sql$/i,
];

export function isMigrationPath(path: string): boolean {
  return MIGRATION_PATTERNS.some((re) => re.test(path));
}

export function isSchemaPath(path: string): boolean {
  return SCHEMA_PATTERNS.some((re) => re.test(path));
}

async function blobText(root: string, tree: string, path: string): Promise<string | null> {
  // `<tree>:./path` resolves relative to cwd (the project root), like our diff paths.
  const r = await runGit(['cat-file', 'blob', `${tree}:./${path}`], { cwd: root, okCodes: [0, 128] });
  return r.code === 0 ? r.stdout.toString('utf8') : null;
}

/**
 * The Rule 4 diff guard: architectural changes in the diff since the task started
 * that the task did not declare. Findings are human-readable strings, sorted:
 *  (a) dependencies added to a package manifest (package.json, composer.json,
 *      requirements*.txt, pyproject.toml, Pipfile, Cargo.toml, go.mod, Gemfile);
 *  (b) new migration files, and added or changed schema files;
 *  (c) files deleted (or renamed away) outside the task's `<files>`.
 * A path covered by `taskFiles`/`declaredFiles` (exact, directory prefix or simple
 * glob) is allowed. Lockfiles are never findings by themselves.
 */
export async function rule4Findings(input: Rule4Input): Promise<string[]> {
  const { root, fromTree, toTree } = input;
  const declared = [...input.taskFiles, ...(input.declaredFiles ?? [])];
  const allowed = (path: string) => isDeclared(path, declared, root);
  const changes = input.changes ?? (await changedFiles(root, fromTree, toTree));
  const findings: string[] = [];

  for (const change of changes) {
    findings.push(...(await manifestFindings(root, fromTree, toTree, change, allowed)));
    const added = change.status === 'A' || change.status === 'R';
    if (added && isMigrationPath(change.path) && !allowed(change.path)) {
      findings.push(`new migration file: ${change.path}`);
    } else if (change.status !== 'D' && isSchemaPath(change.path) && !allowed(change.path)) {
      findings.push(`${added ? 'new schema file' : 'schema file changed'}: ${change.path}`);
    }
    if (change.status === 'D' && !allowed(change.path)) {
      findings.push(`deleted file outside the task's <files>: ${change.path}`);
    } else if (change.status === 'R' && change.old_path && !allowed(change.old_path)) {
      findings.push(`deleted file outside the task's <files>: ${change.old_path} (renamed to ${change.path})`);
    }
  }
  return [...new Set(findings)].sort();
}

async function manifestFindings(
  root: string,
  fromTree: string,
  toTree: string,
  change: FileChange,
  allowed: (path: string) => boolean,
): Promise<string[]> {
  if (change.status === 'D') return [];
  const kind = manifestKind(change.path);
  if (kind === null || allowed(change.path)) return [];
  const before = change.status === 'A' ? null : await blobText(root, fromTree, change.old_path ?? change.path);
  const after = await blobText(root, toTree, change.path);
  if (after === null) return [];
  return addedDependencies(kind, before, after).map(
    ([name, section]) => `new dependency in ${change.path}: ${name} (${section})`,
  );
}
