import { createHash } from 'node:crypto';
import { RestError } from '../errors.ts';

/** The kind letter of a record tag (80 §1.1). */
export type TagKind = 'e' | 'v' | 'o' | 'c' | 't';

/** What a single record's tag is made of besides the body hash. */
export interface RecordTag {
  kind: TagKind;
  id: number;
  revision: number;
}

/** A write request's `If-Match` header, and whether the configuration requires one (80 §1.3). */
export interface Precondition {
  ifMatch: string | undefined;
  required: boolean;
}

/** 22 base64url characters of the first 16 bytes of SHA-256 over the body bytes. */
export function bodyHash(body: string | Buffer): string {
  return createHash('sha256').update(body).digest().subarray(0, 16).toString('base64url');
}

/** The strong tag of a response body: `"e12-3-…"` for a record, `"l-…"` for anything else. */
export function entityTag(body: string, record?: RecordTag): string {
  return entityTagOfHash(bodyHash(body), record);
}

/** The same tag from a body hash already computed (a cached body hashes once). */
export function entityTagOfHash(hash: string, record?: RecordTag): string {
  return record === undefined ? `"l-${hash}"` : `"${prefix(record)}-${hash}"`;
}

function prefix(record: RecordTag): string {
  return `${record.kind}${record.id}-${record.revision}`;
}

/** RFC 9110 weak comparison for `If-None-Match`: `*`, or a listed tag equal to `tag` ignoring `W/`. */
export function noneMatchHits(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((item) => {
    const trimmed = item.trim().replace(/^W\//, '');
    return trimmed === '*' || trimmed === tag;
  });
}

const RECORD_TAG = /^"([evoct])(\d+)-(\d+)(?:-[A-Za-z0-9_-]{22})?"$/;

/**
 * 80 §1.3, checked inside the write transaction after the record's row lock: `*` holds for any
 * existing record; record tags hold when kind, id and revision match (the hash part is ignored:
 * a renamed venue embedded in the event is no change of the event); weak and list tags never.
 * False → 412 with the current prefix-only tag; none sent while required → 428.
 */
export function checkPrecondition(precondition: Precondition | undefined, record: RecordTag): void {
  if (precondition === undefined) return;
  const header = precondition.ifMatch;
  if (header === undefined || header.trim() === '') {
    if (precondition.required) throw new RestError(428, 'rest_precondition_required');
    return;
  }
  const holds = header.split(',').some((item) => {
    const tag = item.trim();
    if (tag === '*') return true;
    const match = RECORD_TAG.exec(tag);
    return match !== null && match[1] === record.kind && Number(match[2]) === record.id && Number(match[3]) === record.revision;
  });
  if (!holds) throw new RestError(412, 'rest_precondition_failed', { data: { etag: `"${prefix(record)}"` } });
}
