import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, NOW } from '../../api/events/fixtures.ts';
import { submitForm, validFields } from '../../api/submissions/helpers.ts';
import type { Role } from '../../../src/domain/auth/capabilities.ts';
import { ORGANIZER, VENUE } from '../../../src/domain/linked-posts/linked-post-type.ts';
import { renderContext } from '../../../src/render/context.ts';
import { UrlBuilder } from '../../../src/render/urls.ts';
import { loadDashboard } from '../../../src/services/back-office/dashboard.ts';
import { loadEventListPage, parseEventListQuery } from '../../../src/services/back-office/event-list.ts';
import { loadLinkedListPage, loadTermListPage, parseRecordListQuery } from '../../../src/services/back-office/record-lists.ts';

const NS = '/calendar/events/v1';

// 100 §14, §17.13: every list page and the dashboard run the same number of statements with 1 and with 20 rows.
for (const dialect of DIALECTS) {
  describe(`back office statement counts [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let created = 0;
    const ctxOf = (role: Role) => {
      const user = { id: t.users[role].id, login: t.users[role].login, email: `${role}@example.test`, role };
      return { ...renderContext({ lang: 'en', user, urls: new UrlBuilder('http://calendar.test', '', 'en'), now: NOW }), user };
    };
    const loads = {
      events: () => loadEventListPage(t.storage.db, ctxOf('editor'), parseEventListQuery({ s: 'countmark' }), 'UTC'),
      series: () => loadEventListPage(t.storage.db, ctxOf('author'), parseEventListQuery({ category: String(category) }), 'UTC'),
      dashboard: () => loadDashboard(t.storage.db, ctxOf('editor'), 'UTC'),
      // 120 §8.1: the submissions filter with its review columns, and the moderators' dashboard blocks.
      submissions: () => loadEventListPage(t.storage.db, ctxOf('editor'), parseEventListQuery({ status: 'pending', submissions: '1' }), 'UTC'),
      moderatorDashboard: () => loadDashboard(t.storage.db, ctxOf('administrator'), 'UTC', { submissionsStatus: 'pending', mail: true }),
      venues: () => loadLinkedListPage(t.storage.db, VENUE, ctxOf('editor').user, parseRecordListQuery({ s: 'countmark' }), NOW),
      organizers: () => loadLinkedListPage(t.storage.db, ORGANIZER, ctxOf('editor').user, parseRecordListQuery({ s: 'countmark' }), NOW),
      tags: () => loadTermListPage(t.storage.db, 'post_tag', ctxOf('editor').user, parseRecordListQuery({ s: 'countmark' }), NOW),
    };
    let category = 0;
    const cost = async (load: () => Promise<unknown>) => {
      const before = await t.queryCount();
      await load();
      return (await t.queryCount()) - before;
    };
    /** One more of each record: an event (two authors, with venue, organizer, terms; the first and every third a series), a venue, an organizer, a tag, a visitor's submission. */
    const addRow = async () => {
      created++;
      const submitted = validFields({ title: `Sublist ${created}`, 'venue_new[venue]': `Sublist hall ${created}`, 'organizer_new[organizer]': `Sublist crew ${created}` });
      assert.equal((await submitForm(t, () => {}, submitted, { wait: 0, remoteAddress: `192.0.2.${created}` })).status, 303);
      const role: Role = created % 2 === 0 ? 'editor' : 'author';
      const venue = await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: `Countmark hall ${created}`, city: 'Aarhus' } });
      const organizer = await t.request('POST', `${NS}/organizers`, { as: 'editor', body: { organizer: `Countmark crew ${created}` } });
      const tag = await t.request('POST', `${NS}/tags`, { as: 'editor', body: { name: `countmark ${created}` } });
      await createEvent(t, role, {
        title: `Countmark ${created}`, start_date: `2025-04-${String(2 + (created % 25)).padStart(2, '0')} 10:00:00`, end_date: `2025-04-${String(2 + (created % 25)).padStart(2, '0')} 11:00:00`,
        venue: venue.body.id, organizer: [organizer.body.id], tags: [tag.body.id], categories: [category],
        ...(created % 3 === 1 ? { recurrence: { rrule: 'FREQ=DAILY;COUNT=2' } } : {}),
      });
    };

    /** The dashboard's ten latest changes, of the same kinds each time (venues, organizers, categories). */
    let marks = 0;
    const recentMix = async () => {
      for (let round = 0; round < 4; round++) {
        marks++;
        await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: `Mix hall ${marks}` } });
        await t.request('POST', `${NS}/organizers`, { as: 'editor', body: { organizer: `Mix crew ${marks}` } });
        await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: `Mix ${marks}` } });
      }
    };

    before(async () => {
      t = await startTestApp(dialect, { clock, env: { CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_SUBMISSIONS_MIN_SECONDS: '0', CALENDAR_SUBMISSIONS_POW: 'off', CALENDAR_SUBMISSIONS_PER_HOUR: '1000' } });
      category = (await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Counted' } })).body.id;
    });
    after(() => t.close());

    test('the same count with 1 and with 20 rows on every list page and the dashboard', async () => {
      await addRow();
      const one: Record<string, number> = {};
      await recentMix();
      for (const [name, load] of Object.entries(loads)) {
        await load(); // warm: prepared statements and kept term filters are not a page's own cost
        one[name] = await cost(load);
      }
      while (created < 24) await addRow();
      const rows = await loads.events();
      assert.equal(rows.rows.length, 20);
      assert.equal((await loads.venues()).rows.length, 20);
      const submissions = await loads.submissions();
      assert.equal(submissions.rows.filter((row) => row.submission !== undefined).length, 20);
      await recentMix();
      for (const [name, load] of Object.entries(loads)) {
        await load();
        assert.equal(await cost(load), one[name], name);
      }
    });
  });
}
