import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { ROLES } from '../../src/domain/auth/capabilities.ts';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { startTestApp, type Caller, type TestApp } from '../helpers/test-app.ts';
import { assertIntegrity, assertUnchanged, snapshotDatabase } from './db-snapshot.ts';
import { JsonObject, encodePairs, formEncode, hostileBody, hostileHeaders, hostileString, pairs, plausibleMembers, toJsonText, type HostileBody } from './hostile.ts';
import { assertErrorShape, unwrapEnvelope } from './responses.ts';
import { fillPath, pathVariables, routeCatalog, type CatalogEndpoint, type CatalogRoute } from './route-catalog.ts';
import { identifierPool, seedRecords, type Pool } from './seed.ts';
import { fcParameters } from './runs.ts';

/**
 * Issue 8, hostile input: for every route and method, generated query strings, bodies and
 * headers from every role. Whatever arrives, the service answers below 500, rejects in the
 * documented JSON error shape, writes nothing when it rejects, and stays consistent when it
 * accepts.
 */

interface HostileRequest {
  method: string;
  url: string;
  caller: Caller;
  headers: Record<string, string>;
  body: HostileBody;
}

const CALLERS: Caller[] = ['visitor', ...ROLES];
const EDITIONS = ['', '', '', '/da', '/it', '/es'];

function segment(regex: string, pool: Pool, isAdmin: boolean): fc.Arbitrary<string> {
  const ids = isAdmin ? pool.userIds : pool.ids;
  if (regex === '\\d+') {
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...ids).map(String) },
      { weight: 1, arbitrary: fc.constantFrom('0', '00', '007', '2147483648', '9007199254740991', '9007199254740993', '99999999999999999999999999', '1'.repeat(1000)) },
      { weight: 1, arbitrary: fc.integer({ min: 1_000_000, max: 2 ** 31 - 1 }).map(String) },
    );
  }
  return fc.oneof(
    { weight: 4, arbitrary: pool.slugs.length > 0 ? fc.constantFrom(...pool.slugs) : hostileString },
    { weight: 3, arbitrary: hostileString.filter((text) => text !== '').map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '?'))) },
    { weight: 1, arbitrary: fc.constantFrom('%E0%A4%A', '%00', '%2F', '..', '%2e%2e', 'a%20b', 'UPPER-Case', '%', '%zz') },
  );
}

function withDescription(request: HostileRequest): HostileRequest {
  // fast-check prints a failing case with this (bodies can be a megabyte long).
  return Object.defineProperty(request, fc.toStringMethod, { value: () => describeRequest(request) });
}

/**
 * Requests for one handler, half of them anything at all (any parameters, encodings, bodies,
 * credentials), half of them what a signed-in client would send with one or two hostile values,
 * so that they get past validation into the handlers.
 */
function requestFor(route: CatalogRoute, endpoint: CatalogEndpoint, pool: Pool): fc.Arbitrary<HostileRequest> {
  const { args, methods } = endpoint;
  const isAdmin = route.key.startsWith('/calendar/admin/');
  const path = fc
    .record({
      edition: isAdmin ? fc.constant('') : fc.constantFrom(...EDITIONS),
      segments: fc.tuple(...pathVariables(route.key).map(([, regex]) => segment(regex, pool, isAdmin))),
      trailingSlash: fc.boolean(),
    })
    .map(({ edition, segments, trailingSlash }) => edition + fillPath(route.key, segments) + (trailingSlash ? '/' : ''));
  const anything = fc
    .record({
      method: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...methods) }, { weight: 1, arbitrary: fc.constantFrom('HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH') }),
      path,
      query: pairs(args),
      caller: fc.constantFrom(...CALLERS),
      headers: hostileHeaders,
      body: hostileBody(args),
    })
    .map(({ method, path: filled, query, caller, headers, body }) => {
      const search = encodePairs(query);
      return withDescription({ method, url: search === '' ? filled : `${filled}?${search}`, caller, headers, body });
    });
  const plausible = fc
    .record({
      method: fc.constantFrom(...methods),
      path,
      members: plausibleMembers(args, endpoint.required),
      inQuery: fc.boolean(),
      caller: fc.constantFrom<Caller>('administrator', 'editor', 'author', 'contributor'),
    })
    .map(({ method, path: filled, members, inQuery, caller }) => {
      // Reads take their parameters from the query string; writes mostly from a JSON body.
      if (method === 'GET' || inQuery) {
        const search = formEncode(members);
        return withDescription({ method, url: search === '' ? filled : `${filled}?${search}`, caller, headers: {}, body: { kind: 'none' } });
      }
      return withDescription({ method, url: filled, caller, headers: {}, body: { kind: 'plausible json', payload: toJsonText(new JsonObject(members)), contentType: 'application/json' } });
    });
  return fc.oneof(anything, plausible);
}

function describeRequest(request: HostileRequest): string {
  const payload = request.body.payload === undefined ? '' : ` ${request.body.contentType} ${JSON.stringify(String(request.body.payload).slice(0, 300))}`;
  return `${request.method} ${request.url.slice(0, 500)} as ${request.caller} ${JSON.stringify(request.headers).slice(0, 200)} [${request.body.kind}]${payload}`;
}

const DOCUMENTATION_PAGE = /^\/((da|it|es)\/)?docs(\/|\?|$)/;

/** The last error the app logged: a 5xx is reported with its stack. */
let lastErrorLog = '';

/** How the generated cases of one handler were answered, reported as a test diagnostic. */
type Tally = Map<number, number>;

function tallyText(tally: Tally): string {
  return [...tally].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ');
}

async function judge(t: TestApp, request: HostileRequest, tally: Tally): Promise<void> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.caller !== 'visitor' && headers.authorization === undefined) headers.authorization = t.authHeader(t.users[request.caller]);
  if (request.body.contentType !== undefined) headers['content-type'] = request.body.contentType;
  const before = await snapshotDatabase(t.storage);
  const response = await t.app.inject({ method: request.method as any, url: request.url, headers, payload: request.body.payload });
  const label = `${describeRequest(request)}\n→ ${response.statusCode} ${response.body.slice(0, 500)}`;
  assert.ok(response.statusCode < 500, `server error for ${label}\nlogged: ${lastErrorLog.slice(0, 2000)}`);
  assert.equal(response.headers['x-content-type-options'], 'nosniff', `no security headers: ${label}`);

  let body: unknown;
  // The documentation page and its assets are the only answers that are not JSON.
  const page = DOCUMENTATION_PAGE.test(request.url) && response.statusCode < 400;
  // Nor are the iCalendar files (50 B.1), whose errors are JSON all the same.
  const calendarFile = /\.ics\/*$/.test(request.url.split('?')[0]) && response.statusCode < 300;
  if (response.body !== '' && !page && !calendarFile) {
    assert.match(String(response.headers['content-type']), /^application\/json/, `not JSON: ${label}`);
    body = JSON.parse(response.body);
  }
  const real = unwrapEnvelope(response.statusCode, body, request.url.includes('_envelope'));
  tally.set(real.status, (tally.get(real.status) ?? 0) + 1);
  const after = await snapshotDatabase(t.storage);
  if (real.status >= 400) {
    // HEAD answers carry no body at all.
    if (response.body !== '') assertErrorShape(real.body, real.status, label);
    assertUnchanged(before, after, label);
  }
  assertIntegrity(after, label);
}

for (const dialect of DIALECTS) {
  describe(`hostile input on every route and method [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      // A generous failure limit: generated bad credentials must not lock the test users out.
      t = await startTestApp(dialect, {
        env: { CALENDAR_AUTH_FAILURE_LIMIT: '1000000', LOG_LEVEL: 'error' },
        loggerStream: { write: (line: string) => void (lastErrorLog = line) },
      });
      await seedRecords(t);
    });
    after(() => t.close());

    test('never a 5xx; rejections are documented JSON errors that write nothing', async (context) => {
      const catalog = await routeCatalog(t);
      assert.ok(catalog.length >= 5, 'the namespace index lists the routes');
      for (const [routeIndex, route] of catalog.entries()) {
        for (const endpoint of route.endpoints) {
          await context.test(`${endpoint.methods.join('|')} ${route.key}`, async (handlerContext) => {
            const pool = await identifierPool(t);
            const tally: Tally = new Map();
            await fc.assert(
              fc.asyncProperty(requestFor(route, endpoint, pool), (request) => judge(t, request, tally)),
              fcParameters(dialect, routeIndex),
            );
            handlerContext.diagnostic(`answers: ${tallyText(tally)}`);
          });
        }
      }
    });

    test('unknown paths and methods outside the catalogue', async () => {
      const pool = await identifierPool(t);
      const unknownRoute: CatalogRoute = { key: '/calendar/events/v1/(?P<slug>[^/]+)/(?P<id>\\d+)', endpoints: [] };
      const paths = fc.oneof(
        requestFor(unknownRoute, { methods: ['GET', 'POST', 'DELETE', 'TRACE', 'CONNECT'], args: [], required: [] }, pool),
        fc.record({
          method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
          url: fc.constantFrom('/docs', '/it/docs?url=%3Cscript%3E', '/docs/', '/docs/assets/swagger-ui.css', '/docs/assets/index.html', '/docs/assets/../../package.json', '/docs/assets/%2e%2e/%2e%2e/package.json', '/docs/assets/swagger-ui-bundle.js.map', '/', '//', '/calendar', '/calendar/events/v2', '/calendar/events/v1/../admin/v1/users', '/calendar/admin/v1', '/calendar/admin/v1/users/abc', '/xx/calendar/events/v1', '/healthz', '/calendar/events/v1/events/-1', '/calendar/events/v1/venues/by-slug/', '/calendar/events/v1/venues/by-slug/a/b', '/%00', '/calendar/events/v1/%E0%A4%A'),
          caller: fc.constantFrom(...CALLERS),
          headers: hostileHeaders,
          body: hostileBody([]),
        }),
      );
      await fc.assert(fc.asyncProperty(paths, (request) => judge(t, request, new Map())), fcParameters(dialect, 1000));
    });
  });
}
