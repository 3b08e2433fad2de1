import type { ArgSpec, ArgType } from './arg-spec.ts';
import type { ParamFailure, Reason } from '../domain/errors.ts';
import { oneOf, REASONS, tooLarge, tooManyItems, tooSmall } from '../domain/reasons.ts';

type Coerced = { ok: true; value: unknown } | { ok: false; failure: ParamFailure };

/** Longest list a parameter may carry unless its spec says otherwise: filters stay cheap to run. */
export const MAX_LIST_ITEMS = 100;

const INTEGER = /^\s*[+-]?\d+\s*$/;
const NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;

const TYPE_REASONS: Record<Exclude<ArgType, 'array'>, Reason> = {
  integer: REASONS.integer,
  number: REASONS.number,
  boolean: REASONS.boolean,
  string: REASONS.string,
  object: REASONS.object,
};

function typeFailure(name: string, type: Exclude<ArgType, 'array'>): { ok: false; failure: ParamFailure } {
  return { ok: false, failure: { messageKey: 'rest_invalid_type', vars: { param: name, type }, reason: TYPE_REASONS[type] } };
}

/** WordPress's wp_parse_list: a list may arrive as `a,b`, `a b`, `a[]=..` or `a[0]=..`. */
export function parseList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.split(/[\s,]+/).filter((part) => part !== '');
  if (value !== null && typeof value === 'object') return Object.values(value);
  return [value];
}

export function coerceBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    if (lower === 'true' || lower === '1') return true;
    if (lower === 'false' || lower === '0') return false;
  }
  return undefined;
}

function coerceScalar(name: string, value: unknown, type: ArgType): Coerced {
  switch (type) {
    case 'integer':
      if (typeof value === 'number' && Number.isSafeInteger(value)) return { ok: true, value };
      if (typeof value === 'string' && INTEGER.test(value)) {
        const parsed = Number(value);
        if (Number.isSafeInteger(parsed)) return { ok: true, value: parsed };
      }
      return typeFailure(name, 'integer');
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value };
      if (typeof value === 'string' && NUMBER.test(value)) return { ok: true, value: Number(value) };
      return typeFailure(name, 'number');
    case 'boolean': {
      const bool = coerceBoolean(value);
      return bool === undefined ? typeFailure(name, 'boolean') : { ok: true, value: bool };
    }
    case 'string':
      return typeof value === 'string' ? { ok: true, value } : typeFailure(name, 'string');
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ok: true, value } : typeFailure(name, 'object');
    case 'array':
      return { ok: true, value: parseList(value) };
  }
}

/** Step 6 of the reference's processing: type coercion driven by the declared schema. */
export function coerceArg(name: string, value: unknown, spec: ArgSpec): Coerced {
  if (spec.sanitize) return { ok: true, value: spec.sanitize(value) };
  let result: Coerced = spec.type ? coerceScalar(name, value, spec.type) : { ok: true, value };
  if (!result.ok) return result;
  if (spec.type === 'array' || (spec.items && !spec.type)) {
    const list = parseList(result.value);
    const maxItems = spec.maxItems ?? MAX_LIST_ITEMS;
    if (list.length > maxItems) {
      return { ok: false, failure: { messageKey: 'rest_too_many_items', vars: { param: name, max: maxItems }, reason: tooManyItems(maxItems) } };
    }
    if (spec.items) {
      const items: unknown[] = [];
      for (const [index, item] of list.entries()) {
        const coerced = coerceScalar(`${name}[${index}]`, item, spec.items.type);
        if (!coerced.ok) return coerced;
        if (spec.items.enum && !spec.items.enum.includes(String(coerced.value))) {
          return { ok: false, failure: { messageKey: 'rest_invalid_enum', vars: { param: `${name}[${index}]`, values: spec.items.enum.join(', ') }, reason: oneOf(spec.items.enum) } };
        }
        items.push(coerced.value);
      }
      result = { ok: true, value: items };
    } else {
      result = { ok: true, value: list };
    }
  }
  const coercedValue = result.value;
  if (spec.enum && !spec.enum.includes(String(coercedValue))) {
    return { ok: false, failure: { messageKey: 'rest_invalid_enum', vars: { param: name, values: spec.enum.join(', ') }, reason: oneOf(spec.enum) } };
  }
  if (typeof coercedValue === 'number') {
    if (spec.minimum !== undefined && coercedValue < spec.minimum) {
      return { ok: false, failure: { messageKey: 'rest_too_small', vars: { param: name, min: spec.minimum }, reason: tooSmall(spec.minimum) } };
    }
    if (spec.maximum !== undefined && coercedValue > spec.maximum) {
      return { ok: false, failure: { reason: tooLarge(spec.maximum) } };
    }
  }
  return result;
}
