import {
  composeRecurrence,
  EMPTY_BUILDER,
  PATTERNS,
  recurrenceDiffers,
  type BuilderFields,
  type MonthlyMode,
  type RecurrenceEnd,
  type RecurrencePattern,
} from '../../domain/recurrence/builder.ts';
import type { FormFields } from './admin-request.ts';
import type { EventFormValues } from '../../web/admin/event-form-values.ts';
import type { RequestKind } from './event-form.ts';

/** The recurrence builder's fields of a POSTed form (100 §8.3); unknown choices read as the defaults. */
export function readBuilderFields(form: Pick<FormFields, 'get' | 'all'>): BuilderFields {
  const pattern = form.get('recurrence_pattern') ?? '';
  const monthly = form.get('recurrence_monthly');
  const end = form.get('recurrence_end');
  return {
    pattern: (PATTERNS as readonly string[]).includes(pattern) ? (pattern as RecurrencePattern) : EMPTY_BUILDER.pattern,
    interval: form.get('recurrence_interval') ?? EMPTY_BUILDER.interval,
    weekdays: form.all('recurrence_weekdays[]'),
    monthly: monthly === 'weekday' ? 'weekday' : ('day' as MonthlyMode),
    end: end === 'count' || end === 'until' ? (end as RecurrenceEnd) : 'never',
    count: form.get('recurrence_count') ?? '',
    until: (form.get('recurrence_until') ?? '').trim(),
    rrule: form.get('recurrence_rrule') ?? '',
    exdates: form.get('recurrence_exdates') ?? '',
    rdates: form.get('recurrence_rdates') ?? '',
  };
}

/** Whether the form turns a stored series into a single event: pattern `none` where a rule is stored. */
export function removesRecurrence(values: EventFormValues, kind: RequestKind): boolean {
  return !kind.create && kind.storedRecurrence != null && values.recurrence.pattern === 'none';
}

/**
 * The one check of the form's own (100 §8.3): removing a series' recurrence needs the
 * `recurrence_remove_confirm` checkbox.
 */
export function removalUnconfirmed(values: EventFormValues, kind: RequestKind): boolean {
  return removesRecurrence(values, kind) && !values.recurrence_remove_confirm;
}

/**
 * The `recurrence` parameter (100 §8.2): on create the composed object when there is one; on
 * save only when it differs from the stored series ('' removes it, 60 §6.4).
 */
export function recurrenceParam(values: EventFormValues, kind: RequestKind): unknown {
  const composed = composeRecurrence(values.recurrence, values.start_date);
  if (kind.create) return composed ?? undefined;
  if (!recurrenceDiffers(composed, kind.storedRecurrence ?? null, values.timezone || kind.siteZone || 'UTC')) return undefined;
  return composed ?? '';
}
