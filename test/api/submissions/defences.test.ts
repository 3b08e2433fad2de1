import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { encode, FORM_TYPE, formToken, movableClock, validFields } from './helpers.ts';

async function counts(t: TestApp) {
  const n = async (table: 'events' | 'submissions' | 'submission_attempts') => Number((await t.storage.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return { events: await n('events'), submissions: await n('submissions'), attempts: await n('submission_attempts') };
}

/** The challenge the page embeds, solved as the widget would. */
async function solvedPayload(html: string): Promise<string> {
  const match = /challenge="([^"]+)"/.exec(html);
  assert.ok(match, 'the page embeds a challenge');
  const challenge = JSON.parse(match[1].replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
  const solution = await solveChallenge({ challenge, deriveKey, counterStart: 0 });
  assert.ok(solution);
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

for (const dialect of DIALECTS) {
  describe(`submission defences [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const time = movableClock();
    before(async () => {
      t = await startTestApp(dialect, { clock: time.clock, env: { CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_SUBMISSIONS_POW: '20', CALENDAR_SUBMISSIONS_PER_HOUR: '5' } });
    });
    after(() => t.close());

    const post = (body: string, remoteAddress: string) => t.request('POST', '/events/community/add/', { body, headers: FORM_TYPE, remoteAddress });
    const lastOutcome = async () => (await t.storage.db.selectFrom('submission_attempts').select('outcome').orderBy('id', 'desc').executeTakeFirstOrThrow()).outcome;

    test('token ages, forgery, reuse and the honeypot drop silently with the stored answer', async () => {
      const address = '192.0.2.10';
      const stored = await (async () => {
        const form = await t.request('GET', '/events/community/add/', { remoteAddress: address });
        time.advance(3);
        return post(encode({ _form: formToken(form.text), ...validFields() }), address);
      })();
      assert.equal(stored.status, 303);
      const drops: [string, (token: string) => string, number][] = [
        ['too-fast', (token) => token, 2.9],
        ['expired', (token) => token, 24 * 3600 + 1],
        ['bad-token', (token) => token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA'), 5],
        ['bad-token', () => '', 5],
        ['honeypot', (token) => token, 5],
      ];
      for (const [outcome, mangle, wait] of drops) {
        const form = await t.request('GET', '/events/community/add/', { remoteAddress: `198.51.100.${drops.length}` });
        time.advance(wait);
        const before = await counts(t);
        const fields = validFields(outcome === 'honeypot' ? { url_confirm: 'http://spam.example' } : {});
        const response = await post(encode({ _form: mangle(formToken(form.text)), ...fields }), `203.0.113.${Math.floor(wait)}`);
        assert.equal(response.status, 303, outcome);
        assert.equal(response.headers.location, stored.headers.location);
        assert.equal(response.text, stored.text);
        assert.deepEqual(Object.keys(response.headers).sort(), Object.keys(stored.headers).sort());
        const after = await counts(t);
        assert.deepEqual(after, { ...before, attempts: before.attempts + 1 }, `${outcome}: only an attempt row`);
        assert.equal(await lastOutcome(), outcome);
      }
      // 24 h exactly is still valid.
      const form = await t.request('GET', '/events/community/add/');
      time.advance(24 * 3600);
      const token = formToken(form.text);
      const body = encode({ _form: token, ...validFields() });
      assert.equal((await post(body, '203.0.113.50')).status, 303);
      assert.equal(await lastOutcome(), 'stored');
      const before = await counts(t);
      await post(body, '203.0.113.50');
      assert.equal(await lastOutcome(), 'reused');
      assert.equal((await counts(t)).submissions, before.submissions);
    });

    test('the hourly limit: 5 counted, then 429 with Retry-After; another address is unaffected', async () => {
      const address = '192.0.2.77';
      for (let n = 0; n < 5; n++) {
        const form = await t.request('GET', '/events/community/add/', { remoteAddress: address });
        time.advance(60);
        assert.equal((await post(encode({ _form: formToken(form.text), ...validFields() }), address)).status, 303);
      }
      const form = await t.request('GET', '/events/community/add/', { remoteAddress: address });
      time.advance(60);
      const before = await counts(t);
      const limited = await post(encode({ _form: formToken(form.text), ...validFields() }), address);
      assert.equal(limited.status, 429);
      assert.equal(limited.headers['x-calendar-error'], 'submission_rate_limited');
      // The first counted attempt was 5 minutes ago (60 s waits): 55 minutes to go.
      assert.equal(limited.headers['retry-after'], String(55 * 60));
      assert.deepEqual(await counts(t), before, 'a 429 is not counted');
      assert.equal((await post(encode({ _form: formToken(form.text), ...validFields() }), '192.0.2.78')).status, 303);
    });

    test('proof of work: solved → no flag; absent, forged or another form\'s → unverified', async () => {
      const flagsOfLast = async () => (await t.storage.db.selectFrom('submissions').select('flags').orderBy('created_utc', 'desc').orderBy('event_id', 'desc').executeTakeFirstOrThrow()).flags;
      const first = await t.request('GET', '/events/community/add/');
      const payload = await solvedPayload(first.text);
      time.advance(5);
      assert.equal((await post(encode({ _form: formToken(first.text), altcha: payload, ...validFields() }), '10.0.0.1')).status, 303);
      assert.equal(await flagsOfLast(), '');
      const cases: [string, string][] = [
        ['absent', ''],
        ['forged', Buffer.from(JSON.stringify({ challenge: { parameters: {} }, solution: { counter: 1, derivedKey: 'aa' } })).toString('base64')],
        ['replayed with another form', payload],
      ];
      for (const [name, altcha] of cases) {
        const form = await t.request('GET', '/events/community/add/');
        time.advance(5);
        assert.equal((await post(encode({ _form: formToken(form.text), altcha, ...validFields() }), `10.0.1.${name.length}`)).status, 303, name);
        assert.equal(await flagsOfLast(), 'unverified', name);
      }
    });
  });
}
