import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type Caller, type TestApp, type TestResponse } from '../../helpers/test-app.ts';
import { feedSettled } from './feed-settled.ts';

/**
 * 80 §3.1 `include=object` and the client procedure of §3.6: a client that copies the lists and
 * then applies the feed's entries with their objects ends with what a fresh full read shows,
 * record by record — here while writes go on through two instances of the service.
 */

const DATES = { start_date: '2031-09-01 10:00', end_date: '2031-09-01 12:00' };
/** A pinned clock: series on DATES lie inside the recurrence horizon (24 months on). */
const clock = () => new Date('2030-06-01T12:00:00Z');
const LISTS = ['events', 'venues', 'organizers', 'categories', 'tags'] as const;
const TYPES: Record<(typeof LISTS)[number], string> = { events: 'event', venues: 'venue', organizers: 'organizer', categories: 'category', tags: 'tag' };

type Copy = Map<string, unknown>;

interface Entry {
  type: string;
  id: number;
  op: string;
  effect: 'upsert' | 'remove';
  object?: Record<string, unknown>;
}

/** A path with query of an absolute link the service gave. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/**
 * A term's `count` is derived: the feed reports no change for it (80 §3.3), so copies compare
 * without it — in terms and in the terms events embed.
 */
function comparable(object: unknown): unknown {
  if (Array.isArray(object)) return object.map(comparable);
  if (object === null || typeof object !== 'object') return object;
  const record = object as Record<string, unknown>;
  const isTerm = typeof record.taxonomy === 'string';
  return Object.fromEntries(Object.entries(record).filter(([key]) => !(isTerm && key === 'count')).map(([key, value]) => [key, comparable(value)]));
}

/** Every record the caller's lists show (80 §3.6 step 2: no date window, all pages, every status it may list). */
async function fullRead(app: TestApp, as: Caller): Promise<Copy> {
  const copy: Copy = new Map();
  const statuses = as === 'administrator' ? '&status=any' : '';
  for (const list of LISTS) {
    const terms = list === 'categories' || list === 'tags';
    let path: string | undefined = `${NS}/${list}?per_page=50${terms ? '&hide_empty=0' : `&modified_after=1970-01-01${statuses}`}`;
    while (path !== undefined) {
      const res: TestResponse = await app.request('GET', path, { as });
      assert.equal(res.status, 200, res.text);
      for (const item of res.body[list] as Array<{ id: number }>) copy.set(`${TYPES[list]}:${item.id}`, comparable(item));
      path = res.body.next_rest_url === undefined ? undefined : pathOf(res.body.next_rest_url);
    }
  }
  return copy;
}

/** Reads the feed from `cursor` to its current end with objects and applies it to `copy`; answers the cursor to go on with. */
async function replay(app: TestApp, as: Caller, cursor: string, copy: Copy): Promise<string> {
  for (;;) {
    const page = await app.request('GET', `${NS}/changes?cursor=${cursor}&include=object&limit=9`, { as });
    assert.equal(page.status, 200, page.text);
    for (const entry of page.body.changes as Entry[]) {
      const key = `${entry.type}:${entry.id}`;
      if (entry.effect === 'remove' || entry.object === undefined) copy.delete(key);
      else copy.set(key, comparable(entry.object));
    }
    cursor = page.body.next_cursor;
    if (!page.body.has_more) return cursor;
  }
}

function sorted(copy: Copy): Array<[string, unknown]> {
  return [...copy.entries()].sort(([a], [b]) => a.localeCompare(b));
}

for (const dialect of DIALECTS) {
  describe(`change feed with objects (${dialect})`, { skip: skipReason(dialect) }, () => {
    let a: TestApp;
    let b: TestApp;
    before(async () => {
      a = await startTestApp(dialect, { clock });
      // SQLite is one process with one connection: the "second instance" is the same one.
      b = dialect === 'postgres' ? await startTestApp(dialect, { sharing: a, clock }) : a;
    });
    after(async () => {
      if (b !== a) await b?.close();
      await a?.close();
    });

    const create = async (app: TestApp, path: string, body: Record<string, unknown>) => {
      const res = await app.request('POST', `${NS}/${path}`, { as: 'editor', body });
      assert.equal(res.status, 201, res.text);
      return res.body.id as number;
    };
    const patch = async (app: TestApp, path: string, body: Record<string, unknown>) => {
      const res = await app.request('PATCH', `${NS}/${path}`, { as: 'editor', body });
      assert.equal(res.status, 200, res.text);
    };

    it('bootstrap from the lists, then replay the feed with objects: equal to a fresh full read, as a visitor and as an administrator, under concurrent writes through two instances', async () => {
      // What exists before the client starts.
      const tag = await create(a, 'tags', { name: 'Jazz' });
      const venue = await create(a, 'venues', { venue: 'Old hall' });
      const early = await Promise.all([0, 1, 2, 3].map((n) => create(a, 'events', { title: `Early ${n}`, venue, tags: [tag], ...DATES })));
      await feedSettled(a);
      const callers = ['visitor', 'administrator'] as const;
      const heads = new Map<Caller, string>();
      for (const as of callers) heads.set(as, (await b.request('GET', `${NS}/changes`, { as })).body.next_cursor);

      // Writes through both instances while the clients copy the lists.
      const writes = (async () => {
        const steps = (round: number): Array<(app: TestApp) => Promise<unknown>> => [
          (app) => patch(app, `events/${early[0]}`, { title: 'Early 0, renamed' }),
          (app) => patch(app, `events/${early[1]}`, { status: 'draft' }),
          (app) => app.request('DELETE', `${NS}/events/${early[2]}`, { as: 'editor' }),
          (app) => patch(app, `events/${early[3]}`, { hide_from_listings: true }),
          (app) => create(app, 'venues', { venue: `New hall ${round}` }).then((id) => patch(app, `venues/${id}`, { city: 'Aarhus' })),
          (app) => create(app, 'organizers', { organizer: `Crew ${round}`, status: 'draft' }),
          (app) => create(app, 'tags', { name: `Blues ${round}` }).then((id) => patch(app, `tags/${id}`, { description: 'Slow' })),
          (app) => create(app, 'categories', { name: `Music ${round}` }),
          (app) => create(app, 'events', { title: 'Weekly', ...DATES, recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' } }),
          (app) => create(app, 'events', { title: 'Locked', password: 'sesame', tags: [tag], ...DATES }),
          (app) => create(app, 'events', { title: 'Inline venue', venue: { venue: 'Tent' }, ...DATES }).then((id) => patch(app, `events/${id}`, { status: 'private' })),
        ];
        for (let round = 0; round < 3; round++) {
          await Promise.all(steps(round).map((step, index) => step(index % 2 === 0 ? a : b)));
          await Promise.all([0, 1].map(async (n) => {
            const app = n === 0 ? a : b;
            const id = await create(app, 'events', { title: `Round ${round}.${n}`, ...DATES });
            await patch(app, `events/${id}`, { title: `Round ${round}.${n}, renamed`, status: n === 0 ? 'draft' : 'publish' });
          }));
        }
      })();
      const copies = new Map<Caller, Copy>();
      for (const as of callers) copies.set(as, await fullRead(as === 'visitor' ? a : b, as));
      await writes;
      await feedSettled(a);

      for (const as of callers) {
        const copy = copies.get(as)!;
        // Replayed alternately through the two instances: a cursor of one is good on the other.
        const cursor = await replay(a, as, heads.get(as)!, copy);
        await replay(b, as, cursor, copy);
        const fresh = await fullRead(a, as);
        assert.ok(fresh.size > 10, as);
        assert.deepEqual(sorted(copy), sorted(fresh), as);
      }
    });

    it('an upsert whose record is since trashed, hidden or unpublished carries no object; the later entry removes it', async () => {
      await feedSettled(a);
      const visitor = (await a.request('GET', `${NS}/changes`)).body.next_cursor as string;
      const trashed = await create(a, 'events', { title: 'Soon trashed', ...DATES });
      const hidden = await create(b, 'events', { title: 'Soon hidden', ...DATES });
      const unpublished = await create(a, 'events', { title: 'Soon a draft', ...DATES });
      const kept = await create(b, 'events', { title: 'Kept', password: 'sesame', ...DATES });
      await a.request('DELETE', `${NS}/events/${trashed}`, { as: 'editor' });
      await patch(b, `events/${hidden}`, { hide_from_listings: true });
      await patch(a, `events/${unpublished}`, { status: 'draft' });
      await feedSettled(a);
      const page = await b.request('GET', `${NS}/changes?cursor=${visitor}&include=object`);
      assert.equal(page.status, 200, page.text);
      const seen = (page.body.changes as Entry[]).map((entry) => [entry.id, entry.op, entry.effect, entry.object === undefined ? 'none' : 'object']);
      assert.deepEqual(seen, [
        [trashed, 'create', 'upsert', 'none'],
        [hidden, 'create', 'upsert', 'none'],
        [unpublished, 'create', 'upsert', 'none'],
        [kept, 'create', 'upsert', 'object'],
        [trashed, 'trash', 'remove', 'none'],
        [hidden, 'update', 'remove', 'none'],
        [unpublished, 'update', 'remove', 'none'],
      ]);
      // The object is the caller's list item: protected content blanked, no json_ld.
      const object = (page.body.changes as Entry[])[3].object!;
      const listed = (await a.request('GET', `${NS}/events?include=${kept}&modified_after=1970-01-01`)).body.events[0];
      assert.deepEqual(object, listed);
      assert.equal(object.json_ld, undefined);
      assert.equal(object.description, '');
      // The editor still sees the draft: its entries carry it as the editor's list shows it.
      const editor = await b.request('GET', `${NS}/changes?cursor=${(await a.request('GET', `${NS}/changes?start=earliest&limit=1`, { as: 'editor' })).body.changes[0].cursor}&include=object&types=event&limit=500`, { as: 'editor' });
      const draft = (editor.body.changes as Entry[]).filter((entry) => entry.id === unpublished);
      assert.deepEqual(draft.map((entry) => [entry.effect, (entry.object as { status?: string } | undefined)?.status]), [['upsert', 'draft'], ['upsert', 'draft']]);
      // include names what it adds; anything else is refused; links repeat it.
      assert.ok(String(page.body.rest_url).includes('include=object'));
      assert.equal((await a.request('GET', `${NS}/changes?include=objects`)).status, 400);
    });

    it('include=hidden: hidden events and series masters count as visible for those who may edit events', async () => {
      await feedSettled(a);
      const cursor = (await a.request('GET', `${NS}/changes`, { as: 'administrator' })).body.next_cursor as string;
      const hidden = await create(a, 'events', { title: 'Unlisted', hide_from_listings: true, ...DATES });
      const master = await create(b, 'events', { title: 'Series', ...DATES, recurrence: { rrule: 'FREQ=DAILY;COUNT=2' } });
      await feedSettled(a);
      const read = async (include: string) => (await a.request('GET', `${NS}/changes?cursor=${cursor}&include=${include}&types=event`, { as: 'administrator' })).body.changes as Entry[];
      assert.deepEqual((await read('object')).filter((entry) => entry.id === hidden || entry.id === master), []);
      const all = await read('object,hidden');
      const object = (id: number) => all.find((entry) => entry.id === id)?.object as Record<string, any> | undefined;
      assert.equal(object(hidden)?.hide_from_listings, true);
      assert.equal(object(master)?.recurrence.rrule, 'FREQ=DAILY;COUNT=2');
      assert.equal(all.filter((entry) => entry.object?.post_parent === master).length, 2);
      assert.equal((await a.request('GET', `${NS}/changes?start=earliest&include=hidden`)).status, 401);
      assert.equal((await a.request('GET', `${NS}/changes?start=earliest&include=hidden`, { as: 'subscriber' })).status, 403);
    });

    it('objects are loaded in batches: a page of thirty entries costs what a page of three does', async () => {
      const venue = await create(a, 'venues', { venue: 'Batch hall' });
      const tag = await create(a, 'tags', { name: 'Batch' });
      const cost = async (count: number) => {
        await feedSettled(a);
        const cursor = (await a.request('GET', `${NS}/changes`)).body.next_cursor as string;
        for (let n = 0; n < count; n++) await create(a, 'events', { title: `Batch ${n}`, venue, tags: [tag], ...DATES });
        await feedSettled(a);
        const before = await a.queryCount();
        const page = await a.request('GET', `${NS}/changes?cursor=${cursor}&include=object&limit=500`);
        const statements = (await a.queryCount()) - before;
        assert.equal(page.body.changes.filter((entry: Entry) => entry.object !== undefined).length, count);
        return statements;
      };
      assert.equal(await cost(30), await cost(3));
    });
  });
}
