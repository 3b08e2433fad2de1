import { InvalidParamsError } from '../../domain/errors.ts';
import { REASONS } from '../../domain/reasons.ts';
import { MODIFIED_PARAMS, readModifiedBounds, type ModifiedBounds } from '../../domain/sync/modified-bounds.ts';
import type { ArgSpecs } from '../../args/arg-spec.ts';
import { dateRule } from '../../args/validators.ts';
import type { Params } from '../../args/validate-args.ts';

/**
 * `modified_after` / `modified_before` of the event, venue and organizer lists (80 §2). Events
 * say that a bound drops their default date window.
 */
export function modifiedArgs(what: 'events' | 'records'): ArgSpecs {
  const window = what === 'events' ? ' Either bound drops the default date window: only explicit date bounds apply.' : '';
  return {
    modified_after: {
      extension: true,
      description: `Only the ${what} modified at or after this instant (UTC unless the value gives an offset; timestamps accepted).${window}`,
      validate: dateRule,
    },
    modified_before: {
      extension: true,
      description: `Only the ${what} modified before this instant (UTC unless the value gives an offset; timestamps accepted).${window}`,
      validate: dateRule,
    },
  };
}

/** The validated bounds of a list request, as UTC instants (relative inputs resolved against the request's now). */
export function modifiedBoundsOf(params: Params, now: Date): ModifiedBounds {
  const bounds = readModifiedBounds(params.raw, now);
  if ('invalid' in bounds) throw new InvalidParamsError(Object.fromEntries(bounds.invalid.map((name) => [name, { reason: REASONS.date }])));
  return bounds;
}

/** Parameters the list links repeat as given, in this order (70-geo §3.3, 80 §2). */
export function rawLinkPairs(params: Params, names: readonly string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const name of names) {
    const value = params.raw[name];
    if (typeof value === 'string' || typeof value === 'number') pairs.push([name, String(value)]);
  }
  return pairs;
}

/** The sort and modification parameters every list link keeps (80 §2: "links carry all four"). */
export const SYNC_LINK_PARAMS = ['orderby', 'order', ...MODIFIED_PARAMS] as const;

/** `order` of venues and organizers: their reference order stays when neither sort parameter is sent (80 §2). */
export const LINKED_ORDER_DESCRIPTION = 'Sort direction: asc (default) or desc, which reverses the whole order, ties included. Without orderby and order: newest first.';

/** `orderby` and `order` of organizers, which have no location search. */
export const organizerSortArgs: ArgSpecs = {
  orderby: { extension: true, description: 'Sort key: date (publication date) or modified; ties by id. Other values are ignored.' },
  order: { extension: true, description: LINKED_ORDER_DESCRIPTION },
};
