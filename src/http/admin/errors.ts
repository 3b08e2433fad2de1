import type { MessageKey } from '../../i18n/catalog.ts';
import { ErrorPage } from '../../web/admin/error-page.tsx';
import type { FieldErrors } from '../../web/admin/form-parts.tsx';
import type { PublicView } from '../../web/admin/frame.tsx';
import type { AdminAnswer, AdminRequest } from './admin-request.ts';
import { adminView } from './admin-view.ts';
import type { ApiOutcome } from './call-api.ts';

/** The catalogue message of an error code (the back office's own codes, then the API's), or a generic one. */
export function errorMessage(t: AdminRequest['t'], code: string): string {
  const own: Record<string, MessageKey> = {
    admin_origin_mismatch: 'admin_origin_mismatch',
    admin_token_invalid: 'admin_token_invalid',
    admin_not_found: 'admin_not_found',
    admin_method_not_allowed: 'admin_method_not_allowed',
    admin_link_expired: 'admin_link_expired',
    admin_edit_conflict: 'admin_edit_conflict',
    admin_signin_failed: 'admin_signin_failed',
  };
  const key = own[code] ?? (code as MessageKey);
  const text = t(key);
  return text === undefined || text === key ? t('rest_forbidden') : text;
}

/** 100 §13: an error page in the frame, with `X-Calendar-Error: {code}`. */
export function adminErrorPage(req: AdminRequest, status: number, code: string, message?: string): AdminAnswer {
  return { status, body: ErrorPage({ view: adminView(req), code, message: message ?? errorMessage(req.t, code) }), headers: { 'X-Calendar-Error': code } };
}

/**
 * The API's refusal of a page's call as that page's error (100 §13): an unknown record is the
 * 404 page; 401 becomes 403, as the page's user is signed in but the call is not allowed.
 */
export function refusalPage(req: AdminRequest, outcome: Extract<ApiOutcome, { ok: false }>): AdminAnswer {
  if (outcome.status === 404) return adminErrorPage(req, 404, 'admin_not_found');
  return adminErrorPage(req, outcome.status === 401 ? 403 : outcome.status, outcome.code, outcome.message);
}

/** The same without a session (sign-in, links, refusals before the session is known). */
export function publicErrorPage(view: PublicView, status: number, code: string, message?: string): AdminAnswer {
  return { status, body: ErrorPage({ view, code, message: message ?? errorMessage(view.t, code) }), headers: { 'X-Calendar-Error': code } };
}

/**
 * 100 §8.5: the API's refusal as field errors. `fieldMap` maps an API parameter to the form field
 * that shows it (absent from a record: the same name; null: no field). Errors without a field, and
 * refusals without details, are `unplaced` (listed in the summary without a link).
 */
export function apiErrorsToFields(
  outcome: ApiOutcome,
  fieldMap: Record<string, string | null> | ((param: string, detail: { code?: string; message: string }) => string | null),
): { errors: FieldErrors; unplaced: string[] } {
  const errors: FieldErrors = {};
  const unplaced: string[] = [];
  if (outcome.ok) return { errors, unplaced };
  const entries = Object.entries(outcome.details);
  if (entries.length === 0) unplaced.push(outcome.message);
  for (const [param, detail] of entries) {
    const field = typeof fieldMap === 'function' ? fieldMap(param, detail) : param in fieldMap ? fieldMap[param] : param;
    if (field === null) unplaced.push(detail.message);
    else errors[field] = detail.message;
  }
  return { errors, unplaced };
}
