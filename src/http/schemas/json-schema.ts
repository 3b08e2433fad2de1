/**
 * The subset of JSON Schema (in its OpenAPI 3.0 dialect) that the response objects are declared
 * with. Declared once, these objects are published as the document's component schemas and can
 * drive response serialization, so property order is the order the service emits.
 */
export interface JsonSchema {
  $ref?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  /** English text; editions translate it through the description catalogues. */
  description?: string;
  format?: string;
  enum?: readonly unknown[];
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  maxItems?: number;
  oneOf?: readonly JsonSchema[];
  /** With a single `$ref`: the way OpenAPI 3.0 lets a reference carry its own description. */
  allOf?: readonly JsonSchema[];
}

export function ref(schemaName: string): JsonSchema {
  return { $ref: `#/components/schemas/${schemaName}` };
}

/** The reference answers `[]` where an object or a value is absent or hidden (no venue, a hidden name). */
export const EMPTY_ARRAY: JsonSchema = { type: 'array', maxItems: 0, items: {} };
