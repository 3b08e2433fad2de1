import type { ArgSpec } from '../../args/arg-spec.ts';
import type { Describe } from './describe.ts';

type Location = 'path' | 'query' | 'body';

/** The keys of an ArgSpec that describe its value, in the order they are published. */
const SCHEMA_KEYS = ['type', 'items', 'enum', 'format', 'minimum', 'maximum', 'maxItems', 'default'] as const;

export const EXTENSION_KEY = 'x-calendar-extension';

const BODY_VERBS = new Set(['post', 'put', 'patch']);

/**
 * The schema of an argument's value. A list declared only by its `items` (as the reference
 * declares `include`) is an array; an argument without a type gets no `type` (any value), where
 * the reference writes the invalid `type: false`.
 */
export function argSchema(spec: ArgSpec): Record<string, unknown> {
  const schema: Record<string, unknown> = {};
  const type = spec.type ?? (spec.items ? 'array' : undefined);
  for (const key of SCHEMA_KEYS) {
    if (key === 'type') {
      if (type) schema.type = type;
    } else if (key === 'items') {
      if (spec.items || type === 'array') schema.items = spec.items ?? {};
    } else if (spec[key] !== undefined) {
      schema[key] = spec[key];
    }
  }
  return schema;
}

/** A parameter object with the reference's key order (`in, schema, description, required, name`). */
export function parameterObject(name: string, spec: ArgSpec, location: 'path' | 'query', describe: Describe): Record<string, unknown> {
  const schema = argSchema(spec);
  const parameter: Record<string, unknown> = {
    in: location,
    schema,
    description: describe(spec.description),
    // OpenAPI requires path parameters to be required.
    required: location === 'path' || spec.required === true,
    name,
  };
  // Lists travel as `a=1,2`: a repeated name keeps only its last value here, as in PHP.
  if (location === 'query' && schema.type === 'array') parameter.explode = false;
  markExtension(parameter, spec, describe);
  return parameter;
}

/** A property of a request body: `description` first, then the value's schema (the reference's order). */
export function bodyProperty(spec: ArgSpec, describe: Describe): Record<string, unknown> {
  const property: Record<string, unknown> = { description: describe(spec.description), ...argSchema(spec) };
  markExtension(property, spec, describe);
  return property;
}

/** `x-calendar-extension` for a whole argument of this service; `…-note` for what it accepts beyond the reference's. */
function markExtension(target: Record<string, unknown>, spec: ArgSpec, describe: Describe): void {
  if (spec.extension) target[EXTENSION_KEY] = true;
  if (spec.extensionNote) target[`${EXTENSION_KEY}-note`] = describe(spec.extensionNote);
}

/**
 * Where an argument is documented. The reference lists the arguments of a `post` as `in: body`
 * parameters, which OpenAPI 3.0 does not have: they go into the request body instead.
 */
export function locationOf(name: string, spec: ArgSpec, verb: string, pathNames: ReadonlySet<string>): Location {
  if (pathNames.has(name)) return 'path';
  if (spec.in === 'query') return 'query';
  return BODY_VERBS.has(verb) ? 'body' : 'query';
}
