import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { CASES, VENUES, createLinked, getLinked } from './support.ts';

// 20 §6.5: duplicate handling on create.
for (const dialect of DIALECTS) {
  describe(`venue/organizer duplicates [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    const count = async (table: 'venues' | 'organizers') =>
      Number((await t.storage.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    for (const c of CASES) {
      test(`${c.path}: the same name in other letter case returns the existing record with 201, other fields do not matter`, async () => {
        const first = await createLinked(t, c, 'administrator', 'Dup Alpha', { phone: '111' });
        const before = await count(c.path);
        const again = await t.request('POST', `${NS}/${c.path}`, { as: 'administrator', body: { [c.kind]: 'dup ALPHA', phone: '222', website: 'http://other.example' } });
        assert.equal(again.status, 201);
        assert.equal(again.body.id, first.id);
        assert.equal(await count(c.path), before, 'no new record');
        assert.equal(again.body[c.kind], 'Dup Alpha', 'the stored name is kept');
      });

      test(`${c.path}: with a non-empty description the description must match too (case-insensitively)`, async () => {
        const first = await createLinked(t, c, 'administrator', 'Dup Beta', { description: 'Big Room' });
        assert.equal((await createLinked(t, c, 'administrator', 'Dup Beta', { description: 'big room' })).id, first.id);
        assert.equal((await createLinked(t, c, 'administrator', 'Dup Beta', { description: '' })).id, first.id, 'an empty description does not take part');
        assert.notEqual((await createLinked(t, c, 'administrator', 'Dup Beta', { description: 'Small room' })).id, first.id);
      });

      test(`${c.path}: trashed records are no candidates`, async () => {
        const first = await createLinked(t, c, 'administrator', 'Dup Gamma');
        await t.request('DELETE', `${NS}/${c.path}/${first.id}`, { as: 'administrator' });
        assert.notEqual((await createLinked(t, c, 'administrator', 'Dup Gamma')).id, first.id);
      });

      test(`${c.path}: drafts and private records match for callers who may read them, not for others`, async () => {
        const draft = await createLinked(t, c, 'contributor', 'Dup Delta');
        assert.equal(draft.status, 'draft');
        assert.equal((await createLinked(t, c, 'editor', 'Dup Delta')).id, draft.id, 'an editor reads every draft');
        const foreign = await t.request('POST', `${NS}/${c.path}`, { as: 'author', body: { [c.kind]: 'Dup Delta' } });
        assert.notEqual(foreign.body.id, draft.id, "an author cannot read another's draft");
        const priv = await createLinked(t, c, 'administrator', 'Dup Epsilon', { status: 'private' });
        assert.notEqual((await createLinked(t, c, 'contributor', 'Dup Epsilon')).id, priv.id);
      });

      test(`${c.path}: a match the caller may edit gets the sent fields; one they may not edit is left untouched`, async () => {
        const own = await createLinked(t, c, 'author', 'Dup Zeta', { phone: '111' });
        const updated = await createLinked(t, c, 'author', 'Dup Zeta', { phone: '999', status: 'draft' });
        assert.equal(updated.id, own.id);
        assert.equal(updated.phone, '999');
        assert.equal(updated.status, 'draft');
        const admins = await createLinked(t, c, 'administrator', 'Dup Eta', { phone: '111' });
        const matched = await createLinked(t, c, 'contributor', 'Dup Eta', { phone: '999' });
        assert.equal(matched.id, admins.id);
        assert.equal(matched.phone, '111');
        const stored = await getLinked(t, c, admins.id);
        assert.equal(stored.phone, '111');
        assert.equal(stored.modified_utc, admins.modified_utc);
      });

      test(`${c.path}: among several matches the oldest wins`, async () => {
        const a = await createLinked(t, c, 'administrator', 'Dup Theta');
        const b = await createLinked(t, c, 'administrator', 'Dup Iota');
        // No duplicate check on update: renaming onto another record's name is allowed.
        const renamed = await t.request('PATCH', `${NS}/${c.path}/${b.id}`, { as: 'administrator', body: { [c.kind]: 'Dup Theta' } });
        assert.equal(renamed.status, 200);
        assert.equal((await createLinked(t, c, 'administrator', 'DUP THETA')).id, a.id);
      });
    }

    test('letter case is ignored beyond ASCII, the same on every database', async () => {
      const first = await createLinked(t, VENUES, 'administrator', 'Café Zürich Ålborg', { description: 'Schöne Aussicht' });
      const again = await createLinked(t, VENUES, 'administrator', 'CAFÉ ZÜRICH ÅLBORG', { description: 'SCHÖNE AUSSICHT' });
      assert.equal(again.id, first.id);
      assert.notEqual((await createLinked(t, VENUES, 'administrator', 'Cafe Zurich Alborg')).id, first.id, 'accents still count');
    });

    test('a private venue reached through a match cannot be changed by a contributor (the reference hole)', async () => {
      const priv = await createLinked(t, VENUES, 'administrator', 'Secret Hall', { status: 'private', address: 'Old street' });
      await createLinked(t, VENUES, 'contributor', 'Secret Hall', { address: 'New street' });
      assert.equal((await getLinked(t, VENUES, priv.id)).address, 'Old street');
    });
  });
}
