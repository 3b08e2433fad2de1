import type { FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import type { User } from '../../domain/users/user.ts';
import type { Language, MessageKey, MessageVars } from '../../i18n/catalog.ts';
import type { RestContext } from '../rest/context.ts';
import type { AppDeps } from '../routes/index.ts';

/** The fields of a form post as sent: names as written (`categories[]`, `venue_new[city]`), values in order. */
export type FormFields = {
  get(name: string): string | undefined;
  all(name: string): string[];
  has(name: string): boolean;
  entries(): [string, string][];
};

/** A file of a multipart post (imports, media), read whole after the `_token` check. */
export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

/** What a back office page handler gets (100 §2): the signed-in user, the edition, the parsed form. */
export interface AdminRequest {
  /** The signed-in user (role read with the session, so a role change applies at once). */
  user: User;
  lang: Language;
  /** The session's `_token` / X-WP-Nonce value. */
  csrfToken: string;
  sessionId: number;
  /** Below `{base}{edition}/admin`, e.g. '/events/12/'. */
  path: string;
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  /** Parsed urlencoded/multipart fields (POST); empty on GET. */
  form: FormFields;
  /** Files of a multipart post (pages with `multipart: true`); empty otherwise. */
  files: UploadedFile[];
  /** A RestContext for this user and edition (precondition empty). */
  ctx: RestContext;
  deps: AppDeps;
  /** `{base}{edition}/admin` + path (+ query, undefined values left out). */
  adminUrl(path: string, query?: Record<string, string | number | undefined>): string;
  t(key: MessageKey, vars?: MessageVars): string;
  raw: FastifyRequest;
}

/** A page's answer: an HTML page (the page applies AdminFrame itself) or a redirect. */
export type AdminAnswer =
  | { status?: number; body: VNode | string; headers?: Record<string, string>; cookies?: string[] }
  | { redirect: string; status?: 303 | 301; cookies?: string[] };

export function formFields(pairs: [string, string][]): FormFields {
  return {
    get: (name) => pairs.find(([key]) => key === name)?.[1],
    all: (name) => pairs.filter(([key]) => key === name).map(([, value]) => value),
    has: (name) => pairs.some(([key]) => key === name),
    entries: () => pairs.slice(),
  };
}

export const NO_FIELDS: FormFields = formFields([]);

/** `?a=1&b=x&b=y` → `{a: '1', b: ['x', 'y']}`, names as written. */
export function queryRecord(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of new URLSearchParams(search)) {
    const existing = query[key];
    query[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return query;
}

/** `{base}{edition}/admin` + path + query. */
export function adminHref(prefix: string, path: string, query?: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.append(key, String(value));
  const search = params.toString();
  return `${prefix}${path}${search === '' ? '' : `?${search}`}`;
}
