import type { MessageKey, MessageVars } from '../i18n/catalog.ts';

/**
 * An error that leaves the service in the WordPress REST shape
 * `{code, message, data: {status, ...}}`. The message is a catalogue key, translated
 * into the edition's language only when the response is written.
 */
export class RestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly messageKey: MessageKey;
  readonly vars: MessageVars | undefined;
  /** Extra members of `data` besides `status`. */
  readonly data: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    options: {
      messageKey?: MessageKey;
      vars?: MessageVars;
      data?: Record<string, unknown>;
      headers?: Record<string, string>;
      /** The unexpected failure behind a 5xx answer, logged but never shown to the client. */
      cause?: unknown;
    } = {},
  ) {
    super(code, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.code = code;
    this.messageKey = options.messageKey ?? (code as MessageKey);
    this.vars = options.vars;
    this.data = options.data ?? {};
    this.headers = options.headers ?? {};
  }
}

/** Why a value was refused, shown as `data.details[name]`: a stable code and a catalogue message. */
export interface Reason {
  readonly code: string;
  readonly messageKey: MessageKey;
  readonly vars?: MessageVars;
}

/** One failed parameter inside a `rest_invalid_param` error. */
export interface ParamFailure {
  /** Catalogue key of the reference's per-parameter note (`params[name]`); defaults to "Invalid parameter." */
  messageKey?: MessageKey;
  vars?: MessageVars;
  /** The precise reason: required, so that no refusal leaves the client guessing. */
  reason: Reason;
}

export class InvalidParamsError extends RestError {
  readonly failures: Record<string, ParamFailure>;
  constructor(failures: Record<string, ParamFailure>) {
    super(400, 'rest_invalid_param', { vars: { params: Object.keys(failures).join(', ') } });
    this.failures = failures;
  }
}

export function invalidParam(name: string, reason: Reason, note: Omit<ParamFailure, 'reason'> = {}): InvalidParamsError {
  return new InvalidParamsError({ [name]: { ...note, reason } });
}

export class MissingParamsError extends RestError {
  readonly names: string[];
  constructor(names: string[]) {
    super(400, 'rest_missing_callback_param', { vars: { params: names.join(', ') }, data: { params: names } });
    this.names = names;
  }
}

export function forbidden(isVisitor: boolean): RestError {
  return new RestError(isVisitor ? 401 : 403, 'rest_forbidden');
}
