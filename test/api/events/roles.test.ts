import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Role } from '../../../src/domain/auth/capabilities.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type Caller, type TestApp } from '../../helpers/test-app.ts';
import { clock, EVENTS, eventBody, eventOf } from './fixtures.ts';

const CALLERS: Caller[] = ['visitor', 'subscriber', 'contributor', 'author', 'editor', 'administrator'];
/** `trash-*`: trashed from that status (what the trash was decides the rights, 40 §5.1). */
const TARGETS = ['publish', 'future', 'draft', 'pending', 'private', 'trash-publish', 'trash-draft'] as const;
type Target = (typeof TARGETS)[number];
type Outcome = [number, string?];

const isTrash = (target: Target) => target.startsWith('trash');
const wasPublished = (target: Target) => target === 'publish' || target === 'future' || target === 'trash-publish';

/** 10-events §5 and 40 §6.2. */
function readOutcome(caller: Caller, own: boolean, target: Target): Outcome {
  if (isTrash(target)) return [403, 'event-no-longer-available'];
  if (target === 'publish') return [200];
  if (caller !== 'visitor' && (own || caller === 'editor' || caller === 'administrator')) return [200];
  return [403, 'event-not-accessible'];
}

/** 40 §5.1 / §5.2: the gate, then 410 for deleting what is already in the trash. */
function writeOutcome(caller: Caller, own: boolean, target: Target, verb: 'update' | 'delete'): Outcome {
  if (caller === 'visitor') return [401, 'rest_forbidden'];
  const allowed = caller === 'editor' || caller === 'administrator'
    || (own && caller === 'author')
    || (own && caller === 'contributor' && !wasPublished(target));
  if (!allowed) return [403, 'rest_forbidden'];
  if (verb === 'delete' && isTrash(target)) return [410, 'event-is-in-trash'];
  return [200];
}

let slugs = 0;

// 40-auth-and-status §4–§6 for events: every role on own and others' events in every status, id and slug routes alike.
for (const dialect of DIALECTS) {
  describe(`events: roles [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    /** An event of `owner` in the target status, with a slug that reaches it. */
    async function fixture(owner: { id: number }, target: Target): Promise<{ id: number; slug: string }> {
      slugs++;
      const status = isTrash(target) ? target.slice('trash-'.length) : target;
      const extra = status === 'future' ? { date: '2025-09-01 10:00:00' } : {};
      const event = await eventOf(t, owner, status, { slug: `role-fixture-${slugs}`, ...extra });
      assert.equal(event.status, status);
      if (!isTrash(target)) return { id: event.id, slug: event.slug };
      const trashed = await t.request('DELETE', `${EVENTS}/${event.id}`, { as: 'administrator' });
      return { id: event.id, slug: trashed.body.slug };
    }

    function ownerOf(caller: Caller, own: boolean): { id: number } {
      if (caller === 'visitor') return t.others.administrator;
      return own ? t.users[caller as Role] : t.others[caller as Role];
    }

    function check(res: { status: number; body: any }, [status, code]: Outcome, label: string): void {
      assert.equal(res.status, status, `${label}: ${JSON.stringify(res.body)}`);
      if (code) assert.equal(res.body.code, code, label);
    }

    test('create: 401 visitor, 403 subscriber, 201 for every editor-capable role', async () => {
      const expected: Record<Caller, number> = { visitor: 401, subscriber: 403, contributor: 201, author: 201, editor: 201, administrator: 201 };
      for (const caller of CALLERS) {
        const res = await t.request('POST', EVENTS, { as: caller, body: eventBody() });
        assert.equal(res.status, expected[caller], caller);
      }
    });

    /** Fixtures per owner and target, shared by the checks that leave them as they were. */
    const shared = new Map<string, { id: number; slug: string }>();
    async function sharedFixture(owner: { id: number }, target: Target) {
      const key = `${owner.id}:${target}`;
      if (!shared.has(key)) shared.set(key, await fixture(owner, target));
      return shared.get(key)!;
    }

    for (const own of [true, false]) {
      const whose = own ? 'own' : 'others’';

      test(`read and update ${whose} events in every status, by id and by slug`, async () => {
        for (const caller of CALLERS) {
          if (own && caller === 'visitor') continue;
          for (const target of TARGETS) {
            const event = await sharedFixture(ownerOf(caller, own), target);
            const read = readOutcome(caller, own, target);
            check(await t.request('GET', `${EVENTS}/${event.id}`, { as: caller }), read, `${caller} GET ${whose} ${target} by id`);
            check(await t.request('GET', `${EVENTS}/by-slug/${event.slug}`, { as: caller }), read, `${caller} GET ${whose} ${target} by slug`);
            const update = writeOutcome(caller, own, target, 'update');
            for (const path of [`${EVENTS}/${event.id}`, `${EVENTS}/by-slug/${event.slug}`]) {
              const res = await t.request('PATCH', path, { as: caller, body: { excerpt: `by ${caller}` } });
              check(res, update, `${caller} PATCH ${whose} ${target} ${path}`);
              if (res.status === 200) assert.equal(res.body.status, isTrash(target) ? 'trash' : target, 'status unchanged');
            }
          }
        }
      });

      test(`delete ${whose} events in every status, by id and by slug`, async () => {
        for (const caller of CALLERS) {
          if (own && caller === 'visitor') continue;
          for (const target of TARGETS) {
            const expected = writeOutcome(caller, own, target, 'delete');
            for (const route of ['id', 'slug'] as const) {
              // A refused delete changes nothing; a successful one needs an event of its own.
              const owner = ownerOf(caller, own);
              const event = expected[0] === 200 ? await fixture(owner, target) : await sharedFixture(owner, target);
              const path = route === 'id' ? `${EVENTS}/${event.id}` : `${EVENTS}/by-slug/${event.slug}`;
              const res = await t.request('DELETE', path, { as: caller });
              check(res, expected, `${caller} DELETE ${whose} ${target} by ${route}`);
              if (res.status === 200) assert.equal(res.body.status, 'trash');
            }
          }
        }
      });
    }

    test('a refused update is refused before its precondition is judged, and writes nothing', async () => {
      const theirs = await eventOf(t, t.others.author, 'publish', { excerpt: 'as it was' });
      for (const path of [`${EVENTS}/${theirs.id}`, `${EVENTS}/by-slug/${theirs.slug}`]) {
        const res = await t.request('PATCH', path, { as: 'author', body: { excerpt: 'overwritten' }, headers: { 'if-match': '"e-0-0"' } });
        check(res, [403, 'rest_forbidden'], `author PATCH others’ published ${path} with a stale If-Match`);
      }
      const read = await t.request('GET', `${EVENTS}/${theirs.id}`, { as: 'administrator' });
      assert.equal(read.body.excerpt, theirs.excerpt);
      assert.equal(read.body.modified, theirs.modified);
    });

    test('a refused delete, to the trash or for good, is refused before its precondition is judged, and removes nothing', async () => {
      const theirs = await eventOf(t, t.others.author, 'publish');
      for (const path of [`${EVENTS}/${theirs.id}`, `${EVENTS}/by-slug/${theirs.slug}`]) {
        for (const query of ['', '?force=true']) {
          const res = await t.request('DELETE', `${path}${query}`, { as: 'author', headers: { 'if-match': '"e-0-0"' } });
          check(res, [403, 'rest_forbidden'], `author DELETE${query} others’ published ${path} with a stale If-Match`);
        }
      }
      const read = await t.request('GET', `${EVENTS}/${theirs.id}`, { as: 'administrator' });
      assert.equal(read.body.status, 'publish');
      assert.equal(read.body.modified, theirs.modified);
      // Those who may delete it still meet the precondition first.
      check(await t.request('DELETE', `${EVENTS}/${theirs.id}`, { as: 'editor', headers: { 'if-match': '"e-0-0"' } }), [412, 'rest_precondition_failed'], 'editor DELETE with a stale If-Match');
    });

    test('a contributor naming another author loses the right to edit the event (reference, kept)', async () => {
      const res = await t.request('POST', EVENTS, { as: 'contributor', body: eventBody({ author: t.users.administrator.id }) });
      assert.equal(res.status, 201);
      assert.equal(res.body.author, String(t.users.administrator.id));
      assert.equal((await t.request('PATCH', `${EVENTS}/${res.body.id}`, { as: 'contributor', body: { title: 'x' } })).status, 403);
    });

    test('a contributor may turn an own draft into pending by asking for publish, then no longer edit it once published', async () => {
      const draft = await eventOf(t, t.users.contributor, 'draft');
      const pending = await t.request('PATCH', `${EVENTS}/${draft.id}`, { as: 'contributor', body: { status: 'publish' } });
      assert.equal(pending.body.status, 'pending');
      await t.request('PATCH', `${EVENTS}/${draft.id}`, { as: 'editor', body: { status: 'publish' } });
      assert.equal((await t.request('PATCH', `${EVENTS}/${draft.id}`, { as: 'contributor', body: { status: 'draft' } })).status, 403);
    });
  });
}
