import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type Caller, type TestApp } from '../../helpers/test-app.ts';
import { createTerm, type Collection } from './fixtures.ts';

// 30 §1.2 and 40 §2, §4.1: who may call each term route; permission is judged after validation.
const CALLERS: Caller[] = ['visitor', 'subscriber', 'contributor', 'author', 'editor', 'administrator'];

const MAY_WRITE: Record<Collection, Caller[]> = {
  categories: ['author', 'editor', 'administrator'],
  tags: ['editor', 'administrator'],
};

function refusal(caller: Caller): number {
  return caller === 'visitor' ? 401 : 403;
}

for (const dialect of DIALECTS) {
  describe(`term route permissions [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    for (const collection of ['categories', 'tags'] as const) {
      test(`${collection}: everyone may read the list and single terms`, async () => {
        const term = await createTerm(t, collection, { name: `Readable ${collection}` });
        for (const as of CALLERS) {
          const list = await t.request('GET', `${NS}/${collection}?hide_empty=0`, { as });
          assert.equal(list.status, 200, `${as} list`);
          const single = await t.request('GET', `${NS}/${collection}/${term.id}`, { as });
          assert.equal(single.status, 200, `${as} single`);
        }
      });

      test(`${collection}: create is 201 for ${MAY_WRITE[collection].join(', ')}; 401 for visitors, 403 for the others`, async () => {
        for (const as of CALLERS) {
          const res = await t.request('POST', `${NS}/${collection}`, { as, body: { name: `Made by ${as}` } });
          if (MAY_WRITE[collection].includes(as)) {
            assert.equal(res.status, 201, `${as}: ${res.text}`);
          } else {
            assert.equal(res.status, refusal(as), as);
            assert.equal(res.body.code, 'rest_forbidden');
          }
        }
      });

      test(`${collection}: update with POST, PUT and PATCH follows the same right`, async () => {
        const term = await createTerm(t, collection, { name: `Updatable ${collection}` });
        for (const method of ['POST', 'PUT', 'PATCH']) {
          for (const as of CALLERS) {
            const res = await t.request(method, `${NS}/${collection}/${term.id}`, { as, body: { description: `${method} by ${as}` } });
            if (MAY_WRITE[collection].includes(as)) {
              assert.equal(res.status, 200, `${method} ${as}: ${res.text}`);
              assert.equal(res.body.description, `${method} by ${as}`);
            } else {
              assert.equal(res.status, refusal(as), `${method} ${as}`);
              assert.equal(res.body.code, 'rest_forbidden');
            }
          }
        }
      });

      test(`${collection}: delete follows the same right`, async () => {
        for (const as of CALLERS) {
          const term = await createTerm(t, collection, { name: `Deletable ${collection} ${as}` });
          const res = await t.request('DELETE', `${NS}/${collection}/${term.id}`, { as });
          if (MAY_WRITE[collection].includes(as)) {
            assert.equal(res.status, 200, `${as}: ${res.text}`);
          } else {
            assert.equal(res.status, refusal(as), as);
            assert.equal(res.body.code, 'rest_forbidden');
            assert.equal((await t.request('GET', `${NS}/${collection}/${term.id}`)).status, 200, 'still there');
          }
        }
      });

      test(`${collection}: unknown ids are 400 rest_invalid_param before the permission check`, async () => {
        for (const as of ['visitor', 'subscriber'] as const) {
          for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
            const res = await t.request(method, `${NS}/${collection}/999999`, { as, body: method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' } });
            assert.equal(res.status, 400, `${as} ${method}`);
            assert.equal(res.body.code, 'rest_invalid_param');
            assert.deepEqual(Object.keys(res.body.data.params), ['id']);
            assert.equal(res.body.data.params.id, 'Invalid parameter.');
          }
        }
      });

      test(`${collection}: invalid fields are 400 before the permission check`, async () => {
        const res = await t.request('POST', `${NS}/${collection}`, { body: { name: '' } });
        assert.equal(res.status, 400);
        assert.equal(res.body.code, 'rest_invalid_param');
      });
    }

    test('40 §12: POST tags as author is 403, POST categories as author 201, as contributor 403', async () => {
      assert.equal((await t.request('POST', `${NS}/tags`, { as: 'author', body: { name: 'x' } })).status, 403);
      assert.equal((await t.request('POST', `${NS}/categories`, { as: 'author', body: { name: 'x' } })).status, 201);
      assert.equal((await t.request('POST', `${NS}/categories`, { as: 'contributor', body: { name: 'y' } })).status, 403);
    });
  });
}
