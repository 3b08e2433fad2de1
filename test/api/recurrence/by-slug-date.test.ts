import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { en } from '../../../src/i18n/messages/en.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createEvent } from '../events/fixtures.ts';
import { clock, createSeries, EVENTS, occurrencesOf, recurrenceCode } from './support.ts';

// 60 §2 and §9: GET {ns}/events/by-slug/{slug}?date=YYYY-MM-DD answers the series' occurrence on
// that local date; no occurrence that day → 400 rest_invalid_param on `date`, as an unknown slug is.
for (const dialect of DIALECTS) {
  describe(`recurrence: by-slug with ?date= [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    /** A published series under `slug`; weekly 19:30 in Rome from Monday 2025-04-07 unless overridden. */
    const series = (slug: string, overrides: Record<string, unknown> = {}) =>
      createSeries(t, { slug, status: 'publish', start_date: '2025-04-07 19:30:00', end_date: '2025-04-07 22:00:00', timezone: 'Europe/Rome', recurrence: { rrule: 'FREQ=WEEKLY;COUNT=2' }, ...overrides });
    const bySlug = (slug: string, query = '', as: 'editor' | 'visitor' = 'visitor', prefix = '') =>
      t.request('GET', `${prefix}${EVENTS}/by-slug/${slug}${query}`, { as });

    test('the occurrence of that local date; without date the master', async () => {
      const master = await series('weekly-concert', { recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=3' } });
      const occurrences = await occurrencesOf(t, master.id);
      const res = await bySlug('weekly-concert', '?date=2025-04-14');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.id, occurrences[1].id);
      assert.equal(res.body.post_parent, master.id);
      assert.equal(res.body.start_date, '2025-04-14 19:30:00');
      // The first instance is an occurrence too, not the master.
      assert.equal((await bySlug('weekly-concert', '?date=2025-04-07')).body.id, occurrences[0].id);
      assert.equal((await bySlug('weekly-concert')).body.id, master.id);
    });

    test('the date is the local date in the event zone, not the UTC one', async () => {
      // 21:30 New York is 01:30Z the next day.
      const master = await series('late-show', { start_date: '2025-04-21 21:30:00', end_date: '2025-04-21 23:00:00', timezone: 'America/New_York', recurrence: { rrule: 'FREQ=DAILY;INTERVAL=2;COUNT=3' } });
      const res = await bySlug('late-show', '?date=2025-04-23');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.post_parent, master.id);
      assert.equal(res.body.utc_start_date, '2025-04-24 01:30:00');
      assert.equal(recurrenceCode(await bySlug('late-show', '?date=2025-04-24'), 'date'), 'by-slug-no-occurrence');
    });

    test('two occurrences on one date: the earlier one', async () => {
      const master = await series('twice-a-day', { start_date: '2025-05-01 10:00:00', end_date: '2025-05-01 11:00:00', recurrence: { rrule: 'FREQ=DAILY;COUNT=2', rdate: ['2025-05-02 08:00:00'] } });
      const res = await bySlug('twice-a-day', '?date=2025-05-02');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.post_parent, master.id);
      assert.equal(res.body.start_date, '2025-05-02 08:00:00');
    });

    test('no occurrence that day, or only a trashed one → 400 on date; nothing changes', async () => {
      const master = await series('gap-series', { start_date: '2025-06-02 18:00:00', end_date: '2025-06-02 19:00:00', recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' } });
      const res = await bySlug('gap-series', '?date=2025-06-03');
      assert.equal(recurrenceCode(res, 'date'), 'by-slug-no-occurrence');
      assert.deepEqual(Object.keys(res.body.data.params), ['date']);
      assert.equal(res.body.data.details.date.message, en['by-slug-no-occurrence'].replace('{date}', '2025-06-03'));
      const second = (await occurrencesOf(t, master.id))[1];
      assert.equal((await t.request('DELETE', `${EVENTS}/${second.id}`, { as: 'editor' })).status, 200);
      assert.equal(recurrenceCode(await bySlug('gap-series', '?date=2025-06-09', 'editor'), 'date'), 'by-slug-no-occurrence');
      assert.equal((await occurrencesOf(t, master.id)).length, 2);
    });

    test('a standalone event answers for its own start date only', async () => {
      const single = await createEvent(t, 'editor', { slug: 'one-off', status: 'publish', start_date: '2025-07-10 09:00:00', end_date: '2025-07-11 17:00:00', timezone: 'UTC' });
      assert.equal((await bySlug('one-off', '?date=2025-07-10')).body.id, single.id);
      assert.equal(recurrenceCode(await bySlug('one-off', '?date=2025-07-11'), 'date'), 'by-slug-no-occurrence');
    });

    test('a malformed or impossible date → 400 with its own reason; an unknown slug stays a slug error', async () => {
      await series('checked-series');
      for (const date of ['2025-02-30', '2025-4-14', '14-04-2025', 'tomorrow', '2025-04-14T19:30', '']) {
        const res = await bySlug('checked-series', `?date=${encodeURIComponent(date)}`);
        assert.equal(recurrenceCode(res, 'date'), 'by-slug-date-invalid', date);
        assert.equal(res.body.data.details.date.message, en['by-slug-date-invalid']);
      }
      const unknown = await bySlug('no-such-series', '?date=2025-04-14');
      assert.equal(unknown.status, 400);
      assert.ok('slug' in unknown.body.data.params, JSON.stringify(unknown.body));
    });

    test('every edition translates both reasons', async () => {
      await series('translated-series');
      for (const lang of ['da', 'it', 'es']) {
        for (const [query, code] of [['?date=2025-13-01', 'by-slug-date-invalid'], ['?date=2025-04-08', 'by-slug-no-occurrence']] as const) {
          const res = await bySlug('translated-series', query, 'visitor', `/${lang}`);
          assert.equal(recurrenceCode(res, 'date'), code, `${lang} ${query}`);
          const message = res.body.data.details.date.message;
          assert.ok(message !== '' && message !== en[code].replace('{date}', '2025-04-08'), `${lang} ${code}: ${message}`);
          assert.ok(!message.includes('{date}'), message);
        }
      }
    });

    test('a visitor never reaches an occurrence of a draft series', async () => {
      await series('draft-series', { status: 'draft' });
      assert.equal((await bySlug('draft-series', '?date=2025-04-14')).status, 403);
      assert.equal((await bySlug('draft-series', '?date=2025-04-14', 'editor')).status, 200);
    });
  });
}
