import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Role } from '../../../src/domain/auth/capabilities.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type Caller, type TestApp } from '../../helpers/test-app.ts';
import { CASES, createLinked, type LinkedCase } from './support.ts';

/** A record to act on: whose it is and in which status (40 §5). */
interface Target {
  label: string;
  owner: Role;
  status: 'publish' | 'draft' | 'private' | 'pending';
  /** Trashed after creation (its pre-trash status is `status`). */
  trashed?: boolean;
}

interface Row {
  target: Target;
  caller: Caller;
  /** Expected status of an update and of a delete. */
  update: number;
  remove: number;
}

const adminsPublished: Target = { label: "admin's published", owner: 'administrator', status: 'publish' };
const adminsPrivate: Target = { label: "admin's private", owner: 'administrator', status: 'private' };
const adminsDraft: Target = { label: "admin's draft", owner: 'administrator', status: 'draft' };
const contributorsDraft: Target = { label: "contributor's draft", owner: 'contributor', status: 'draft' };
const contributorsPending: Target = { label: "contributor's pending", owner: 'contributor', status: 'pending' };
const contributorsPrivate: Target = { label: "contributor's private", owner: 'contributor', status: 'private' };
const contributorsPublished: Target = { label: "contributor's published", owner: 'contributor', status: 'publish' };
const contributorsTrashedDraft: Target = { label: "contributor's trashed draft", owner: 'contributor', status: 'draft', trashed: true };
const contributorsTrashedPublished: Target = { label: "contributor's trashed published", owner: 'contributor', status: 'publish', trashed: true };
const authorsPublished: Target = { label: "author's published", owner: 'author', status: 'publish' };

// 40 §4.1 and §5.1/§5.2. A delete allowed on a trashed record answers 410 (20 §8.2).
const MATRIX: Row[] = [
  { target: adminsPublished, caller: 'visitor', update: 401, remove: 401 },
  { target: contributorsDraft, caller: 'visitor', update: 401, remove: 401 },
  { target: adminsPublished, caller: 'subscriber', update: 403, remove: 403 },
  { target: adminsPublished, caller: 'contributor', update: 403, remove: 403 },
  { target: adminsDraft, caller: 'contributor', update: 403, remove: 403 },
  { target: contributorsDraft, caller: 'contributor', update: 200, remove: 200 },
  { target: contributorsPending, caller: 'contributor', update: 200, remove: 200 },
  { target: contributorsPrivate, caller: 'contributor', update: 200, remove: 200 },
  { target: contributorsPublished, caller: 'contributor', update: 403, remove: 403 },
  { target: contributorsTrashedDraft, caller: 'contributor', update: 200, remove: 410 },
  { target: contributorsTrashedPublished, caller: 'contributor', update: 403, remove: 403 },
  { target: authorsPublished, caller: 'author', update: 200, remove: 200 },
  { target: adminsPublished, caller: 'author', update: 403, remove: 403 },
  { target: contributorsDraft, caller: 'author', update: 403, remove: 403 },
  { target: adminsPrivate, caller: 'author', update: 403, remove: 403 },
  { target: adminsPublished, caller: 'editor', update: 200, remove: 200 },
  { target: adminsPrivate, caller: 'editor', update: 200, remove: 200 },
  { target: contributorsDraft, caller: 'editor', update: 200, remove: 200 },
  { target: contributorsTrashedPublished, caller: 'editor', update: 200, remove: 410 },
  { target: contributorsDraft, caller: 'administrator', update: 200, remove: 200 },
];

// 40 §4-§5: the per-record gate of update and delete, identical on id and slug routes (40 §4.2).
for (const dialect of DIALECTS) {
  describe(`venue/organizer permissions [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let serial = 0;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    async function make(c: LinkedCase, target: Target): Promise<{ id: number; slug: string }> {
      serial++;
      const body = await createLinked(t, c, 'administrator', `Perm ${serial}`, { author: t.users[target.owner].id, status: target.status });
      if (target.trashed) {
        const res = await t.request('DELETE', `${NS}/${c.path}/${body.id}`, { as: 'administrator' });
        assert.equal(res.status, 200);
        // The original slug no longer resolves once trashed; the trashed one does.
        return { id: body.id, slug: res.body.slug };
      }
      return { id: body.id, slug: body.slug };
    }

    for (const c of CASES) {
      for (const route of ['id', 'slug'] as const) {
        const url = (record: { id: number; slug: string }) => `${NS}/${c.path}/${route === 'id' ? record.id : `by-slug/${record.slug}`}`;
        for (const row of MATRIX) {
          test(`${c.path} by ${route}: ${row.caller} on ${row.target.label} → update ${row.update}, delete ${row.remove}`, async () => {
            const record = await make(c, row.target);
            const updated = await t.request('PATCH', url(record), { as: row.caller, body: { phone: '12345' } });
            assert.equal(updated.status, row.update, JSON.stringify(updated.body));
            if (row.update >= 400) {
              assert.equal(updated.body.code, 'rest_forbidden');
              const stored = await t.storage.db.selectFrom(c.path).select('phone').where('id', '=', record.id).executeTakeFirstOrThrow();
              assert.equal(stored.phone, '', 'a refused update writes nothing');
            }
            const removed = await t.request('DELETE', url(record), { as: row.caller });
            assert.equal(removed.status, row.remove, JSON.stringify(removed.body));
            if (row.remove === 401 || row.remove === 403) assert.equal(removed.body.code, 'rest_forbidden');
            if (row.remove === 410) assert.equal(removed.body.code, `${c.kind}-is-in-trash`);
          });
        }
      }

      test(`${c.path}: a contributor cannot change an administrator's record through the slug route (the reference gap)`, async () => {
        const record = await make(c, adminsPublished);
        const res = await t.request('PUT', `${NS}/${c.path}/by-slug/${record.slug}`, { as: 'contributor', body: { [c.kind]: 'Hijacked' } });
        assert.equal(res.status, 403);
        const trash = await t.request('DELETE', `${NS}/${c.path}/by-slug/${record.slug}`, { as: 'contributor' });
        assert.equal(trash.status, 403);
        const stored = await t.storage.db.selectFrom(c.path).select(['name', 'status']).where('id', '=', record.id).executeTakeFirstOrThrow();
        assert.deepEqual(stored, { name: `Perm ${serial}`, status: 'publish' });
      });

      test(`${c.path}: the update gate looks at the stored status — a contributor may move an own draft to pending, not touch it after`, async () => {
        const record = await make(c, contributorsDraft);
        const pending = await t.request('PUT', `${NS}/${c.path}/${record.id}`, { as: 'contributor', body: { status: 'publish' } });
        assert.equal(pending.body.status, 'pending');
        await t.request('PUT', `${NS}/${c.path}/${record.id}`, { as: 'editor', body: { status: 'publish' } });
        const locked = await t.request('PUT', `${NS}/${c.path}/${record.id}`, { as: 'contributor', body: { phone: '1' } });
        assert.equal(locked.status, 403);
      });

      test(`${c.path}: a contributor naming another author loses the edit right on the record`, async () => {
        const created = await createLinked(t, c, 'contributor', `Given away ${c.kind}`, { author: t.users.administrator.id });
        const res = await t.request('PUT', `${NS}/${c.path}/${created.id}`, { as: 'contributor', body: { phone: '1' } });
        assert.equal(res.status, 403);
      });
    }
  });
}
