import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { extendSeries } from '../../../src/services/recurrence-job.ts';
import { SeriesService } from '../../../src/services/series-service.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, createSeries, EVENTS, NOW, occurrencesOf } from './support.ts';

const weekly = (extra: Record<string, unknown> = {}) => ({
  start_date: '2025-04-07 19:30:00',
  end_date: '2025-04-07 22:00:00',
  timezone: 'Europe/Rome',
  status: 'publish',
  recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=6' },
  ...extra,
});

for (const dialect of DIALECTS) {
  describe(`recurrence: writes on series [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    const get = async (id: number, as: 'editor' | 'visitor' = 'editor') => t.request('GET', `${EVENTS}/${id}`, { as });
    const update = async (id: number, body: Record<string, unknown>, as: any = 'editor') => t.request('POST', `${EVENTS}/${id}`, { as, body });

    test('changing the time of the series keeps every id; a moved occurrence keeps its own time', async () => {
      const master = await createSeries(t, weekly());
      const before = await occurrencesOf(t, master.id);
      const moved = await update(before[2].id, { start_date: '2025-04-21 18:00', end_date: '2025-04-21 20:00' });
      assert.equal(moved.status, 200);
      const res = await update(master.id, { start_date: '2025-04-07 20:00', end_date: '2025-04-07 22:30', title: 'Later' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.id, master.id);
      const after = await occurrencesOf(t, master.id);
      assert.deepEqual(after.map((e) => e.id), before.map((e) => e.id));
      assert.deepEqual(after.map((e) => e.start_date.slice(11)), ['20:00:00', '20:00:00', '18:00:00', '20:00:00', '20:00:00', '20:00:00']);
      assert.deepEqual(after.map((e) => e.recurrence_id.slice(11)), Array(6).fill('20:00:00'));
      assert.ok(after.every((e) => e.title === 'Later'));
    });

    test('changing the weekday gives new ids; exceptions go to the trash, not lost', async () => {
      const master = await createSeries(t, weekly());
      const before = await occurrencesOf(t, master.id);
      await update(before[1].id, { title: 'Special' });
      const res = await update(master.id, { start_date: '2025-04-08 19:30', end_date: '2025-04-08 22:00', recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=6' } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const after = await occurrencesOf(t, master.id);
      assert.equal(after.length, 6, JSON.stringify(after.map((e) => [e.id, e.start_date, e.status, e.title])));
      assert.ok(after.every((e) => e.start_date.startsWith('2025-04-') || e.start_date.startsWith('2025-05-')));
      for (const e of after) assert.ok(!before.some((b) => b.id === e.id));
      const special = await get(before[1].id);
      assert.equal(special.status, 403);
      assert.equal(special.body.code, 'event-no-longer-available');
      const trashed = await occurrencesOf(t, master.id, 'editor', '&status=trash');
      assert.deepEqual(trashed.map((e) => e.id), [before[1].id]);
      assert.equal(trashed[0].title, 'Special');
      assert.equal((await get(before[0].id)).status, 404);
    });

    test('scope all from an occurrence edits the series, overridden fields stay', async () => {
      const master = await createSeries(t, weekly());
      const occ = await occurrencesOf(t, master.id);
      await update(occ[3].id, { title: 'Guest conductor' });
      const res = await update(occ[0].id, { scope: 'all', title: 'Choir', cost: '5' });
      assert.equal(res.status, 200);
      assert.equal(res.body.id, occ[0].id);
      const after = await occurrencesOf(t, master.id);
      assert.deepEqual(after.map((e) => e.title), ['Choir', 'Choir', 'Choir', 'Guest conductor', 'Choir', 'Choir']);
      assert.ok(after.every((e) => e.cost === '$5' || e.cost === '5'));
      assert.equal((await get(master.id)).body.title, 'Choir');
      assert.equal(after[3].recurrence_exception, true);
      assert.equal(after[0].recurrence_exception, false);
    });

    test('trash one occurrence: exdate added, not listed; restore it: back in the list; trashing twice: 410', async () => {
      const master = await createSeries(t, weekly());
      const occ = await occurrencesOf(t, master.id);
      const res = await t.request('DELETE', `${EVENTS}/${occ[2].id}`, { as: 'editor' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.status, 'trash');
      assert.deepEqual((await get(master.id)).body.recurrence.exdate, ['2025-04-21 19:30:00']);
      assert.equal((await occurrencesOf(t, master.id, 'visitor')).length, 5);
      assert.equal((await t.request('DELETE', `${EVENTS}/${occ[2].id}`, { as: 'editor' })).status, 410);
      const restored = await update(occ[2].id, { status: 'publish' });
      assert.equal(restored.status, 200);
      assert.deepEqual((await get(master.id)).body.recurrence.exdate, []);
      assert.equal((await occurrencesOf(t, master.id, 'visitor')).length, 6);
    });

    test('delete this and following ends the rule; force deletes; the whole series goes to the trash and back', async () => {
      const master = await createSeries(t, weekly());
      const occ = await occurrencesOf(t, master.id);
      const res = await t.request('DELETE', `${EVENTS}/${occ[4].id}?scope=following`, { as: 'editor' });
      assert.equal(res.status, 200);
      assert.equal(res.body.id, occ[4].id);
      assert.equal((await get(master.id)).body.recurrence.rrule, 'FREQ=WEEKLY;BYDAY=MO;COUNT=4');
      assert.equal((await occurrencesOf(t, master.id, 'visitor')).length, 4);

      const forced = await t.request('DELETE', `${EVENTS}/${occ[1].id}?force=true`, { as: 'editor' });
      assert.equal(forced.status, 200);
      assert.equal(forced.body.deleted, true);
      assert.equal((await get(occ[1].id)).status, 404);
      assert.deepEqual((await get(master.id)).body.recurrence.exdate, ['2025-04-14 19:30:00']);

      const all = await t.request('DELETE', `${EVENTS}/${occ[0].id}?scope=all`, { as: 'editor' });
      assert.equal(all.status, 200);
      assert.equal((await get(master.id)).status, 403);
      assert.equal((await occurrencesOf(t, master.id, 'visitor')).length, 0);
      assert.equal((await t.request('DELETE', `${EVENTS}/${master.id}`, { as: 'editor' })).status, 410);
      const back = await update(master.id, { status: 'publish' });
      assert.equal(back.status, 200);
      assert.equal((await occurrencesOf(t, master.id, 'visitor')).length, 3);

      const gone = await t.request('DELETE', `${EVENTS}/${master.id}?force=true`, { as: 'editor' });
      assert.equal(gone.status, 200);
      assert.equal((await get(master.id)).status, 404);
      assert.equal((await get(occ[0].id)).status, 404);
    });

    test('removing the recurrence makes the master a listed event; plain occurrences go, exceptions are trashed', async () => {
      const master = await createSeries(t, weekly({ title: 'Once again' }));
      const occ = await occurrencesOf(t, master.id);
      await update(occ[1].id, { excerpt: 'kept' });
      const res = await update(master.id, { recurrence: null });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.recurrence, undefined);
      assert.equal(res.body.occurrences, undefined);
      const listed = await t.request('GET', `${EVENTS}?search=Once%20again`);
      assert.deepEqual(listed.body.events.map((e: any) => e.id), [master.id]);
      assert.equal((await get(occ[0].id)).status, 404);
      assert.equal((await get(occ[1].id)).status, 403);
    });

    test('adding a recurrence to a standalone event: it becomes the first occurrence and keeps its id', async () => {
      const created = await t.request('POST', EVENTS, { as: 'editor', body: { title: 'Was single', start_date: '2025-05-01 10:00', end_date: '2025-05-01 11:00', status: 'publish' } });
      const res = await update(created.body.id, { recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.id, created.body.id);
      assert.ok(res.body.post_parent > 0);
      const occ = await occurrencesOf(t, res.body.post_parent);
      assert.deepEqual(occ.map((e) => e.start_date), ['2025-05-01 10:00:00', '2025-05-02 10:00:00', '2025-05-03 10:00:00']);
      assert.equal(occ[0].id, created.body.id);
    });

    test('lists: masters never listed nor included; by-slug resolves to the master; a series counts once for its terms', async () => {
      const master = await createSeries(t, weekly({ title: 'Listed test', categories: ['Recurring'] }));
      const occ = await occurrencesOf(t, master.id);
      const included = await t.request('GET', `${EVENTS}?include=${master.id},${occ[0].id}&start_date=2000-01-01`);
      assert.deepEqual(included.body.events.map((e: any) => e.id), [occ[0].id]);
      const search = await t.request('GET', `${EVENTS}?search=Listed%20test&per_page=50`);
      assert.equal(search.body.total, 6);
      assert.ok(!search.body.events.some((e: any) => e.id === master.id));
      const bySlug = await t.request('GET', `${EVENTS}/by-slug/${master.slug}`);
      assert.equal(bySlug.body.id, master.id);
      const category = master.categories[0];
      const term = await t.request('GET', `/calendar/events/v1/categories/${category.id}`);
      assert.equal(term.body.count, 1);
      assert.deepEqual(occ[0].categories.map((c: any) => c.id), [category.id]);
    });

    test('hide_subsequent_recurrences keeps the earliest matching occurrence of each series; links carry it', async () => {
      const a = await createSeries(t, weekly({ title: 'Hide A' }));
      const b = await createSeries(t, weekly({ title: 'Hide B', start_date: '2025-04-09 10:00', end_date: '2025-04-09 11:00', recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4' } }));
      const single = await t.request('POST', EVENTS, { as: 'editor', body: { title: 'Hide single', start_date: '2025-04-10 10:00', end_date: '2025-04-10 11:00', status: 'publish' } });
      const res = await t.request('GET', `${EVENTS}?search=Hide&start_date=2025-04-10&hide_subsequent_recurrences=1&per_page=2`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.total, 3);
      const occA = await occurrencesOf(t, a.id);
      const occB = await occurrencesOf(t, b.id);
      assert.deepEqual(res.body.events.map((e: any) => e.id), [single.body.id, occA[1].id]);
      assert.match(res.body.next_rest_url, /hide_subsequent_recurrences=1/);
      const next = await t.request('GET', res.body.next_rest_url.replace('http://calendar.test', ''));
      assert.deepEqual(next.body.events.map((e: any) => e.id), [occB[1].id]);
    });

    test('visitors never see occurrences of a draft series; only editors list them', async () => {
      const master = await createSeries(t, weekly({ status: 'draft' }));
      assert.equal((await occurrencesOf(t, master.id, 'visitor')).length, 0);
      assert.equal((await occurrencesOf(t, master.id, 'editor')).length, 6);
      const occ = await occurrencesOf(t, master.id, 'editor');
      assert.equal((await get(occ[0].id, 'visitor')).body.code, 'event-not-accessible');
    });

    test('roles: the rule of the series decides for its occurrences', async () => {
      const mine = await createSeries(t, weekly({ status: 'publish' }), 'author');
      const occ = await occurrencesOf(t, mine.id);
      assert.equal((await update(occ[0].id, { title: 'Mine' }, 'author')).status, 200);
      // Another author may not edit or delete someone else's series, by any member.
      const otherHeader = { authorization: t.authHeader(t.others.author) };
      assert.equal((await t.request('POST', `${EVENTS}/${occ[1].id}`, { headers: otherHeader, body: { title: 'Theirs' } })).status, 403);
      assert.equal((await t.request('DELETE', `${EVENTS}/${occ[1].id}`, { headers: otherHeader })).status, 403);
      assert.equal((await t.request('POST', `${EVENTS}/${mine.id}`, { headers: otherHeader, body: { title: 'Theirs' } })).status, 403);
      assert.equal((await update(occ[1].id, { title: 'x' }, 'subscriber')).status, 403);
      assert.equal((await update(occ[1].id, { title: 'x' }, 'visitor')).status, 401);
      // A contributor's series stays pending: its occurrences are not published.
      const pending = await createSeries(t, weekly({ status: 'publish' }), 'contributor');
      assert.equal(pending.status, 'pending');
      assert.ok((await occurrencesOf(t, pending.id, 'editor')).every((e) => e.status === 'pending'));
    });

    test('the horizon job extends open-ended series once, even when two runs overlap', async () => {
      const master = await createSeries(t, weekly({ recurrence: { rrule: 'FREQ=MONTHLY;BYMONTHDAY=7' } }));
      const before = await occurrencesOf(t, master.id);
      assert.equal(master.occurrences.open_ended, true);
      assert.equal(before[before.length - 1].start_date, '2027-04-07 19:30:00');
      const series = new SeriesService(t.config.recurrence);
      const later = new Date(NOW.getTime() + 92 * 86_400_000);
      const runs = await Promise.all([extendSeries(t.storage.db, series, later), extendSeries(t.storage.db, series, later)]);
      assert.ok(runs.reduce((a, b) => a + b, 0) >= 1);
      const after = await occurrencesOf(t, master.id);
      assert.deepEqual(after.slice(0, before.length).map((e) => e.id), before.map((e) => e.id));
      assert.deepEqual(after.slice(before.length).map((e) => e.start_date), ['2027-05-07 19:30:00', '2027-06-07 19:30:00', '2027-07-07 19:30:00']);
      assert.equal(await extendSeries(t.storage.db, series, later), 0);
    });

    test('an added date past the horizon is created when the horizon reaches it, not before (60 §4.1)', async () => {
      // The horizon on 2025-04-01 is 2027-04-08: the rule ends well before it, the added date after.
      const master = await createSeries(t, weekly({ recurrence: { rrule: 'FREQ=WEEKLY;COUNT=2', rdate: ['2025-06-02 19:30:00', '2028-06-05 19:30:00'] } }));
      assert.deepEqual((await occurrencesOf(t, master.id)).map((e) => e.start_date), ['2025-04-07 19:30:00', '2025-04-14 19:30:00', '2025-06-02 19:30:00']);
      assert.deepEqual(master.recurrence.rdate, ['2025-06-02 19:30:00', '2028-06-05 19:30:00']);
      const series = new SeriesService(t.config.recurrence);
      // Other tests' open series grow too: this one is read back, not counted.
      await extendSeries(t.storage.db, series, new Date('2026-01-01T00:00:00Z'));
      assert.equal((await occurrencesOf(t, master.id)).length, 3, 'not reached yet: nothing new');
      await extendSeries(t.storage.db, series, new Date('2026-06-01T00:00:00Z'));
      const reached = (await occurrencesOf(t, master.id)).map((e) => e.start_date);
      assert.deepEqual(reached.slice(3), ['2028-06-05 19:30:00']);
      await extendSeries(t.storage.db, series, new Date('2027-06-01T00:00:00Z'));
      assert.deepEqual((await occurrencesOf(t, master.id)).map((e) => e.start_date), reached);
    });
  });
}
