import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventParams } from '../../../src/http/admin/event-form.ts';
import { emptyEventForm } from '../../../src/web/admin/event-form-values.ts';
import { EventsService } from '../../../src/services/events-service.ts';
import { InvalidParamsError } from '../../../src/domain/errors.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { BUILDER_SHAPES } from './shapes.ts';

const NOW = new Date('2026-11-15T10:00:00Z');
const EVENTS = `${NS}/events`;

/** Every occurrence of a series, in list order. */
async function occurrencesOf(t: TestApp, masterId: number): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const res = await t.request('GET', `${EVENTS}?post_parent=${masterId}&start_date=2000-01-01&end_date=2099-12-31&per_page=50&page=${page}`, { as: 'editor' });
    if (res.status === 404) return out;
    out.push(...res.body.events);
    if (page >= res.body.total_pages) return out;
  }
}

// 100 §17 item 6: each builder shape composes its rule, and "preview dates" (the server's own
// expansion) equals the occurrences the API then materialises for the same form.
for (const dialect of DIALECTS) {
  describe(`event editor: preview dates equal the API's occurrences [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let events: EventsService;
    before(async () => {
      t = await startTestApp(dialect, { clock: () => NOW });
      events = new EventsService(t.storage.db, t.config.timezone, t.config.recurrence, t.storage.epochs.journal);
    });
    after(() => t.close());

    for (const shape of BUILDER_SHAPES) {
      test(shape.name, async () => {
        const values = {
          ...emptyEventForm('Europe/Copenhagen'),
          title: `Shape ${shape.name}`,
          start_date: shape.start,
          start_time: '19:30',
          end_time: '22:00',
          status: 'publish',
          recurrence: { ...emptyEventForm('UTC').recurrence, ...shape.fields },
        };
        const params = eventParams(values, { create: true, action: 'save' });
        assert.equal((params.recurrence as { rrule: string }).rrule, shape.rrule);
        const preview = events.previewDates(params as never, NOW, 10);
        const created = await t.request('POST', EVENTS, { as: 'editor', body: params });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const occurrences = await occurrencesOf(t, created.body.id);
        assert.equal(preview.total, occurrences.length);
        assert.equal(preview.total, created.body.occurrences.count);
        const listed = occurrences.filter((o) => o.utc_end_date > '2026-11-15 10:00:00').slice(0, 10);
        assert.deepEqual(
          preview.dates.map((d) => [d.start_local, d.end_local, d.start_utc, d.end_utc, d.timezone_abbr]),
          listed.map((o) => [o.start_date, o.end_date, o.utc_start_date, o.utc_end_date, o.timezone_abbr]),
        );
      });
    }

    test('an invalid rule is the API refusal, naming recurrence', () => {
      const params = { start_date: '2026-12-01 10:00', end_date: '2026-12-01 11:00', recurrence: { rrule: 'FREQ=DAILY;COUNT=abc' } };
      assert.throws(() => events.previewDates(params as never, NOW, 10), (error) => error instanceof InvalidParamsError && error.failures.recurrence.reason.code === 'recurrence-invalid-rule');
    });
  });
}
