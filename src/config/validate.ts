import type { core } from 'zod/mini';
import { compareText } from '../compare-text.js';
import type { Problem } from '../errors.js';
import { RalfLiteConfig } from './schema.js';
import { nearestKey } from './suggest.js';
import { describeValue, expectedOf, valueAt } from './zod-issue-text.js';

/** The keys the schema allows at a given path inside `ralf_lite`. */
type AnySchema = core.$ZodType;

function knownKeysAt(path: readonly PropertyKey[]): string[] {
  let schema: AnySchema | undefined = RalfLiteConfig;
  for (const segment of path) {
    schema = shapeOf(schema)?.[String(segment)];
    if (!schema) return [];
  }
  return Object.keys(shapeOf(schema) ?? {});
}

/** The object shape behind optional/default wrappers, if the schema is an object. */
function shapeOf(schema: AnySchema | undefined): Record<string, AnySchema> | undefined {
  let def = schema?._zod.def as { innerType?: AnySchema; shape?: Record<string, AnySchema> } | undefined;
  while (def?.innerType) def = def.innerType._zod.def as typeof def;
  return def?.shape;
}



/**
 * Validates one layer's `ralf_lite` value. Collects every problem (never throws),
 * each naming the file, the key path, what was expected and what was received.
 */
export function validateLayer(value: unknown, file: string, keyPrefix = 'ralf_lite'): Problem[] {
  const result = RalfLiteConfig.safeParse(value);
  if (result.success) return [];
  const problems: Problem[] = [];
  for (const issue of result.error.issues) {
    const keyPath = [keyPrefix, ...issue.path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const suggestion = nearestKey(key, knownKeysAt(issue.path));
        problems.push({
          file,
          key: `${keyPath}.${key}`,
          message: 'unknown key',
          hint: suggestion
            ? `did you mean "${suggestion}"?`
            : `valid keys here: ${knownKeysAt(issue.path).join(', ')}`,
        });
      }
      continue;
    }
    const received = describeValue(valueAt(value, issue.path));
    problems.push({ file, key: keyPath, message: 'invalid value', expected: expectedOf(issue), received });
  }
  // Zod reports nested problems first; list them in key order so output is stable and scannable.
  return problems.sort((a, b) => compareText(a.key ?? '', b.key ?? ''));
}

