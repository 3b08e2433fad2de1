import type { Kysely } from 'kysely';
import { Coalescer } from '../../../services/coalescer.ts';
import type { CreateRequest, EventsService } from '../../../services/events-service.ts';
import type { Database, EventRow } from '../../../storage/schema.ts';
import { serializeEvents } from '../../../read/event-models.ts';
import type { RestContext } from '../../rest/context.ts';

export interface CreatedEvent {
  event: EventRow;
  body: Record<string, unknown>;
}

/** Requests written in one transaction: more would only make the first of them wait longer. */
const MAX_GROUP = 64;
/**
 * How long, without a new create or a group's end, the next group waits at least for the
 * connections the last one answered: long enough for a client on the same network to send its
 * next create and for that create to pass its validation (on PostgreSQL a query or two: with 1 ms,
 * 16 clients split into alternating groups of 8 there, as if nobody waited).
 */
const PATIENCE_MS = 3;
/**
 * And at most, however slowly the clients have been coming back: what a client which has stopped
 * costs the others once.
 */
const MAX_PATIENCE_MS = 12;

/**
 * Event creates, coalesced: requests arriving while a group is being written form the next group,
 * written in one transaction (one commit, one statement per step) and rendered inside it. One
 * group at a time: SQLite has one writer anyway, and on PostgreSQL groups side by side were
 * slower in our measurements (their term count rows make them wait for each other).
 */
export function eventCreates(events: EventsService): (request: CreateRequest & { ctx: RestContext }) => Promise<CreatedEvent> {
  const coalescer = new Coalescer<CreateRequest, CreatedEvent>(
    (requests) => events.createMany(requests, renderCreated),
    { maxItems: MAX_GROUP, concurrency: 1, patienceMs: PATIENCE_MS, maxPatienceMs: MAX_PATIENCE_MS },
  );
  return (request) => coalescer.submit(request, request.ctx.client);
}

/** Each created event as its caller sees it: one batch of read-model queries per caller and address. */
async function renderCreated(trx: Kysely<Database>, requests: readonly CreateRequest[], created: readonly EventRow[]): Promise<CreatedEvent[]> {
  const callers = new Map<string, number[]>();
  for (const [index, { ctx }] of requests.entries()) {
    const key = `${ctx.user?.id ?? 0} ${ctx.user?.role ?? ''} ${ctx.urls.ns}`;
    const indexes = callers.get(key);
    if (indexes === undefined) callers.set(key, [index]);
    else indexes.push(index);
  }
  const answers: CreatedEvent[] = [];
  for (const indexes of callers.values()) {
    const bodies = await serializeEvents(trx, indexes.map((index) => created[index]), requests[indexes[0]].ctx);
    indexes.forEach((index, n) => (answers[index] = { event: created[index], body: bodies[n] }));
  }
  return answers;
}
