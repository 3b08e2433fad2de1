import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, EVENTS, NOW } from '../../api/events/fixtures.ts';
import type { Role } from '../../../src/domain/auth/capabilities.ts';
import { renderContext } from '../../../src/render/context.ts';
import { UrlBuilder } from '../../../src/render/urls.ts';
import { loadEventListPage, parseEventListQuery } from '../../../src/services/back-office/event-list.ts';
import { loadDashboard } from '../../../src/services/back-office/dashboard.ts';
import { loadLinkedListPage, loadTermListPage, parseRecordListQuery } from '../../../src/services/back-office/record-lists.ts';
import { VENUE } from '../../../src/domain/linked-posts/linked-post-type.ts';

const NS = '/calendar/events/v1';

// 100 §7.2, §7.3, §14: the lists' queries on the API's list query and read models, on both databases.
for (const dialect of DIALECTS) {
  describe(`back office list queries [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const ids: Record<string, number> = {};
    const ctxOf = (role: Role) => {
      const user = { id: t.users[role].id, login: t.users[role].login, email: `${role}@example.test`, role };
      return { ...renderContext({ lang: 'en', user, urls: new UrlBuilder('http://calendar.test', '', 'en'), now: NOW }), user };
    };
    const page = (role: Role, query: Record<string, string> = {}) => loadEventListPage(t.storage.db, ctxOf(role), parseEventListQuery(query), 'UTC');
    const titles = async (role: Role, query: Record<string, string> = {}) => (await page(role, query)).rows.map((row) => row.model.event.title);

    before(async () => {
      t = await startTestApp(dialect, { clock });
      const parent = await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Music' } });
      const child = await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Jazz', parent: parent.body.id } });
      ids.music = parent.body.id;
      ids.jazz = child.body.id;
      ids.soon = (await createEvent(t, 'editor', { title: 'Soon concert', start_date: '2025-04-05 19:00:00', end_date: '2025-04-05 21:00:00', categories: [ids.music] })).id;
      ids.later = (await createEvent(t, 'editor', { title: 'Later jazz night', start_date: '2025-05-05 19:00:00', end_date: '2025-05-05 21:00:00', categories: [ids.jazz] })).id;
      ids.past = (await createEvent(t, 'editor', { title: 'Past fair', start_date: '2025-03-01 10:00:00', end_date: '2025-03-01 12:00:00' })).id;
      ids.older = (await createEvent(t, 'editor', { title: 'Older fair', start_date: '2025-02-01 10:00:00', end_date: '2025-02-01 12:00:00' })).id;
      ids.draft = (await createEvent(t, 'editor', { title: 'Draft talk', status: 'draft', start_date: '2025-04-20 10:00:00', end_date: '2025-04-20 11:00:00' })).id;
      ids.pending = (await createEvent(t, 'contributor', { title: 'Pending walk', status: 'publish', start_date: '2025-04-21 10:00:00', end_date: '2025-04-21 11:00:00' })).id;
      ids.future = (await createEvent(t, 'editor', { title: 'Scheduled gala', status: 'future', date: '2025-04-10 10:00:00', start_date: '2025-06-01 10:00:00', end_date: '2025-06-01 11:00:00' })).id;
      ids.trashed = (await createEvent(t, 'editor', { title: 'Trashed picnic', start_date: '2025-04-22 10:00:00', end_date: '2025-04-22 11:00:00' })).id;
      assert.equal((await t.request('DELETE', `${EVENTS}/${ids.trashed}`, { as: 'editor' })).status, 200);
      const series = await t.request('POST', EVENTS, { as: 'editor', body: { title: 'Weekly class', start_date: '2025-04-07 18:00:00', end_date: '2025-04-07 19:00:00', recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4' } } });
      assert.equal(series.status, 201, JSON.stringify(series.body));
      ids.series = series.body.id;
    });
    after(() => t.close());

    test('upcoming (default): ends after now, start ascending, series collapsed, drafts included', async () => {
      assert.deepEqual(await titles('editor'), ['Soon concert', 'Weekly class', 'Draft talk', 'Pending walk', 'Later jazz night', 'Scheduled gala']);
    });

    test('past tab: newest first; order=asc reverses', async () => {
      assert.deepEqual(await titles('editor', { when: 'past' }), ['Past fair', 'Older fair']);
      assert.deepEqual(await titles('editor', { when: 'past', orderby: 'start', order: 'asc' }), ['Older fair', 'Past fair']);
      assert.deepEqual((await titles('editor', { order: 'desc' }))[0], 'Scheduled gala');
    });

    test('status tabs: drafts, pending, scheduled, trash', async () => {
      assert.deepEqual(await titles('editor', { status: 'draft' }), ['Draft talk']);
      assert.deepEqual(await titles('editor', { status: 'pending' }), ['Pending walk']);
      assert.deepEqual(await titles('editor', { status: 'future' }), ['Scheduled gala']);
      assert.deepEqual(await titles('editor', { status: 'trash' }), ['Trashed picnic']);
    });

    test('tab counts: per status, upcoming and past, a series once', async () => {
      const counts = Object.fromEntries((await page('editor')).counts.map((count) => [count.status, count]));
      assert.equal(counts.publish.upcoming, 3); // soon, later, the series
      assert.equal(counts.publish.past, 2);
      assert.equal(counts.draft.all, 1);
      assert.equal(counts.pending.all, 1);
      assert.equal(counts.future.all, 1);
      assert.equal(counts.trash.all, 1);
    });

    test('search and the category filter with its descendants', async () => {
      assert.deepEqual(await titles('editor', { s: 'jazz' }), ['Later jazz night']);
      assert.deepEqual(await titles('editor', { category: String(ids.music) }), ['Soon concert', 'Later jazz night']);
      assert.deepEqual(await titles('editor', { category: String(ids.jazz) }), ['Later jazz night']);
      assert.deepEqual(await titles('editor', { category: '999999' }), []);
    });

    test('series: collapsed row counts its dates; ?series lists them; all_occurrences expands', async () => {
      const collapsed = (await page('editor')).rows.find((row) => row.model.event.title === 'Weekly class')!;
      assert.equal(collapsed.seriesCount, 4);
      assert.equal(collapsed.model.event.post_parent, ids.series);
      const dates = await page('editor', { series: String(ids.series) });
      assert.equal(dates.rows.length, 4);
      assert.ok(dates.rows.every((row) => row.seriesCount === undefined));
      assert.equal((await titles('editor', { all_occurrences: '1' })).filter((title) => title === 'Weekly class').length, 4);
    });

    test('paging: 20 a page; beyond the last page is flagged', async () => {
      assert.equal((await page('editor', { paged: '1' })).beyondLast, false);
      assert.equal((await page('editor', { paged: '2' })).beyondLast, true);
      assert.equal((await page('editor', { status: 'private', paged: '1' })).beyondLast, false);
    });

    test('checkbox only on rows the user may change: an author may not change others\' events', async () => {
      const author = await page('author');
      assert.ok(author.rows.every((row) => !row.changeable));
      const contributor = await page('contributor', { status: 'pending' });
      assert.deepEqual(contributor.rows.map((row) => row.changeable), [true]);
      assert.ok((await page('editor')).rows.every((row) => row.changeable));
    });

    test('dashboard: counts, next five, review, latest changes as the user sees them', async () => {
      const editor = await loadDashboard(t.storage.db, ctxOf('editor'), 'UTC');
      assert.deepEqual(editor.next.map((event) => event.title), ['Soon concert', 'Weekly class', 'Draft talk', 'Pending walk', 'Later jazz night']);
      assert.deepEqual(editor.review.map((record) => record.name), ['Pending walk']);
      assert.equal(editor.changes.length, 10);
      assert.ok(editor.changes.some((change) => change.entry.kind === 'event' && change.name === 'Weekly class'));
      const subscriber = await loadDashboard(t.storage.db, ctxOf('subscriber'), 'UTC');
      assert.deepEqual(subscriber.counts.map((count) => count.status), ['publish']);
      assert.ok(subscriber.next.every((event) => event.status === 'publish'));
      assert.deepEqual(subscriber.review, []);
      assert.ok(subscriber.changes.every((change) => change.entry.effect === 'upsert' ? change.name !== 'Draft talk' : true));
      assert.ok(!subscriber.changes.some((change) => change.name === 'Draft talk' || change.name === 'Pending walk'));
      const contributor = await loadDashboard(t.storage.db, ctxOf('contributor'), 'UTC');
      assert.deepEqual(contributor.review.map((record) => record.name), ['Pending walk']);
      const author = await loadDashboard(t.storage.db, ctxOf('author'), 'UTC');
      assert.deepEqual(author.review, []);
    });

    test('venue and term lists: search, paging, rights', async () => {
      for (const name of ['Hall A', 'Hall B', 'Barn']) assert.equal((await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: name } })).status, 201);
      const venues = await loadLinkedListPage(t.storage.db, VENUE, ctxOf('editor').user, parseRecordListQuery({ s: 'hall' }), NOW);
      assert.deepEqual(venues.rows.map((row) => row.record.name).sort(), ['Hall A', 'Hall B']);
      assert.ok(venues.rows.every((row) => row.changeable && row.author === t.users.editor.login));
      const byAuthor = await loadLinkedListPage(t.storage.db, VENUE, ctxOf('author').user, parseRecordListQuery({}), NOW);
      assert.ok(byAuthor.rows.every((row) => !row.changeable));
      const terms = await loadTermListPage(t.storage.db, 'tribe_events_cat', ctxOf('contributor').user, parseRecordListQuery({}), NOW);
      assert.deepEqual(terms.rows.map((row) => row.record.name), ['Jazz', 'Music']);
      assert.ok(terms.rows.every((row) => !row.changeable));
      const editorTerms = await loadTermListPage(t.storage.db, 'tribe_events_cat', ctxOf('editor').user, parseRecordListQuery({ paged: '2' }), NOW);
      assert.equal(editorTerms.beyondLast, true);
    });
  });
}
