import type { MessageVars } from '../../i18n/catalog.ts';
import { invalidParam, type InvalidParamsError } from '../errors.ts';

export type RecurrenceCode =
  | 'recurrence-invalid-rule'
  | 'recurrence-too-many-occurrences'
  | 'recurrence-empty'
  | 'recurrence-invalid-date'
  | 'recurrence-scope-conflict'
  | 'recurrence-unsupported';

/** A `recurrence` input that breaks a rule of 60 §3.1. */
export class RecurrenceError extends Error {
  constructor(
    readonly code: RecurrenceCode,
    readonly vars?: MessageVars,
  ) {
    super(code);
  }

  /** The 400 `rest_invalid_param` naming the reason in `data.details.recurrence` (60 §9). */
  toParamError(param = 'recurrence'): InvalidParamsError {
    return invalidParam(param, { code: this.code, messageKey: this.code, vars: this.vars });
  }
}
