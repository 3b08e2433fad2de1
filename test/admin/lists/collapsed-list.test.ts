import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, EVENTS, NOW } from '../../api/events/fixtures.ts';
import type { Principal } from '../../../src/domain/auth/capabilities.ts';
import { formatWall } from '../../../src/domain/dates/datetime-format.ts';
import { eventListFilter, nowBound, parseEventListQuery } from '../../../src/services/back-office/event-list.ts';
import { eventStatusCounts, type StatusCount } from '../../../src/storage/repositories/back-office-repository.ts';
import { EventsRepository, type EventListFilter } from '../../../src/storage/repositories/events-repository.ts';
import type { EventRow } from '../../../src/storage/schema.ts';

const NS = '/calendar/events/v1';
/** Later than NOW the same day: the fixture's scheduled event is due by then, some events end before it. */
const LATER = new Date('2025-04-01T15:00:00Z');
const ZONES = ['UTC', 'Europe/Copenhagen'];

/**
 * 100 §7.3, 60 §5: the collapsed list (a series once, as its earliest matching date) and the tab
 * counts, read from the series' own occurrences and the day counts, against their meaning spelt
 * out here from plain rows: the uncollapsed list collapsed by hand, and every event counted.
 */
for (const dialect of DIALECTS) {
  describe(`back office collapsed list and tab counts match their meaning [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const ids: Record<string, number> = {};
    const editor = (): Principal => ({ id: t.users.editor.id, login: t.users.editor.login, role: 'editor' }) as Principal;

    before(async () => {
      t = await startTestApp(dialect, { clock });
      const category = async (name: string, parent?: number) => (await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name, ...(parent ? { parent } : {}) } })).body.id as number;
      ids.music = await category('Music');
      ids.jazz = await category('Jazz', ids.music);
      ids.sport = await category('Sport');
      const event = async (title: string, start: string, end: string, extra: Record<string, unknown> = {}) =>
        (await createEvent(t, 'editor', { title, start_date: start, end_date: end, ...extra })).id as number;
      await event('Concert soon', '2025-04-05 19:00:00', '2025-04-05 21:00:00', { categories: [ids.music] });
      await event('Jazz evening', '2025-04-05 19:00:00', '2025-04-05 22:00:00', { categories: [ids.jazz] });
      await event('Match morning', '2025-04-01 08:00:00', '2025-04-01 12:00:00', { categories: [ids.sport] });
      await event('Match afternoon', '2025-04-01 13:00:00', '2025-04-01 16:30:00', { categories: [ids.sport], timezone: 'Europe/Copenhagen' });
      await event('Long fair', '2025-03-20 10:00:00', '2025-04-20 18:00:00');
      await event('Old jazz', '2025-02-01 10:00:00', '2025-02-01 12:00:00', { categories: [ids.jazz] });
      await event('Hidden talk', '2025-04-08 10:00:00', '2025-04-08 11:00:00', { hide_from_listings: true });
      await event('Draft jazz', '2025-04-09 10:00:00', '2025-04-09 11:00:00', { status: 'draft', categories: [ids.jazz] });
      await event('Pending walk', '2025-04-09 10:00:00', '2025-04-09 11:00:00', { status: 'pending' });
      await event('Due gala', '2025-04-12 10:00:00', '2025-04-12 11:00:00', { status: 'future', date: '2025-04-01 12:00:00' });
      await event('Later gala', '2025-06-12 10:00:00', '2025-06-12 11:00:00', { status: 'future', date: '2025-05-01 12:00:00' });
      ids.trashed = await event('Trashed jazz', '2025-04-10 10:00:00', '2025-04-10 11:00:00', { categories: [ids.jazz] });
      assert.equal((await t.request('DELETE', `${EVENTS}/${ids.trashed}`, { as: 'editor' })).status, 200);
      const series = async (title: string, start: string, end: string, rrule: string, extra: Record<string, unknown> = {}) => {
        const created = await t.request('POST', EVENTS, { as: 'editor', body: { title, start_date: start, end_date: end, recurrence: { rrule }, ...extra } });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        return created.body.id as number;
      };
      // Dates before, on and after today, one date trashed: the first matching date differs by tab.
      ids.weekly = await series('Weekly jazz class', '2025-03-18 18:00:00', '2025-03-18 19:00:00', 'FREQ=WEEKLY;COUNT=6', { categories: [ids.jazz] });
      await series('Daily run', '2025-03-30 14:00:00', '2025-03-30 14:45:00', 'FREQ=DAILY;COUNT=5', { categories: [ids.sport] });
      await series('Draft course', '2025-04-03 09:00:00', '2025-04-03 10:00:00', 'FREQ=WEEKLY;COUNT=3', { status: 'draft' });
      const third = await t.storage.db.selectFrom('events').select('id').where('post_parent', '=', ids.weekly).where('start_local', '=', '2025-04-01 18:00:00').executeTakeFirstOrThrow();
      assert.equal((await t.request('DELETE', `${EVENTS}/${third.id}`, { as: 'editor' })).status, 200);
      // A row per standalone event of the same page size as the collapsed ones: paging crosses series.
      for (let day = 10; day < 16; day++) await event(`Filler ${day}`, `2025-04-${day} 12:00:00`, `2025-04-${day} 13:00:00`, { categories: [ids.sport] });
    });
    after(() => t.close());

    /** The list's rows as `GET {ns}/events` gives them uncollapsed, each series then kept at its earliest (start, id). */
    const collapsedByHand = async (repo: EventsRepository, filter: EventListFilter): Promise<EventRow[]> => {
      const { rows } = await repo.list({ ...filter, firstOfSeries: false }, 1, 500);
      const first = new Map<number, EventRow>();
      for (const row of rows) {
        if (row.post_parent === 0) continue;
        const kept = first.get(row.post_parent);
        if (kept === undefined || row.start_local < kept.start_local || (row.start_local === kept.start_local && row.id < kept.id)) first.set(row.post_parent, row);
      }
      return rows.filter((row) => row.post_parent === 0 || first.get(row.post_parent) === row);
    };

    const queries: Record<string, string>[] = [
      {}, { when: 'past' }, { when: 'any' }, { order: 'desc' }, { when: 'past', order: 'asc' },
      { status: 'publish' }, { status: 'draft' }, { status: 'pending' }, { status: 'future' }, { status: 'trash' }, { status: 'draft', when: 'upcoming' },
      { s: 'jazz' }, { s: 'gala' }, { s: '-jazz' }, { category: 'music' }, { category: 'jazz' }, { category: 'sport', when: 'past' }, { category: 'sport', s: 'run' },
    ];

    for (const zone of ZONES) {
      for (const now of [NOW, LATER]) {
        test(`rows, order and paging of every tab, search and category [${zone}, ${now.toISOString()}]`, async () => {
          const repo = new EventsRepository(t.storage.db, formatWall(now));
          let compared = 0;
          for (const raw of queries) {
            const query = { ...raw, ...(raw.category === undefined ? {} : { category: String(ids[raw.category]) }) };
            const filter = (await eventListFilter(t.storage.db, editor(), parseEventListQuery(query), zone, now))!;
            assert.equal(filter.firstOfSeries, true);
            const expected = (await collapsedByHand(repo, filter)).map((row) => row.id);
            for (const perPage of [3, 20]) {
              const pages: number[] = [];
              let total = -1;
              for (let page = 1; page <= Math.max(1, Math.ceil(expected.length / perPage)) + 1; page++) {
                const listed = await repo.list(filter, page, perPage);
                total = listed.total;
                pages.push(...listed.rows.map((row) => row.id));
              }
              assert.deepEqual(pages, expected, `${JSON.stringify(raw)} by ${perPage}`);
              assert.equal(total, expected.length, `total of ${JSON.stringify(raw)}`);
            }
            compared += expected.length;
          }
          // The fixture reaches every part: series collapsed, trashed, drafts, several categories.
          assert.ok(compared > 60, `rows compared: ${compared}`);
        });

        test(`tab counts: per status as read now, upcoming and past, a series once [${zone}, ${now.toISOString()}]`, async () => {
          const nowUtc = formatWall(now);
          const nowWall = nowBound(now, zone);
          const rows = (await t.storage.db.selectFrom('events').selectAll().execute()).filter((row) => row.is_series_master === 0 && row.hide_from_listings === 0);
          const expected = ['publish', 'future', 'draft', 'pending', 'private', 'trash'].map((status): StatusCount => {
            const ofStatus = rows.filter((row) => (row.status === 'future' && row.date_utc <= nowUtc ? 'publish' : row.status) === status);
            const once = (kept: typeof rows) => kept.filter((row) => row.post_parent === 0).length + new Set(kept.filter((row) => row.post_parent !== 0).map((row) => row.post_parent)).size;
            const end = (row: EventRow) => (zone === 'UTC' ? row.end_utc : row.end_local);
            return { status: status as StatusCount['status'], all: once(ofStatus), upcoming: once(ofStatus.filter((row) => end(row) > nowWall)), past: once(ofStatus.filter((row) => end(row) <= nowWall)) };
          });
          assert.deepEqual(await eventStatusCounts(t.storage.db, nowUtc, nowWall, zone === 'UTC'), expected);
          if (now === LATER) assert.ok(expected[0].upcoming > 0 && expected[0].past > 0 && expected[2].all > 0 && expected[5].all > 0);
        });
      }
    }
  });
}
