import type { ArgSpec, ArgSpecs } from './arg-spec.ts';
import { coerceArg } from './coerce.ts';
import type { RenderContext } from '../render/context.ts';
import { InvalidParamsError, MissingParamsError, type ParamFailure } from '../domain/errors.ts';

/** The validated parameters of one request. */
export class Params {
  constructor(
    readonly values: Readonly<Record<string, unknown>>,
    /** Names the client actually sent (defaults excluded). */
    readonly provided: ReadonlySet<string>,
    /** Every merged input value, declared or not (path > body > query). */
    readonly raw: Readonly<Record<string, unknown>>,
    /** Body or query values that a path parameter of the same name replaced in `raw`. */
    readonly shadowed: Readonly<Record<string, unknown>> = {},
  ) {}

  has(name: string): boolean {
    return this.provided.has(name);
  }

  get<T = unknown>(name: string): T {
    return this.values[name] as T;
  }
}

/** JSON `null` for an optional parameter means "not sent", as in the reference. */
function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

/**
 * Each route's specs as entries, listed once: a write route declares about 40 parameters, and
 * listing them again on every request was about 2 % of a profile of updates.
 */
const entriesOf = new WeakMap<ArgSpecs, ReadonlyArray<[string, ArgSpec]>>();

function specEntries(specs: ArgSpecs): ReadonlyArray<[string, ArgSpec]> {
  let entries = entriesOf.get(specs);
  if (entries === undefined) {
    entries = Object.entries(specs);
    entriesOf.set(specs, entries);
  }
  return entries;
}

/**
 * The reference's steps 4-6: required parameters, then every validator (all failures
 * collected), then type coercion (all failures collected). Defaults are validated too.
 */
export async function validateArgs(
  specs: ArgSpecs,
  raw: Record<string, unknown>,
  ctx: RenderContext,
  shadowed: Record<string, unknown> = {},
): Promise<Params> {
  const missing: string[] = [];
  const present: Record<string, unknown> = {};
  const provided = new Set<string>();
  for (const [name, spec] of specEntries(specs)) {
    const value = raw[name];
    if (!isAbsent(value)) {
      present[name] = value;
      provided.add(name);
    } else if (spec.required) {
      missing.push(name);
    } else if (spec.default !== undefined) {
      present[name] = spec.default;
    }
  }
  if (missing.length > 0) throw new MissingParamsError(missing);

  // Defaults are constants the validators accept; checking them on every request only costs.
  const validatorFailures: Record<string, ParamFailure> = {};
  for (const name of provided) {
    const validate = specs[name].validate;
    if (!validate) continue;
    const verdict = await validate(present[name], ctx, raw);
    if (verdict !== true) validatorFailures[name] = verdict;
  }
  if (Object.keys(validatorFailures).length > 0) throw new InvalidParamsError(validatorFailures);

  const typeFailures: Record<string, ParamFailure> = {};
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(present)) {
    const coerced = coerceArg(name, value, specs[name]);
    if (coerced.ok) values[name] = coerced.value;
    else typeFailures[name] = coerced.failure;
  }
  if (Object.keys(typeFailures).length > 0) throw new InvalidParamsError(typeFailures);

  return new Params(values, provided, raw, shadowed);
}
