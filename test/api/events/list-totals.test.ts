import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type Caller, type TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, EVENTS, list } from './fixtures.ts';

/**
 * The total of a list of whole days comes from day counts kept by triggers (migration 0011), the
 * page from the rows: after every kind of write both must still agree, for each caller and on
 * both clocks a window can compare with (UTC instants, or each event's wall clock).
 */
const WINDOWS = ['', '?start_date=2025-04-10&end_date=2025-04-20', '?start_date=2025-04-12', '?end_date=2025-04-12'];
const CALLERS: Caller[] = ['visitor', 'editor'];

async function assertTotalsAgree(t: TestApp, step: string): Promise<void> {
  for (const window of WINDOWS) {
    for (const as of CALLERS) {
      const query = `${window}${window === '' ? '?' : '&'}per_page=50`;
      const body = await list(t, query, as);
      assert.equal(body.total, body.events.length, `${step}: ${as} ${query}`);
    }
  }
}

for (const dialect of DIALECTS) {
  for (const zone of ['UTC', 'Pacific/Kiritimati']) {
    describe(`events: list totals follow every write [${dialect}, ${zone}]`, { skip: skipReason(dialect) }, () => {
      let t: TestApp;
      before(async () => {
        t = await startTestApp(dialect, { clock, env: { CALENDAR_TIMEZONE: zone } });
      });
      after(() => t.close());

      test('creates, moves, status changes, hiding, series, trash and deletion', async () => {
        const write = async (method: string, path: string, body?: Record<string, unknown>) => {
          const res = await t.request(method, `${EVENTS}${path}`, { as: 'administrator', body });
          assert.ok(res.status < 300, JSON.stringify(res.body));
          return res.body;
        };
        const late = await createEvent(t, 'administrator', { start_date: '2025-04-12 23:30:00', end_date: '2025-04-13 00:30:00', timezone: 'America/New_York' });
        const early = await createEvent(t, 'administrator', { start_date: '2025-04-12 00:10:00', end_date: '2025-04-12 01:00:00' });
        await createEvent(t, 'administrator', { status: 'draft', start_date: '2025-04-15 10:00:00', end_date: '2025-04-15 11:00:00' });
        const hidden = await createEvent(t, 'administrator', { hide_from_listings: true, start_date: '2025-04-16 10:00:00', end_date: '2025-04-16 11:00:00' });
        // Scheduled: published as read once its date has passed (the suite's clock is 2025-04-01 10:00 UTC).
        await createEvent(t, 'administrator', { status: 'future', date: '2025-03-01 10:00:00', start_date: '2025-04-14 10:00:00', end_date: '2025-04-14 11:00:00' });
        await createEvent(t, 'administrator', { status: 'future', date: '2025-06-01 10:00:00', start_date: '2025-04-14 12:00:00', end_date: '2025-04-14 13:00:00' });
        const series = await createEvent(t, 'administrator', { start_date: '2025-04-11 10:00:00', end_date: '2025-04-11 11:00:00', recurrence: { rrule: 'FREQ=DAILY;COUNT=4' } });
        await assertTotalsAgree(t, 'created');

        await write('POST', `/${early.id}`, { start_date: '2025-04-21 10:00:00', end_date: '2025-04-21 11:00:00' });
        await write('POST', `/${late.id}`, { end_date: '2025-04-22 09:00:00' });
        await write('POST', `/${hidden.id}`, { hide_from_listings: false });
        await write('POST', `/${series.id}`, { recurrence: { rrule: 'FREQ=DAILY;COUNT=2' } });
        await assertTotalsAgree(t, 'updated');

        await write('POST', `/${hidden.id}`, { status: 'pending' });
        await write('DELETE', `/${late.id}`);
        await write('DELETE', `/${early.id}?force=true`);
        await write('DELETE', `/${series.id}?force=true`);
        await assertTotalsAgree(t, 'trashed and deleted');
      });
    });
  }
}
