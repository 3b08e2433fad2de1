import { encodeCursor } from '../../domain/sync/cursor.ts';
import { matchesTypes } from '../../domain/webhooks/subscription-rules.ts';
import { messageId } from '../../domain/webhooks/signing.ts';
import type { Config } from '../../config.ts';
import { UrlBuilder } from '../../render/urls.ts';
import type { Storage } from '../../storage/database.ts';
import { headPosition, listChangesAfter, readFeedMeta, type ChangeEntry, type FeedPosition } from '../../storage/repositories/changes-repository.ts';
import { WebhooksRepository, type NewMessage } from '../../storage/repositories/webhooks-repository.ts';
import { inTransaction } from '../../storage/transactions.ts';
import type { ChangeKind, WebhookRow } from '../../storage/schema.ts';
import type { FanOut } from './delivery-worker.ts';

/** Entries read per subscription and round; the next round goes on from there. */
const PAGE = 500;

const COLLECTIONS: Record<ChangeKind, string> = { event: 'events', venue: 'venues', organizer: 'organizers', category: 'categories', tag: 'tags' };

/** Stored form of a change-log position (`txid:seq`). */
function positionText(position: FeedPosition): string {
  return `${position.txid}:${position.seq}`;
}

function parsePosition(text: string | null): FeedPosition {
  const [txid = '0', seq = '0'] = (text ?? '0:0').split(':');
  return { txid, seq };
}

/** Where the change log stands now: a new (or re-enabled) subscription receives what comes after. */
export async function changeHead(storage: Storage): Promise<string> {
  return positionText(await headPosition(storage.db));
}

/**
 * The dispatcher step (80 §4.2, §4.4): for each active subscription, the change-log entries after
 * its position that it may see (public or full visibility, 80 §3.4) and asks for (its `types`)
 * become messages, and the position advances — in one transaction, so a change is enqueued
 * exactly once whichever instance runs this. On PostgreSQL a subscription another instance is
 * fanning out is skipped (row lock, SKIP LOCKED). The log is read in commit-safe order (below
 * the snapshot horizon), so no entry of a slow transaction is jumped over.
 *
 * One message per entry: each carries one record, so that a later change of a record can wait
 * for the earlier one (per-record order) while other records go out in parallel.
 */
export function changeFanOut(storage: Storage, config: Pick<Config, 'publicUrl' | 'basePath'>): FanOut {
  // Links need an origin, and there is no request here: only with CALENDAR_PUBLIC_URL.
  const urls = config.publicUrl ? new UrlBuilder(config.publicUrl, config.basePath, 'en') : null;
  return async () => {
    // Without a subscription there is nothing to write: no transaction, no wait for the writer's lock.
    if (!(await new WebhooksRepository(storage.db).hasActiveSubscriptions())) return;
    // On SQLite inTransaction takes the write lock before the first read (see there).
    await inTransaction(storage.db, async (trx) => {
      const repository = new WebhooksRepository(trx);
      const subscriptions = await repository.lockActiveSubscriptions(trx);
      if (subscriptions.length === 0) return;
      const now = await repository.now();
      const nowUtc = now.toISOString().slice(0, 19).replace('T', ' ');
      const { epoch } = await readFeedMeta(trx);
      for (const subscription of subscriptions) {
        const page = await listChangesAfter(trx, parsePosition(subscription.change_position), PAGE, { seesUnpublished: subscription.visibility === 'full', nowUtc });
        const patterns = JSON.parse(subscription.types) as string[];
        const messages = page.entries
          .filter((entry) => matchesTypes(patterns, entry.kind, entry.op))
          .map((entry) => message(subscription, entry, epoch, now, urls));
        await repository.insertMessages(messages, now);
        if (positionText(page.next) !== subscription.change_position) await repository.setChangePosition(trx, subscription.id, positionText(page.next));
      }
    });
  };
}

/** The message of one entry (80 §4.2); the cursors are public-visibility feed cursors. */
function message(subscription: WebhookRow, entry: ChangeEntry, epoch: string, now: Date, urls: UrlBuilder | null): NewMessage {
  const cursor = encodeCursor({ epoch, txid: entry.position.txid, seq: entry.position.seq, principal: 0, accessEpoch: 0 });
  const change = {
    type: entry.kind,
    id: entry.record_id,
    op: entry.op,
    effect: entry.effect,
    at: entry.at,
    ...(urls ? { rest_url: urls.nsUrl(`/${COLLECTIONS[entry.kind]}/${entry.record_id}`) } : {}),
    cursor,
    ...(entry.post_parent > 0 ? { post_parent: entry.post_parent } : {}),
  };
  const payload = { type: 'calendar.changes', timestamp: now.toISOString().replace(/\.\d+Z$/, 'Z'), data: { changes: [change], position: cursor, truncated: false } };
  return { subscription_id: subscription.id, webhook_id: messageId(), type: 'calendar.changes', record_key: `${entry.kind}:${entry.record_id}`, payload: JSON.stringify(payload) };
}
