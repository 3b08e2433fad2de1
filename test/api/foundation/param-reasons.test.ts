import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Role } from '../../../src/domain/auth/capabilities.ts';
import { InvalidParamsError } from '../../../src/domain/errors.ts';
import { systemClock } from '../../../src/domain/dates/clock.ts';
import type { ArgSpec } from '../../../src/args/arg-spec.ts';
import type { RestContext } from '../../../src/http/rest/context.ts';
import type { NamespaceDef } from '../../../src/http/rest/endpoint.ts';
import { UrlBuilder } from '../../../src/render/urls.ts';
import { validateArgs } from '../../../src/args/validate-args.ts';
import { peopleDeps } from '../../../src/http/routes/admin-people.ts';
import { adminNamespace } from '../../../src/http/routes/admin-users.ts';
import { LANGUAGES, translate } from '../../../src/i18n/catalog.ts';
import { UsersService } from '../../../src/services/users-service.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { appNamespace } from '../docs/support.ts';

/**
 * Values no validated argument should accept all of: empty, blank, words, signs, zero, huge
 * numbers, wrong JSON types, long lists, a script URL, `true` (which only a few refuse).
 */
const BAD_VALUES: unknown[] = [
  '', '   ', 'not a valid value @@ ✗', '-5', '0', 0, -1, 1e20, '99999999999999999999', 2.5, {}, { nested: { deep: [] } },
  [[]], Array.from({ length: 201 }, (_, i) => `x${i}`), 'javascript:alert(1)', true, 'true', [1, 2, 3],
];

/**
 * Arguments checked only together with another one (70-geo §3.1: the search parameters count with
 * `geoloc` on; `orderby=distance` needs a centre): the companions sent with them, and their own bad values.
 */
const COMPANIONS: Record<string, Record<string, unknown>> = {
  geoloc_lat: { geoloc: true },
  geoloc_lng: { geoloc: true },
  geoloc_radius: { geoloc: true },
  geoloc_unit: { geoloc: true },
  orderby: { geoloc: true },
};
const EXTRA_BAD_VALUES: Record<string, unknown[]> = { orderby: ['distance'] };

/** An argument the service checks (a validator or a declared type it coerces to), as opposed to free text. */
function isValidated(spec: ArgSpec): boolean {
  return spec.validate !== undefined || (spec.type !== undefined && spec.sanitize === undefined) || spec.enum !== undefined || spec.items !== undefined;
}

const GENERIC_MESSAGES = new Set(LANGUAGES.map((lang) => translate(lang, 'rest_invalid_param_generic')));

/**
 * Walks every argument of every route, from the same declarations the router registers, and
 * feeds each validated one bad values: every refusal must carry a precise, translated reason
 * (`data.details[name]`), and every validated argument must refuse something. The declarations
 * type a validator's refusal so that it cannot omit its reason; this test catches generic ones.
 */
describe('every validated argument of every route refuses with a precise reason', () => {
  let t: TestApp;
  let namespaces: NamespaceDef[];

  before(async () => {
    t = await startTestApp('sqlite');
    namespaces = [appNamespace(t), adminNamespace(peopleDeps({ users: new UsersService(t.storage, systemClock), storage: t.storage, clock: systemClock, config: t.config }))];
  });
  after(() => t.close());

  const context = (role: Role | null): RestContext => ({
    lang: 'en',
    user: role === null ? null : { id: t.users[role].id, login: t.users[role].login, email: '', role },
    urls: new UrlBuilder('http://calendar.test', '', 'en'),
    now: new Date(),
    t: (key) => key,
  });

  test('walk', async () => {
    const problems: string[] = [];
    let walked = 0;
    for (const namespace of namespaces) {
      for (const route of namespace.routes) {
        for (const endpoint of route.endpoints) {
          for (const [name, spec] of Object.entries(endpoint.args)) {
            if (!isValidated(spec)) continue;
            walked++;
            const where = `${endpoint.methods.join('|')} /${namespace.namespace}${route.pattern} ${name}`;
            let refused = 0;
            for (const role of [null, 'administrator'] as const) {
              for (const value of [...BAD_VALUES, ...(EXTRA_BAD_VALUES[name] ?? [])]) {
                try {
                  await validateArgs({ [name]: { ...spec, required: false } }, { ...COMPANIONS[name], [name]: value }, context(role));
                } catch (error) {
                  if (!(error instanceof InvalidParamsError)) {
                    problems.push(`${where} = ${JSON.stringify(value)}: threw ${String(error)} instead of rest_invalid_param`);
                    continue;
                  }
                  refused++;
                  const { reason } = error.failures[name]!;
                  const label = `${where} = ${JSON.stringify(value).slice(0, 40)}`;
                  if (!reason?.code || reason.code === 'rest_invalid_param') problems.push(`${label}: no reason code`);
                  for (const lang of LANGUAGES) {
                    const message = reason ? translate(lang, reason.messageKey, reason.vars) : '';
                    if (message.trim() === '' || GENERIC_MESSAGES.has(message)) problems.push(`${label}: generic or empty reason in ${lang}`);
                    if (/\{\w+\}/.test(message)) problems.push(`${label}: unfilled placeholder in ${lang}: ${message}`);
                  }
                }
              }
            }
            if (refused === 0) problems.push(`${where}: refused none of the bad values (add one it refuses, or it is not validated)`);
          }
        }
      }
    }
    assert.ok(walked > 50, `walked only ${walked} arguments`);
    assert.deepEqual(problems, []);
  });

  test('the reasons reach the response, translated, next to the reference note', async () => {
    const cases: Array<[path: string, name: string, code: string, needle: RegExp]> = [
      ['/calendar/events/v1/events?per_page=0', 'per_page', 'rest_invalid_page_size', /from 1 to 50/],
      ['/calendar/events/v1/events?start_date=someday', 'start_date', 'rest_invalid_date', /YYYY-MM-DD HH:MM:SS.*Unix timestamp.*tomorrow 10:00/],
      ['/calendar/events/v1/events?status=bogus', 'status', 'rest_invalid_status', /publish/],
    ];
    for (const [path, name, code, needle] of cases) {
      const res = await t.request('GET', path);
      assert.equal(res.status, 400, path);
      assert.equal(res.body.code, 'rest_invalid_param');
      assert.equal(typeof res.body.data.params[name], 'string', 'the reference note stays');
      assert.equal(res.body.data.details[name].code, code, path);
      assert.match(res.body.data.details[name].message, needle, path);
      const danish = await t.request('GET', `/da${path}`);
      assert.equal(danish.body.data.details[name].code, code);
      assert.notEqual(danish.body.data.details[name].message, res.body.data.details[name].message, 'translated');
    }
    const write = await t.request('POST', '/calendar/events/v1/events', {
      as: 'editor',
      body: { title: 'T', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00', timezone: 'Mars/Base', website: 'gopherx://x', status: 'maybe' },
    });
    assert.deepEqual(Object.keys(write.body.data.details).sort(), ['status', 'timezone', 'website']);
    assert.match(write.body.data.details.timezone.message, /IANA.*Europe\/Rome, UTC\+5:30/);
    assert.match(write.body.data.details.website.message, /https, ftp/);
    assert.match(write.body.data.details.status.message, /publish, future, draft, pending, private, trash/);
    assert.equal((await t.request('GET', '/calendar/events/v1/events', { as: 'editor' })).body.total, 0, 'nothing written');
  });
});
