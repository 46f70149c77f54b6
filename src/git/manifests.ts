/**
 * Dependency names declared by common package manifests, parsed "in a simple way":
 * enough to tell that a dependency was ADDED between two versions of a manifest
 * (the Rule 4 guard), not a full parser for each format. Pure functions of text.
 */

export type ManifestKind =
  | 'package.json'
  | 'composer.json'
  | 'requirements'
  | 'pyproject'
  | 'pipfile'
  | 'cargo'
  | 'go.mod'
  | 'gemfile';

/** Which manifest format a repository path is, or null. */
export function manifestKind(path: string): ManifestKind | null {
  if (/(^|\/)node_modules\//.test(path) || /(^|\/)vendor\//.test(path)) return null;
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base === 'package.json') return 'package.json';
  if (base === 'composer.json') return 'composer.json';
  if (/^requirements.*\.txt$/i.test(base) || /(^|\/)requirements\/[^/]+\.txt$/i.test(path)) return 'requirements';
  if (base === 'pyproject.toml') return 'pyproject';
  if (base === 'Pipfile') return 'pipfile';
  if (base === 'Cargo.toml') return 'cargo';
  if (base === 'go.mod') return 'go.mod';
  if (base === 'Gemfile') return 'gemfile';
  return null;
}

/**
 * The lockfiles package managers write beside a manifest (`npm install` writes package-lock.json
 * from package.json, `cargo build` Cargo.lock, `go mod tidy` go.sum): a change to one is made
 * by whoever changed the manifest.
 */
const LOCKFILES: ReadonlyArray<[manifest: string, lockfiles: string[]]> = [
  ['package.json', ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb']],
  ['composer.json', ['composer.lock']],
  ['pyproject.toml', ['poetry.lock', 'uv.lock', 'pdm.lock']],
  ['Pipfile', ['Pipfile.lock']],
  ['Cargo.toml', ['Cargo.lock']],
  ['go.mod', ['go.sum']],
  ['Gemfile', ['Gemfile.lock']],
];

/** The manifests (same directory) a lockfile path is written from; [] for any other path. */
export function manifestsOfLockfile(path: string): string[] {
  const dir = path.slice(0, path.lastIndexOf('/') + 1);
  const base = path.slice(dir.length);
  return LOCKFILES.filter(([, locks]) => locks.includes(base)).map(([manifest]) => dir + manifest);
}

/** `name` → where it is declared (section), for one manifest's text; null when unparseable. */
export function dependencyNames(kind: ManifestKind, text: string): Map<string, string> | null {
  switch (kind) {
    case 'package.json':
      return jsonSections(text, ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'], []);
    case 'composer.json':
      return jsonSections(text, ['require', 'require-dev'], ['php']);
    case 'requirements':
      return requirementsTxt(text);
    case 'pyproject':
      return pyprojectToml(text);
    case 'pipfile':
      return tomlTableKeys(text, (section) => section === 'packages' || section === 'dev-packages', ['python']);
    case 'cargo':
      return cargoToml(text);
    case 'go.mod':
      return goMod(text);
    case 'gemfile':
      return gemfile(text);
  }
}

/**
 * Dependencies present in `after` but not in `before` (same name in the same section),
 * as `[name, section]` pairs. Returns [] when `after` cannot be parsed, and when
 * `before` exists but cannot be parsed (no baseline: better silent than all-new).
 */
export function addedDependencies(kind: ManifestKind, before: string | null, after: string): Array<[string, string]> {
  const next = dependencyNames(kind, after);
  if (next === null) return [];
  const prev = before === null ? new Map<string, string>() : dependencyNames(kind, before);
  if (prev === null) return [];
  const prevKeys = new Set([...prev].map(([name, section]) => `${section}\0${name}`));
  return [...next].filter(([name, section]) => !prevKeys.has(`${section}\0${name}`));
}

function jsonSections(text: string, sections: string[], skip: string[]): Map<string, string> | null {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const names = new Map<string, string>();
  for (const section of sections) {
    const deps = (data as Record<string, unknown>)[section];
    if (typeof deps !== 'object' || deps === null || Array.isArray(deps)) continue;
    for (const name of Object.keys(deps)) if (!skip.includes(name)) names.set(name, section);
  }
  return names;
}

/** PEP 503 normalisation, so `Foo_Bar` and `foo-bar` are the same package. */
function pyName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** The distribution name at the start of a PEP 508 requirement (`requests[socks]>=2; python_version>"3"`). */
function pep508Name(spec: string): string | null {
  const s = spec.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) return s; // a bare URL: the URL is the identity
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(s);
  return m?.[1] ? pyName(m[1]) : null;
}

function requirementsTxt(text: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    if (line.startsWith('-')) {
      // Options (`-r base.txt`, `--index-url`) are not packages, except editable installs.
      const editable = /^(-e|--editable)\s+(.+)$/.exec(line);
      if (editable?.[2]) names.set(editable[2].trim(), 'requirements');
      continue;
    }
    const name = pep508Name(line);
    if (name) names.set(name, 'requirements');
  }
  return names;
}

/** Drops a `#` comment that is not inside a quoted string. */
function stripTomlComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') return line.slice(0, i);
  }
  return line;
}

function tomlStrings(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? '');
}

function tomlHeader(line: string): string | null {
  const m = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*$/.exec(line);
  return m?.[1] ? m[1].replace(/\s*\.\s*/g, '.') : null;
}

function tomlKey(line: string): { key: string; value: string } | null {
  const m = /^\s*("[^"]+"|'[^']+'|[A-Za-z0-9_.-]+)\s*=\s*(.*)$/.exec(line);
  if (!m?.[1]) return null;
  return { key: m[1].replace(/^["']|["']$/g, ''), value: (m[2] ?? '').trim() };
}

/**
 * Keys of the tables selected by `inSection` (`[dependencies]`-style tables). `onHeader` sees
 * every table header, for names a header itself declares.
 */
function tomlTableKeys(text: string, inSection: (section: string) => boolean, skip: string[], onHeader?: (header: string, names: Map<string, string>) => void): Map<string, string> {
  const names = new Map<string, string>();
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = stripTomlComment(raw);
    const header = tomlHeader(line);
    if (header !== null) {
      section = header;
      onHeader?.(header, names);
      continue;
    }
    const kv = tomlKey(line);
    if (kv && inSection(section) && !skip.includes(kv.key.toLowerCase())) names.set(kv.key, section);
  }
  return names;
}

function pyprojectToml(text: string): Map<string, string> {
  const names = new Map<string, string>();
  let section = '';
  let arrayLabel: string | null = null;
  const addSpecs = (chunk: string, label: string) => {
    for (const s of tomlStrings(chunk)) {
      const name = pep508Name(s);
      if (name) names.set(name, label);
    }
  };
  const isDepTable = (s: string) =>
    s === 'project.optional-dependencies' || s === 'dependency-groups' || /(^|\.)(dev-)?dependencies$/.test(s);
  for (const raw of text.split(/\r?\n/)) {
    const line = stripTomlComment(raw);
    if (arrayLabel !== null) {
      if (arrayLabel !== '') addSpecs(line, arrayLabel);
      if (line.includes(']')) arrayLabel = null;
      continue;
    }
    const header = tomlHeader(line);
    if (header !== null) {
      section = header;
      continue;
    }
    const kv = tomlKey(line);
    if (!kv) continue;
    const label = section === '' ? kv.key : `${section}.${kv.key}`;
    if (kv.value.startsWith('[') && isDepTable(section) && section.startsWith('tool.poetry')) {
      // Poetry multiple-constraint dependency: `foo = [{ version = "..." }, ...]`.
      names.set(pyName(kv.key), section);
      if (!kv.value.includes(']')) arrayLabel = '';
    } else if (kv.value.startsWith('[')) {
      // `[project] dependencies = [...]`, optional-dependency groups, PEP 735 groups, pdm dev groups.
      if ((section === 'project' && kv.key === 'dependencies') || isDepTable(section)) {
        addSpecs(kv.value, label);
        if (!kv.value.includes(']')) arrayLabel = label;
      }
    } else if (isDepTable(section) && section.startsWith('tool.') && kv.key.toLowerCase() !== 'python') {
      // Poetry-style tables: `requests = "^2.0"`.
      names.set(pyName(kv.key), section);
    }
  }
  return names;
}

function cargoToml(text: string): Map<string, string> {
  return tomlTableKeys(text, (section) => /(^|\.)(dev-|build-)?dependencies$/.test(section), [], (header, names) => {
    // `[dependencies.serde]` declares serde as a table.
    const table = /(^|\.)((?:dev-|build-)?dependencies)\.("[^"]+"|[A-Za-z0-9_-]+)$/.exec(header);
    if (table?.[2] && table[3]) names.set(table[3].replace(/"/g, ''), header.slice(0, header.length - table[3].length - 1));
  });
}

function goMod(text: string): Map<string, string> {
  const names = new Map<string, string>();
  let inBlock = false;
  for (const raw of text.split(/\r?\n/)) {
    const indirect = /\/\/\s*indirect\b/.test(raw);
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (inBlock) {
      if (line === ')') inBlock = false;
      else if (line !== '' && !indirect) names.set(line.split(/\s+/)[0] ?? line, 'require');
      continue;
    }
    if (/^require\s*\($/.test(line)) inBlock = true;
    else {
      const single = /^require\s+(\S+)\s+\S+/.exec(line);
      // Indirect requirements are what `go mod tidy` adds for a dependency's dependencies.
      if (single?.[1] && !indirect) names.set(single[1], 'require');
    }
  }
  return names;
}

function gemfile(text: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*gem\s*\(?\s*["']([^"']+)["']/.exec(raw);
    if (m?.[1]) names.set(m[1], 'gem');
  }
  return names;
}
