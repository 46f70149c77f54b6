/**
 * Reading the effective config as the report shows it: leaves by dotted key, whichever
 * shape the config was recorded in (nested like the schema, or already dotted).
 */
import { isAbsolute, relative, sep } from 'node:path';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Dotted leaf key → value (arrays are leaves). */
export function flattenConfig(values: Record<string, unknown>, prefix = ''): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(values)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length > 0) out.push(...flattenConfig(value, path));
    else if (value !== undefined) out.push([path, value]);
  }
  return out;
}

/** The value at a dotted key (nested lookup first, then a literal dotted key). */
export function configValue(values: Record<string, unknown>, key: string): unknown {
  const nested = key.split('.').reduce<unknown>((v, k) => (isPlainObject(v) ? v[k] : undefined), values);
  return nested !== undefined ? nested : values[key];
}

/**
 * A config source as the SUMMARY shows it: committed files must not carry absolute
 * paths of someone's machine, so paths become project-relative or `~/...`.
 */
export function displaySource(source: string, where: { projectRoot: string | null; home: string | null }): string {
  if (source === 'default' || !isAbsolute(source)) return source;
  const under = (base: string | null) => {
    if (!base) return null;
    const rel = relative(base, source);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : null;
  };
  const inProject = under(where.projectRoot);
  if (inProject) return inProject;
  const inHome = under(where.home);
  if (inHome) return `~/${inHome}`;
  return source;
}
