import { runGit } from './run-git.js';
import { posix } from 'node:path';
import { treeDiff, type FileChange } from './diff.js';
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
  /** `treeDiff(root, fromTree, toTree)` when the caller has it already (saves a git process). */
  changes?: FileChange[];
}


/** The finding for a file deleted outside the task's `<files>` (the verify leaves out the user's files a git command took). */
export function deletedOutsideFinding(path: string): string {
  return `deleted file outside the task's <files>: ${path}`;
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
 *  (c) files deleted (or renamed away) outside the task's `<files>`;
 *  (d) symlinks made (or a file replaced with one) that point out of the project: an absolute
 *      target or one above the project root. The checks read through it, so they pass on a file
 *      the project does not hold, and a restore or a commit would hand git a link to somewhere
 *      else on this machine; declared or not, that is for a human to decide.
 * A path covered by `taskFiles`/`declaredFiles` (exact, directory prefix or simple
 * glob) is allowed. Lockfiles are never findings by themselves.
 */
export async function rule4Findings(input: Rule4Input): Promise<string[]> {
  const { root, fromTree, toTree } = input;
  const declared = [...input.taskFiles, ...(input.declaredFiles ?? [])];
  const allowed = (path: string) => isDeclared(path, declared, root);
  const changes = input.changes ?? (await treeDiff(root, fromTree, toTree));
  const findings: string[] = [];

  for (const change of changes) {
    findings.push(...(await manifestFindings(root, fromTree, toTree, change, allowed)));
    const added = change.status === 'A' || change.status === 'R';
    if (added && isMigrationPath(change.path) && !allowed(change.path)) {
      findings.push(`new migration file: ${change.path}`);
    } else if (change.status !== 'D' && isSchemaPath(change.path) && !allowed(change.path)) {
      findings.push(`${added ? 'new schema file' : 'schema file changed'}: ${change.path}`);
    }
    if (change.status !== 'D' && change.new_mode === SYMLINK_MODE) {
      const target = await blobText(root, toTree, change.path);
      if (target !== null && pointsOutside(change.path, target)) findings.push(`symlink pointing out of the project: ${change.path} -> ${target}`);
    }
    if (change.status === 'D' && !allowed(change.path)) {
      findings.push(deletedOutsideFinding(change.path));
    } else if (change.status === 'R' && change.old_path && !allowed(change.old_path)) {
      findings.push(`deleted file outside the task's <files>: ${change.old_path} (renamed to ${change.path})`);
    }
  }
  return [...new Set(findings)].sort();
}

const SYMLINK_MODE = '120000';

/** Whether a link at `path` (relative to the project root) with `target` leads out of the project. */
export function pointsOutside(path: string, target: string): boolean {
  if (posix.isAbsolute(target) || /^[A-Za-z]:[\\/]/.test(target)) return true;
  const resolved = posix.normalize(posix.join(posix.dirname(path), target));
  return resolved === '..' || resolved.startsWith('../');
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
