import { toJSONSchema } from 'zod/mini';
import { RalfLiteConfig } from './schema.js';

/**
 * JSON Schema for the files users edit: `.planning/config.json` and GSD's global
 * `get-shit-done/config.json`. Only `ralf_lite` is described; GSD's own keys are allowed.
 */
export function configJsonSchema(): Record<string, unknown> {
  const ralfLite = toJSONSchema(RalfLiteConfig, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete ralfLite.$schema;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://unpkg.com/ralf-lite/schemas/ralf-lite.schema.json',
    title: 'GSD config with ralf_lite',
    description: 'GSD .planning/config.json (or get-shit-done/config.json) with the RALF Lite loop settings under `ralf_lite`. Other GSD keys are allowed and ignored by ralf.',
    type: 'object',
    properties: { ralf_lite: ralfLite },
    additionalProperties: true,
  };
}

interface JsonSchemaNode {
  type?: string | string[];
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  anyOf?: JsonSchemaNode[];
}

function typeOf(node: JsonSchemaNode): string {
  if (node.type === 'array') return `${typeOf(node.items ?? {})}[]`;
  if (node.type === 'integer' || node.type === 'number') {
    const range = node.minimum !== undefined || node.maximum !== undefined ? ` ${node.minimum ?? ''}..${node.maximum ?? ''}` : '';
    return `${node.type}${range}`;
  }
  return Array.isArray(node.type) ? node.type.join(' | ') : (node.type ?? 'any');
}

/** The README's configuration reference: one row per key, generated from the schema. */
export function configReferenceMarkdown(): string {
  const schema = configJsonSchema() as { properties: { ralf_lite: JsonSchemaNode } };
  const rows: string[] = ['| key (under `ralf_lite`) | type | default | description |', '|---|---|---|---|'];
  const walk = (node: JsonSchemaNode, prefix: string) => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const path = prefix ? `${prefix}.${key}` : key;
      const def = child.default === undefined ? '—' : `\`${JSON.stringify(child.default)}\``;
      const description = (child.description ?? '').replace(/\|/g, '\\|');
      if (child.type === 'object' && child.properties) {
        rows.push(`| \`${path}\` | object | ${def} | ${description} |`);
        walk(child, path);
      } else {
        rows.push(`| \`${path}\` | ${typeOf(child)} | ${def} | ${description} |`);
      }
    }
  };
  walk(schema.properties.ralf_lite, '');
  return `${rows.join('\n')}\n`;
}
