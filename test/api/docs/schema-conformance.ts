/**
 * Checks a response value against a component schema of the document, in the subset of
 * OpenAPI 3.0 schemas the service declares: besides types, an object may carry no member its
 * schema lacks, and its members come in the schema's order (the order the service emits).
 * Returns the problems found, one line each (empty = conforms).
 */
export function conformance(value: unknown, schema: any, schemas: Record<string, any>, ordered = true, at = '$'): string[] {
  const check = (member: unknown, memberSchema: any, memberAt: string) => conformance(member, memberSchema, schemas, ordered, memberAt);
  // OpenAPI 3.0's nullable reference: `nullable` beside an `allOf` of the `$ref`.
  if (value === null && schema.nullable) return [];
  if (schema.$ref) return check(value, schemas[schema.$ref.replace('#/components/schemas/', '')], at);
  if (schema.allOf) return schema.allOf.flatMap((member: any) => check(value, member, at));
  if (schema.oneOf) {
    const outcomes = schema.oneOf.map((member: any) => check(value, member, at));
    const matching = outcomes.filter((problems: string[]) => problems.length === 0).length;
    return matching === 1 ? [] : [`${at}: matches ${matching} of the oneOf alternatives (${outcomes.flat().join('; ')})`];
  }
  if (value === null) return schema.nullable ? [] : [`${at}: null, but not nullable`];
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`];
  switch (schema.type) {
    case undefined:
      return [];
    case 'integer':
      return Number.isInteger(value) ? [] : [`${at}: ${JSON.stringify(value)} is not an integer`];
    case 'number':
    case 'string':
    case 'boolean':
      return typeof value === schema.type ? [] : [`${at}: ${JSON.stringify(value)} is not a ${schema.type}`];
    case 'array': {
      if (!Array.isArray(value)) return [`${at}: ${JSON.stringify(value)} is not an array`];
      if (schema.maxItems !== undefined && value.length > schema.maxItems) return [`${at}: more than ${schema.maxItems} items`];
      return value.flatMap((item, index) => check(item, schema.items ?? {}, `${at}[${index}]`));
    }
    case 'object': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${at}: ${JSON.stringify(value)} is not an object`];
      const problems: string[] = [];
      const declared = Object.keys(schema.properties ?? {});
      let previous = -1;
      for (const [key, member] of Object.entries(value)) {
        const position = declared.indexOf(key);
        if (position >= 0) {
          if (ordered && position < previous) problems.push(`${at}.${key}: out of the declared order`);
          previous = position;
          problems.push(...check(member, schema.properties[key], `${at}.${key}`));
        } else if (typeof schema.additionalProperties === 'object') {
          problems.push(...check(member, schema.additionalProperties, `${at}.${key}`));
        } else if (schema.additionalProperties !== true) {
          problems.push(`${at}.${key}: not declared`);
        }
      }
      return problems;
    }
    default:
      return [`${at}: unknown schema type ${schema.type}`];
  }
}
