import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

// 90 §2.2: a protected record read with context=edit by someone who may edit it shows its
// password (as WordPress core's posts API does), so that a site import copies it whole.
for (const dialect of DIALECTS) {
  describe(`password shown with context=edit to editors [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const ids: Record<string, number> = {};
    before(async () => {
      t = await startTestApp(dialect);
      const created = async (path: string, body: Record<string, unknown>) => {
        const res = await t.request('POST', `${NS}/${path}`, { as: 'editor', body });
        assert.equal(res.status, 201, res.text);
        return res.body.id as number;
      };
      ids.events = await created('events', { title: 'Locked', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00', password: 'open sesame' });
      ids.venues = await created('venues', { venue: 'Locked Hall', password: 'hall pass' });
      ids.organizers = await created('organizers', { organizer: 'Locked Org', password: 'org pass' });
    });
    after(() => t.close());

    for (const [collection, password] of [['events', 'open sesame'], ['venues', 'hall pass'], ['organizers', 'org pass']] as const) {
      test(`${collection}: editors with context=edit see it; other callers and other contexts do not`, async () => {
        const url = `${NS}/${collection}/${ids[collection]}`;
        assert.equal((await t.request('GET', `${url}?context=edit`, { as: 'editor' })).body.password, password);
        assert.equal((await t.request('GET', `${url}?context=edit`, { as: 'administrator' })).body.password, password);
        assert.equal('password' in (await t.request('GET', url, { as: 'editor' })).body, false);
        assert.equal('password' in (await t.request('GET', `${url}?password=${encodeURIComponent(password)}`)).body, false);
        const author = await t.request('GET', `${url}?context=edit&password=${encodeURIComponent(password)}`, { as: 'author' });
        assert.equal(author.status, 200);
        assert.equal('password' in author.body, false);
      });
    }
  });
}
