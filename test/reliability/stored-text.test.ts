import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { NS, startTestApp, type TestApp, type TestResponse } from '../helpers/test-app.ts';
import { HOSTILE_STRINGS } from './hostile.ts';
import { fcParameters } from './runs.ts';

/**
 * Issue 8, "text given back is returned as data, never interpreted": whatever an editor (who may
 * store raw HTML, 40 §9) types as a title or name comes back byte for byte as a JSON string, in
 * responses that browsers will neither sniff nor run, and never lands in the documentation.
 */

/** Markers around the text keep the service's trimming out of the comparison and make it easy to find. */
const text = fc
  .oneof(
    fc.constantFrom(...HOSTILE_STRINGS),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.array(fc.constantFrom(...HOSTILE_STRINGS), { minLength: 2, maxLength: 3 }).map((parts) => parts.join(' ')),
  )
  // NUL is dropped on the way in (a separate rule), lone surrogates cannot be sent as UTF-8.
  .map((core) => `«${core.replace(/\u0000/g, '').replace(/[\ud800-\udfff]/g, '\ufffd')}»`);

function assertInert(res: TestResponse, what: string): void {
  assert.match(String(res.headers['content-type']), /^application\/json; charset=UTF-8/i, what);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', what);
  assert.match(String(res.headers['content-security-policy']), /default-src 'none'/, what);
}

/** Every leaf of `json_ld` is plain data: structured data, never markup to be run. */
function assertPlainJsonLd(value: unknown, what: string): void {
  if (value !== null && typeof value === 'object') {
    for (const member of Object.values(value)) assertPlainJsonLd(member, what);
    return;
  }
  assert.ok(['string', 'number', 'boolean'].includes(typeof value), `${what}: json_ld holds ${typeof value}`);
}

for (const dialect of DIALECTS) {
  describe(`stored text comes back as data [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    const documentation = async () => {
      const page = await t.request('GET', '/docs');
      const document = await t.request('GET', `${NS}/doc`);
      return [page.status === 200 ? page.text : '', document.text];
    };

    test('an event title is echoed byte for byte, in json_ld too, and never reaches the documentation', async () => {
      await fc.assert(
        fc.asyncProperty(text, async (title) => {
          const created = await t.request('POST', `${NS}/events`, {
            as: 'editor',
            body: { title, start_date: 'tomorrow 10:00', end_date: 'tomorrow 11:00' },
          });
          assert.equal(created.status, 201, created.text);
          assert.equal(created.body.title, title);
          assertInert(created, 'create');
          const read = await t.request('GET', `${NS}/events/${created.body.id}`);
          assert.equal(read.body.title, title);
          assert.equal(read.body.json_ld.name, title);
          assertPlainJsonLd(read.body.json_ld, 'event');
          assertInert(read, 'read');
          const list = await t.request('GET', `${NS}/events?include=${created.body.id}`);
          assert.equal(list.body.events[0].title, title);
          for (const page of await documentation()) assert.ok(!page.includes(title), 'the title appears in the documentation');
        }),
        fcParameters(dialect, 1, dialect === 'sqlite' ? 60 : 15),
      );
    });

    test('venue and organizer names are echoed byte for byte, in json_ld too', async () => {
      await fc.assert(
        fc.asyncProperty(text, fc.constantFrom('venues', 'organizers'), async (name, collection) => {
          const key = collection === 'venues' ? 'venue' : 'organizer';
          const created = await t.request('POST', `${NS}/${collection}`, { as: 'editor', body: { [key]: name } });
          assert.equal(created.status, 201, created.text);
          assert.equal(created.body[key], name);
          const read = await t.request('GET', `${NS}/${collection}/${created.body.id}`);
          assert.equal(read.body[key], name);
          assert.equal(read.body.json_ld.name, name);
          assertPlainJsonLd(read.body.json_ld, key);
          assertInert(read, key);
        }),
        fcParameters(dialect, 2, dialect === 'sqlite' ? 60 : 15),
      );
    });

    test('term names lose their markup (tags stripped, < > & encoded), for every role', async () => {
      await fc.assert(
        fc.asyncProperty(text, async (name) => {
          const created = await t.request('POST', `${NS}/categories`, { as: 'administrator', body: { name } });
          if (created.status !== 201) {
            // A name that is empty once its markup is gone, or that exists already.
            assert.ok(['empty_term_name', 'term_exists'].includes(created.body.code), created.text);
            return;
          }
          assert.ok(!/[<>]/.test(created.body.name), created.body.name);
          assertInert(created, 'term');
        }),
        fcParameters(dialect, 3, dialect === 'sqlite' ? 40 : 10),
      );
    });

    test('the documentation page runs no inline script and reflects nothing from its address', async () => {
      const attack = '<script>alert(1)</script>';
      const page = await t.request('GET', `/docs?url=${encodeURIComponent(attack)}&configUrl=${encodeURIComponent('https://evil.example/x.json')}`);
      if (page.status === 404) return;
      assert.equal(page.status, 200);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.ok(!page.text.includes(attack) && !page.text.includes('evil.example'));
      const policy = String(page.headers['content-security-policy']);
      assert.match(policy, /script-src 'self'/);
      assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
      assert.doesNotMatch(page.text, /<script>(?!<\/script>)|<script(?![^>]*\ssrc=)[^>]*>/, 'no inline script element');
    });
  });
}
