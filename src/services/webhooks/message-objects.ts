import type { Config } from '../../config.ts';
import type { User } from '../../domain/users/user.ts';
import { renderContext } from '../../render/context.ts';
import { UrlBuilder } from '../../render/urls.ts';
import type { Storage } from '../../storage/database.ts';
import type { ChangeKind } from '../../storage/schema.ts';
import { changeObjects, objectKey } from '../change-objects.ts';

/** A message body larger than this is sent without its entries (80 §4.2), and receivers read the feed. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Renders the objects of a stored message body's upsert entries for a subscription's visibility, as of `now`. */
export type MessageObjects = (payload: string, visibility: string, now: Date) => Promise<string>;

/** Who a `full` subscription sees as (80 §4.1): an administrator who is nobody's author. */
const ADMINISTRATOR: User = { id: 0, login: '', email: '', role: 'administrator' };

interface MessageEntry {
  type: ChangeKind;
  id: number;
  effect: 'upsert' | 'remove';
  object?: Record<string, unknown>;
}

/**
 * What the first delivery attempt of an `include_objects` subscription's message does (80 §4.2):
 * each upsert entry gets its record as the subscription's visibility lists it then — a visitor
 * for `public`, an administrator for `full` — or none when the record is gone or no longer shown.
 * Links use CALENDAR_PUBLIC_URL (there is no request to take a host from).
 */
export function messageObjects(storage: Storage, config: Pick<Config, 'publicUrl' | 'basePath'>): MessageObjects {
  const urls = new UrlBuilder(config.publicUrl ?? 'http://localhost', config.basePath, 'en');
  return async (payload, visibility, now) => {
    const body = JSON.parse(payload) as { data: { changes: MessageEntry[]; truncated: boolean } };
    const ctx = renderContext({ lang: 'en', user: visibility === 'full' ? ADMINISTRATOR : null, urls, now });
    const changes = body.data.changes;
    const objects = await changeObjects(storage.db, changes.map((entry) => ({ kind: entry.type, record_id: entry.id, effect: entry.effect })), ctx);
    for (const entry of changes) {
      const object = entry.effect === 'upsert' ? objects.get(objectKey(entry.type, entry.id)) : undefined;
      if (object !== undefined) entry.object = object;
    }
    const rendered = JSON.stringify(body);
    if (Buffer.byteLength(rendered) <= MAX_BODY_BYTES) return rendered;
    return JSON.stringify({ ...body, data: { ...body.data, changes: [], truncated: true } });
  };
}
