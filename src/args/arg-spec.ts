import type { ParamFailure } from '../domain/errors.ts';
import type { RenderContext } from '../render/context.ts';

export type ArgType = 'integer' | 'number' | 'boolean' | 'string' | 'array' | 'object';

/**
 * One request parameter, declared once: the same object drives validation, the namespace
 * index (`GET {ns}`) and the OpenAPI document. Its JSON-Schema-like keys are published as-is.
 */
export interface ArgSpec {
  type?: ArgType;
  items?: { type: ArgType; enum?: readonly string[] };
  enum?: readonly string[];
  format?: string;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  default?: unknown;
  /** English text; editions translate it through the description catalogues. */
  description: string;
  required?: boolean;
  /** Where the documentation says the parameter travels (defaults: path params 'path', else by method). */
  in?: 'path' | 'query' | 'body';
  /** Not in the reference API: documented as an extension of this service. */
  extension?: boolean;
  /** An argument of the reference that accepts more here: what, in English (documented as `x-calendar-extension-note`). */
  extensionNote?: string;
  /**
   * Step 5 of the reference's request processing: a validator run on the raw value. A refusal
   * is a ParamFailure, which must name its reason (build one with `rule()` from a predicate).
   */
  validate?: Validator;
  /** Replaces the schema-driven type coercion of step 6 (the arg converts its own value). */
  sanitize?: (value: unknown) => unknown;
}

export type ArgSpecs = Record<string, ArgSpec>;

/** A validator's verdict: accepted, or refused with a reason (there is no bare `false`). */
export type Verdict = true | ParamFailure;

export type Validator = (value: unknown, ctx: RenderContext, raw: Readonly<Record<string, unknown>>) => Verdict | Promise<Verdict>;
