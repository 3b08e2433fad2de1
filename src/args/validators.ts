import type { Reason } from '../domain/errors.ts';
import { can } from '../domain/auth/capabilities.ts';
import { REASONS, statusFilter } from '../domain/reasons.ts';
import { parseStatusFilter, STATUSES } from '../domain/status.ts';
import { parseInstant } from '../domain/dates/date-input.ts';
import type { RenderContext } from '../render/context.ts';
import type { Validator } from './arg-spec.ts';

/** Small validators shared by the route declarations (step 5 of the reference's processing). */

type Predicate = (value: unknown, ctx: RenderContext, raw: Readonly<Record<string, unknown>>) => boolean | Promise<boolean>;

/** A validator from a yes/no check and the reason a "no" is given. */
export function rule(accepts: Predicate, reason: Reason): Validator {
  return async (value, ctx, raw) => ((await accepts(value, ctx, raw)) ? true : { reason });
}

/** A positive integer given as a JSON number or as digits, or undefined. */
export function positiveInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  if (typeof value !== 'string' || !/^\s*\d+\s*$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

export function isPositiveInteger(value: unknown): boolean {
  return positiveInteger(value) !== undefined;
}


export const positiveIntegerRule = rule(isPositiveInteger, REASONS.positiveInteger);

/** A date-time input of 10-events §2.1 (valid whatever zone it is later read in). */
export const isDateInput = (value: unknown, ctx: RenderContext): boolean => parseInstant(value, 'UTC', ctx.now) !== null;
export const dateRule = rule(isDateInput, REASONS.date);
export const nonEmptyStringRule: Validator = (value) =>
  typeof value !== 'string' ? { reason: REASONS.string } : value === '' ? { reason: REASONS.notEmpty } : true;

/** The status filter of a list (events, venues, organizers); what it accepts depends on the caller. */
export const statusFilterRule: Validator = (value, ctx) =>
  parseStatusFilter(value, ctx.user) !== null || { reason: statusFilter(STATUSES, can(ctx.user, 'edit_posts')) };
