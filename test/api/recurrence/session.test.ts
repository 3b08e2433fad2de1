import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, createSeries, EVENTS, occurrencesOf } from './support.ts';

// The "Done when" session of issue 16: weekly series with one exception date, a month window,
// one occurrence moved, "this and following" changed.
for (const dialect of DIALECTS) {
  describe(`recurrence: a client session [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    test('create, list a month, move one, change this and following', async () => {
      const master = await createSeries(t, {
        title: 'Choir rehearsal',
        start_date: '2025-04-07 19:30:00',
        end_date: '2025-04-07 22:00:00',
        timezone: 'Europe/Rome',
        status: 'publish',
        recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=10', exdate: ['2025-04-21'] },
      });
      assert.equal(master.recurrence.rrule, 'FREQ=WEEKLY;BYDAY=MO;COUNT=10');
      assert.deepEqual(master.recurrence.exdate, ['2025-04-21']);
      assert.deepEqual(master.recurrence.ical, [
        'DTSTART;TZID=Europe/Rome:20250407T193000',
        'DTEND;TZID=Europe/Rome:20250407T220000',
        'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10',
        'EXDATE;VALUE=DATE:20250421',
      ]);
      assert.equal(master.occurrences.count, 9);
      assert.equal(master.occurrences.first, '2025-04-07 19:30:00');
      assert.equal(master.occurrences.last, '2025-06-09 19:30:00');
      assert.equal(master.occurrences.open_ended, false);
      assert.equal(master.occurrences.rest_url, `http://calendar.test/calendar/events/v1/events/?post_parent=${master.id}`);

      const april = await t.request('GET', `${EVENTS}?start_date=2025-04-01&end_date=2025-04-30`);
      assert.equal(april.status, 200);
      const starts = april.body.events.map((e: any) => e.start_date);
      assert.deepEqual(starts, ['2025-04-07 19:30:00', '2025-04-14 19:30:00', '2025-04-28 19:30:00']);
      assert.ok(april.body.events.every((e: any) => e.post_parent === master.id && e.id !== master.id));
      assert.equal(april.body.events[0].utc_start_date, '2025-04-07 17:30:00');
      assert.equal(april.body.events[0].recurrence_id, '2025-04-07 19:30:00');
      assert.equal(april.body.events[0].recurrence_exception, false);
      assert.equal(april.body.events[0].url, 'http://calendar.test/event/choir-rehearsal/2025-04-07/');

      // Move the 14 April rehearsal one hour later: this occurrence only.
      const second = april.body.events[1];
      const moved = await t.request('POST', `${EVENTS}/${second.id}`, { as: 'editor', body: { start_date: '2025-04-14 20:30:00', end_date: '2025-04-14 23:00:00' } });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.id, second.id);
      assert.equal(moved.body.start_date, '2025-04-14 20:30:00');
      assert.equal(moved.body.recurrence_id, '2025-04-14 19:30:00');
      assert.equal(moved.body.recurrence_exception, true);

      // From 12 May on, the rehearsal is called differently: this and following.
      const before = await occurrencesOf(t, master.id);
      const may12 = before.find((e) => e.start_date === '2025-05-12 19:30:00');
      const split = await t.request('POST', `${EVENTS}/${may12.id}`, { as: 'editor', body: { scope: 'following', title: 'Choir rehearsal (summer)' } });
      assert.equal(split.status, 200, JSON.stringify(split.body));
      assert.equal(split.body.id, may12.id);
      assert.notEqual(split.body.post_parent, master.id);
      assert.equal(split.body.title, 'Choir rehearsal (summer)');

      const oldSeries = await occurrencesOf(t, master.id);
      const newSeries = await occurrencesOf(t, split.body.post_parent);
      assert.deepEqual(oldSeries.map((e) => e.start_date), ['2025-04-07 19:30:00', '2025-04-14 20:30:00', '2025-04-28 19:30:00', '2025-05-05 19:30:00']);
      assert.deepEqual(newSeries.map((e) => e.start_date), ['2025-05-12 19:30:00', '2025-05-19 19:30:00', '2025-05-26 19:30:00', '2025-06-02 19:30:00', '2025-06-09 19:30:00']);
      // Ids kept across the split.
      const beforeIds = new Map(before.map((e) => [e.start_date, e.id]));
      for (const e of newSeries) assert.equal(e.id, beforeIds.get(e.start_date));
      assert.ok(newSeries.every((e) => e.title === 'Choir rehearsal (summer)'));
      assert.ok(oldSeries.every((e) => e.title === 'Choir rehearsal'));

      const oldMaster = (await t.request('GET', `${EVENTS}/${master.id}`)).body;
      const newMaster = (await t.request('GET', `${EVENTS}/${split.body.post_parent}`)).body;
      assert.equal(oldMaster.recurrence.rrule, 'FREQ=WEEKLY;BYDAY=MO;COUNT=5');
      assert.equal(newMaster.recurrence.rrule, 'FREQ=WEEKLY;BYDAY=MO;COUNT=5');
      assert.equal(newMaster.start_date, '2025-05-12 19:30:00');
    });
  });
}
