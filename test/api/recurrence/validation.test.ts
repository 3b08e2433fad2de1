import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, createSeries, EVENTS, occurrencesOf, recurrenceCode } from './support.ts';

const base = { title: 'Bad series', start_date: '2025-04-07 19:30', end_date: '2025-04-07 22:00', timezone: 'Europe/Rome' };

// 60 §3.1: every rule answers 400 rest_invalid_param naming the reason, and writes nothing.
const CASES: Array<[string, unknown, string]> = [
  ['unparsable', 'FREQ=WEEKLY;;', 'recurrence-invalid-rule'],
  ['unknown part', { rrule: 'FREQ=WEEKLY;COLOR=RED' }, 'recurrence-invalid-rule'],
  ['bad value', { rrule: 'FREQ=DAILY;BYHOUR=99' }, 'recurrence-invalid-rule'],
  ['FREQ missing', { rrule: 'BYDAY=MO;COUNT=3' }, 'recurrence-invalid-rule'],
  ['SECONDLY', { rrule: 'FREQ=SECONDLY;COUNT=3' }, 'recurrence-invalid-rule'],
  ['MINUTELY', ['RRULE:FREQ=MINUTELY;COUNT=3'], 'recurrence-invalid-rule'],
  ['COUNT and UNTIL', { rrule: 'FREQ=DAILY;COUNT=3;UNTIL=20250501T000000Z' }, 'recurrence-invalid-rule'],
  ['UNTIL before DTSTART', { rrule: 'FREQ=DAILY;UNTIL=20250401T000000Z' }, 'recurrence-invalid-rule'],
  ['two RRULE lines', ['RRULE:FREQ=DAILY;COUNT=2', 'RRULE:FREQ=WEEKLY;COUNT=2'], 'recurrence-invalid-rule'],
  ['EXRULE', ['RRULE:FREQ=DAILY;COUNT=2', 'EXRULE:FREQ=WEEKLY;COUNT=2'], 'recurrence-invalid-rule'],
  ['unknown key', { rrule: 'FREQ=DAILY;COUNT=2', every: 'day' }, 'recurrence-invalid-rule'],
  ['a number', 42, 'recurrence-invalid-rule'],
  ['COUNT over the cap', { rrule: 'FREQ=DAILY;COUNT=1001' }, 'recurrence-too-many-occurrences'],
  ['more than the cap before the horizon', { rrule: 'FREQ=HOURLY;INTERVAL=12' }, 'recurrence-too-many-occurrences'],
  ['30 February', { rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30' }, 'recurrence-empty'],
  ['nothing at all', { rdate: [] }, 'recurrence-empty'],
  ['bad rdate', { rrule: 'FREQ=DAILY;COUNT=2', rdate: ['not a date'] }, 'recurrence-invalid-date'],
  ['bad EXDATE line', ['RRULE:FREQ=DAILY;COUNT=2', 'EXDATE:2025-13-01'], 'recurrence-invalid-date'],
  ['unknown TZID', ['RRULE:FREQ=DAILY;COUNT=2', 'EXDATE;TZID=Mars/Olympus:20250408T193000'], 'recurrence-invalid-date'],
  ['more than 1,000 exdates', { rrule: 'FREQ=DAILY;COUNT=2', exdate: Array.from({ length: 1001 }, (_, i) => `2026-01-01 ${String(i % 24).padStart(2, '0')}:00`) }, 'recurrence-invalid-date'],
  ['Pro legacy rules', { rules: [{ type: 'Every Week' }] }, 'recurrence-unsupported'],
];

for (const dialect of DIALECTS) {
  describe(`recurrence: input validation [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock, env: { CALENDAR_RECURRENCE_HORIZON_MONTHS: '24' } });
    });
    after(() => t.close());

    const eventCount = async () => Number((await t.storage.db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    for (const [name, recurrence, code] of CASES) {
      test(`${name} → ${code}, nothing written`, async () => {
        const before = await eventCount();
        const res = await t.request('POST', EVENTS, { as: 'editor', body: { ...base, recurrence } });
        assert.equal(recurrenceCode(res), code, JSON.stringify(res.body));
        assert.ok(res.body.data.params.recurrence);
        assert.ok(res.body.data.details.recurrence.message.length > 0);
        assert.equal(await eventCount(), before);
      });
    }

    test('the cap is named in the message, and every edition translates the reasons', async () => {
      const en = await t.request('POST', EVENTS, { as: 'editor', body: { ...base, recurrence: { rrule: 'FREQ=DAILY;COUNT=5000' } } });
      assert.match(en.body.data.details.recurrence.message, /1000/);
      const messages = new Set([en.body.data.details.recurrence.message]);
      for (const lang of ['da', 'it', 'es']) {
        const res = await t.request('POST', `/${lang}${NS}/events`, { as: 'editor', body: { ...base, recurrence: { rrule: 'FREQ=DAILY;COUNT=5000' } } });
        assert.equal(recurrenceCode(res), 'recurrence-too-many-occurrences');
        assert.match(res.body.data.details.recurrence.message, /1000/);
        messages.add(res.body.data.details.recurrence.message);
      }
      assert.equal(messages.size, 4);
    });

    test('an update with a bad rule writes nothing either', async () => {
      const master = await createSeries(t, { ...base, recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' } });
      const res = await t.request('POST', `${EVENTS}/${master.id}`, { as: 'editor', body: { title: 'Renamed', recurrence: { rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30' } } });
      assert.equal(recurrenceCode(res), 'recurrence-empty');
      const after = (await t.request('GET', `${EVENTS}/${master.id}`, { as: 'editor' })).body;
      assert.equal(after.title, 'Bad series');
      assert.equal(after.recurrence.rrule, 'FREQ=WEEKLY;COUNT=3');
      assert.equal((await occurrencesOf(t, master.id)).length, 3);
    });

    test('scope: unknown values and non-all on a master are refused', async () => {
      const master = await createSeries(t, { ...base, recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' } });
      const [first] = await occurrencesOf(t, master.id);
      const unknown = await t.request('POST', `${EVENTS}/${first.id}`, { as: 'editor', body: { scope: 'some', title: 'x' } });
      assert.deepEqual(Object.keys(unknown.body.data.params), ['scope']);
      const onMaster = await t.request('POST', `${EVENTS}/${master.id}`, { as: 'editor', body: { scope: 'this', title: 'x' } });
      assert.equal(onMaster.status, 400);
      assert.deepEqual(Object.keys(onMaster.body.data.params), ['scope']);
      const deleteOnMaster = await t.request('DELETE', `${EVENTS}/${master.id}?scope=following`, { as: 'editor' });
      assert.equal(deleteOnMaster.status, 400);
      const after = (await t.request('GET', `${EVENTS}/${master.id}`, { as: 'editor' })).body;
      assert.equal(after.status, master.status);
      assert.equal(after.title, master.title);
    });

    test('recurrence, author and slug on one occurrence (scope this) → recurrence-scope-conflict', async () => {
      const master = await createSeries(t, { ...base, recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' } });
      const [first] = await occurrencesOf(t, master.id);
      for (const body of [{ recurrence: { rrule: 'FREQ=DAILY;COUNT=2' } }, { author: t.users.author.id }, { slug: 'mine' }]) {
        const res = await t.request('POST', `${EVENTS}/${first.id}`, { as: 'editor', body });
        assert.equal(recurrenceCode(res, Object.keys(body)[0]), 'recurrence-scope-conflict');
      }
    });
  });
}
