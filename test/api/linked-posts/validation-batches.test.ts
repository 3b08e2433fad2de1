import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { REASONS } from '../../../src/domain/reasons.ts';
import { validateEventOrganizerInput, validateEventVenueInput } from '../../../src/services/linked-posts-service.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The step-5 checks that an event's venue and organizers exist: requests validated in the same
 * turn of the event loop share one query per type, and each still hears about its own ids.
 */
for (const dialect of DIALECTS) {
  describe(`venue and organizer checks of concurrent requests [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const venues: number[] = [];
    let organizer = 0;
    before(async () => {
      t = await startTestApp(dialect);
      for (const name of ['Hall A', 'Hall B', 'Hall C']) venues.push((await t.request('POST', `${NS}/venues`, { as: 'administrator', body: { venue: name } })).body.id);
      organizer = (await t.request('POST', `${NS}/organizers`, { as: 'administrator', body: { organizer: 'Org' } })).body.id;
    });
    after(() => t.close());

    test('checks made together take one query per type and answer each', async () => {
      const unknown = venues[2] + 1000;
      const before = await t.queryCount();
      const verdicts = await Promise.all([
        ...[venues[0], venues[1], unknown, venues[2]].map((id) => validateEventVenueInput(t.storage.db, id, null)),
        validateEventOrganizerInput(t.storage.db, [organizer], null),
        validateEventOrganizerInput(t.storage.db, [organizer, unknown], null),
      ]);
      assert.deepEqual(verdicts, [true, true, REASONS.unknownVenue, true, true, REASONS.unknownOrganizer]);
      assert.equal((await t.queryCount()) - before, 2);
    });

    test('a request naming an unknown venue and organizer hears about both', async () => {
      const res = await t.request('POST', `${NS}/events`, {
        as: 'administrator',
        body: { title: 'Nowhere', start_date: '2026-05-01 10:00:00', end_date: '2026-05-01 11:00:00', venue: 999999, organizer: [999998] },
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'rest_invalid_param');
      assert.deepEqual(Object.keys(res.body.data.params).sort(), ['organizer', 'venue']);
    });
  });
}
