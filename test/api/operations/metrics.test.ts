import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { readDatabase } from '../../../src/observability/database-gauges.ts';

const TOKEN = 'a-scraper-token-0123456789';

/** The families of a scrape, by name. */
async function scrape(t: TestApp): Promise<Map<string, MetricFamily> & { text: string }> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  assert.equal(res.headers['cache-control'], 'no-store');
  return Object.assign(new Map(parsePrometheusTextFormat(res.body).map((family) => [family.name, family])), { text: res.body });
}

/** The value of the sample whose labels include `labels` (0 when there is none). */
function valueOf(families: Map<string, MetricFamily>, name: string, labels: Record<string, string> = {}): number {
  const family = families.get(name);
  assert.ok(family, `${name} is exposed`);
  const sample = family.metrics.find((metric) => Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value));
  return sample === undefined ? 0 : Number(sample.value ?? sample.count);
}

for (const dialect of DIALECTS) {
  describe(`metrics with CALENDAR_METRICS=on [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { env: { CALENDAR_METRICS: 'on' }, overHttp: true });
    });
    after(() => t.close());

    test('loopback clients read it; another address is refused 403 metrics-forbidden, X-Forwarded-For notwithstanding', async () => {
      const away = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': '127.0.0.1' } });
      assert.equal(away.statusCode, 403);
      assert.equal(JSON.parse(away.body).code, 'metrics-forbidden');
      const families = await scrape(t);
      for (const name of ['process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds', 'http_requests_in_flight', 'calendar_webhook_outbox_messages']) assert.ok(families.has(name), name);
      assert.equal(families.get('http_request_duration_seconds')!.type, 'HISTOGRAM');
    });

    test('requests are counted by route pattern, replayed answers and 304s included; unknown paths share one series', async () => {
      const created = await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Counted', start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00', status: 'publish' } });
      assert.equal(created.status, 201, created.text);
      const route = `${NS}/events/:id`;
      const before = await scrape(t);
      const okBefore = valueOf(before, 'http_requests_total', { route, method: 'GET', status: '200' });
      const replayBefore = valueOf(before, 'calendar_cache_hits_total', { cache: 'replay' });
      const first = await t.request('GET', `${NS}/events/${created.body.id}`);
      for (let i = 0; i < 4; i++) assert.equal((await t.request('GET', `${NS}/events/${created.body.id}`)).status, 200);
      const notModified = await t.request('GET', `${NS}/events/${created.body.id}`, { headers: { 'if-none-match': String(first.headers.etag) } });
      assert.equal(notModified.status, 304);
      for (let i = 0; i < 20; i++) await t.request('GET', `/no/such/path/${i}`);
      const after = await scrape(t);
      assert.equal(valueOf(after, 'http_requests_total', { route, method: 'GET', status: '200' }) - okBefore, 5);
      assert.ok(valueOf(after, 'http_requests_total', { route, method: 'GET', status: '304' }) >= 1);
      assert.ok(valueOf(after, 'calendar_cache_hits_total', { cache: 'replay' }) > replayBefore, 'repeats were replayed');
      const series = after.get('http_requests_total')!.metrics;
      assert.deepEqual(series.filter((sample) => sample.labels?.route?.includes('/no/such')), []);
      assert.ok(valueOf(after, 'http_requests_total', { route: 'unmatched', status: '404' }) >= 20);
      // The parser keeps no labels of histogram samples: the count line is read as written.
      const count = new RegExp(`^http_request_duration_seconds_count\\{method="GET",route="${route}"\\} (\\d+)$`, 'm').exec(after.text);
      assert.ok(count && Number(count[1]) >= 6, after.text);
    });

    test('the database gauges equal counts taken with SQL', async () => {
      const readings = await readDatabase(t.storage, new Date());
      const published = await t.storage.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'publish').where('is_series_master', '=', 0).executeTakeFirstOrThrow();
      assert.equal(readings.events.publish, Number(published.n), JSON.stringify(readings));
      assert.ok(Number(published.n) >= 1);
      // PostgreSQL's horizon is the whole server's: another database's open transaction may hold it back.
      if (dialect === 'sqlite') assert.equal(readings.feedLagSeconds, 0);
      else assert.ok(readings.feedLagSeconds >= 0);
      const outbox = await t.storage.db.selectFrom('webhook_messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      assert.equal(Object.values(readings.outbox).reduce((sum, n) => sum + (n ?? 0), 0), Number(outbox.n));
    });
  });
}

describe('metrics access', () => {
  let off: TestApp;
  let withToken: TestApp;
  before(async () => {
    off = await startTestApp('sqlite');
    withToken = await startTestApp('sqlite', { env: { CALENDAR_METRICS: 'on', CALENDAR_METRICS_TOKEN: TOKEN } });
  });
  after(async () => {
    await off.close();
    await withToken.close();
  });

  test('off (the default): 404 rest_no_route like any unknown path', async () => {
    const res = await off.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    assert.equal(res.statusCode, 404);
    assert.equal(JSON.parse(res.body).code, 'rest_no_route');
  });

  test('with a token: missing or wrong → 401 metrics-unauthorized with a Bearer challenge; right → 200 from any address', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}x` }, { authorization: `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}` }]) {
      const res = await withToken.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers });
      assert.equal(res.statusCode, 401);
      assert.equal(JSON.parse(res.body).code, 'metrics-unauthorized');
      assert.equal(res.headers['www-authenticate'], 'Bearer realm="metrics"');
    }
    const res = await withToken.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.statusCode, 200);
    assert.ok(parsePrometheusTextFormat(res.body).some((family) => family.name === 'http_requests_total'));
  });

  test('/readyz answers ready while started', async () => {
    const res = await off.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '{"status":"ready"}');
    assert.equal(res.headers['cache-control'], 'no-store');
  });
});
