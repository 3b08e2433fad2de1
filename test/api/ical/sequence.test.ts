import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, EVENTS } from '../events/fixtures.ts';
import { eventRevision, parseEvents } from './file-helpers.ts';

/**
 * 50 B.9: SEQUENCE is the record's revision (80 §1.1), so it grows with every write, however
 * close together: a calendar client that has one version takes the next. The app's clock stands
 * still here, so every write below happens "within the same second".
 */
for (const dialect of DIALECTS) {
  describe(`iCalendar SEQUENCE [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    const sequences = async (path: string) => {
      const res = await t.request('GET', path, { as: 'administrator' });
      assert.equal(res.status, 200, res.text);
      return parseEvents(res.text).map((item) => ({ summary: item.summary, recurrenceId: item.vevent.hasProperty('recurrence-id'), sequence: Number(item.vevent.getFirstPropertyValue('sequence')) }));
    };

    test('two updates within one second: each export has a greater SEQUENCE, the revision', async () => {
      const event = await createEvent(t, 'editor', { title: 'Quick edits' });
      const single = `${EVENTS}/${event.id}.ics`;
      const seen = [(await sequences(single))[0].sequence];
      for (const title of ['Quick edits 2', 'Quick edits 3']) {
        assert.equal((await t.request('POST', `${EVENTS}/${event.id}`, { as: 'editor', body: { title } })).status, 200);
        seen.push((await sequences(single))[0].sequence);
      }
      assert.deepEqual(seen, [0, await eventRevision(t, event.id) - 1, await eventRevision(t, event.id)]);
      assert.ok(seen[1] > seen[0] && seen[2] > seen[1], `SEQUENCE grows: ${seen.join(', ')}`);
    });

    test('a series: the master VEVENT carries the master revision, an edited occurrence its own, each growing', async () => {
      const master = await createEvent(t, 'editor', { title: 'Weekly', start_date: '2025-06-02 18:00:00', end_date: '2025-06-02 19:00:00', recurrence: 'FREQ=WEEKLY;COUNT=3' });
      const feed = `${NS}/events.ics?start_date=2025-06-01&end_date=2025-06-30&search=weekly`;
      const occurrences = (await t.request('GET', `${EVENTS}?post_parent=${master.id}&start_date=2025-06-01`)).body.events;
      assert.equal(occurrences.length, 3);
      const before = await sequences(feed);
      assert.deepEqual(before, [{ summary: 'Weekly', recurrenceId: false, sequence: await eventRevision(t, master.id) }]);

      await t.request('POST', `${EVENTS}/${occurrences[1].id}`, { as: 'editor', body: { title: 'Weekly (moved)' } });
      await t.request('POST', `${EVENTS}/${occurrences[1].id}`, { as: 'editor', body: { title: 'Weekly (moved again)' } });
      const edited = (await sequences(feed)).find((item) => item.recurrenceId)!;
      assert.deepEqual(edited, { summary: 'Weekly (moved again)', recurrenceId: true, sequence: await eventRevision(t, occurrences[1].id) });

      await t.request('POST', `${EVENTS}/${master.id}`, { as: 'editor', body: { title: 'Weekly', description: 'Bring a score' } });
      const after = (await sequences(feed)).find((item) => !item.recurrenceId)!;
      assert.equal(after.sequence, await eventRevision(t, master.id));
      assert.ok(after.sequence > before[0].sequence, `the master's SEQUENCE grows: ${before[0].sequence} → ${after.sequence}`);

      // Trashing an occurrence adds an EXDATE to the master's VEVENT: a change its SEQUENCE must show.
      assert.equal((await t.request('DELETE', `${EVENTS}/${occurrences[2].id}`, { as: 'editor' })).status, 200);
      const res = await t.request('GET', feed, { as: 'administrator' });
      const rule = parseEvents(res.text).find((item) => !item.vevent.hasProperty('recurrence-id'))!.vevent;
      assert.equal(rule.getAllProperties('exdate').length, 1);
      assert.ok(Number(rule.getFirstPropertyValue('sequence')) > after.sequence, 'the master VEVENT with the EXDATE has a greater SEQUENCE');
    });
  });
}
