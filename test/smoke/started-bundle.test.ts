import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type BrowserContext } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { DIALECTS, freshDatabase, skipReason, type FreshDatabase } from '../helpers/databases.ts';
import { jpeg } from '../helpers/images.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { calendarCli, startBundle, type StartedService } from './bundle-process.ts';

const NS = '/calendar/events/v1';
const CHROMIUM = '/usr/bin/chromium';
const browserRequired = process.env.TEST_BROWSER_REQUIRED === '1';
const noBrowser = !existsSync(CHROMIUM) && !browserRequired ? `no ${CHROMIUM} (apt-get install -y chromium); TEST_BROWSER_REQUIRED=1 makes this a failure` : false;
/** What a wait in the browser may take before the page counts as broken (a blank page waits forever). */
const PAGE_TIMEOUT_MS = 15_000;

/** Lines a healthy start must not print: log lines at warn or above, and runtime warnings. */
function warnings(output: string): string[] {
  return output.split('\n').filter((line) => {
    if (line.startsWith('{')) {
      try {
        return (JSON.parse(line) as { level?: number }).level! >= 40;
      } catch {
        return true;
      }
    }
    return /warn|error|must exist/i.test(line);
  });
}

function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

async function json(response: Response): Promise<any> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON (${response.status}): ${text.slice(0, 200)}`);
  }
}

/**
 * A day for events that lists and pages show whenever the suite runs: the 15th of March next year
 * (UTC, the started service's zone), always months ahead and away from any day, month or year
 * boundary, so a run across midnight at a month's end sees the same day and month throughout.
 */
function awayFromBoundaries(): { day: string; month: string } {
  const month = `${new Date().getUTCFullYear() + 1}-03`;
  return { day: `${month}-15`, month };
}

/**
 * The smoke suite: what `npm start` builds and starts (the esbuild bundle, not the sources the
 * other suites import), on each database, used the way a new operator and their clients use it.
 */
describe('the started bundle (npm start)', () => {
  let profile = '';
  let browser: BrowserContext | undefined;

  before(async () => {
    if (noBrowser) return;
    if (!existsSync(CHROMIUM)) throw new Error(`TEST_BROWSER_REQUIRED=1 but ${CHROMIUM} is missing (apt-get install -y chromium)`);
    profile = mkdtempSync(join(tmpdir(), 'calendar-smoke-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });

  after(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  for (const dialect of DIALECTS) {
    describe(dialect, { skip: skipReason(dialect) }, () => {
      let database: FreshDatabase;
      let service: StartedService;
      let uploadsDir = '';

      before(async () => {
        database = await freshDatabase(dialect);
        uploadsDir = mkdtempSync(join(tmpdir(), 'calendar-smoke-uploads-'));
        service = await startBundle(database.url, uploadsDir);
      });

      after(async () => {
        await service?.stop();
        await database?.dispose();
        if (uploadsDir) rmSync(uploadsDir, { recursive: true, force: true });
      });

      test('/healthz answers 200 and the namespace index lists the routes', async () => {
        const health = await fetch(`${service.origin}/healthz`);
        assert.equal(health.status, 200);
        const index = await json(await fetch(`${service.origin}${NS}`));
        assert.equal(index.namespace, 'calendar/events/v1');
        assert.ok(index.routes['/calendar/events/v1/events'], 'the index lists the events route');
      });

      test('the week, photo, summary and map views, Leaflet, the feed, the sitemap, robots.txt, an embed page and the embed scripts answer 200 from the bundle', async () => {
        for (const [path, type] of [
          ['/events/map/', 'text/html; charset=utf-8'],
          ['/da/events/map/', 'text/html; charset=utf-8'],
          ['/assets/leaflet-1.9.4/leaflet.js', 'text/javascript; charset=utf-8'],
          ['/assets/leaflet-1.9.4/leaflet.css', 'text/css; charset=utf-8'],
          ['/assets/leaflet-1.9.4/images/marker-icon.png', 'image/png'],
          ['/assets/map.js', 'text/javascript; charset=utf-8'],
          ['/events/photo/', 'text/html; charset=utf-8'],
          ['/da/events/summary/', 'text/html; charset=utf-8'],
          ['/events/week/', 'text/html; charset=utf-8'],
          ['/da/events/week/2026-06-10/', 'text/html; charset=utf-8'],
          ['/events/feed/', 'application/rss+xml; charset=UTF-8'],
          ['/da/events/feed/', 'application/rss+xml; charset=UTF-8'],
          ['/sitemap.xml', 'application/xml; charset=UTF-8'],
          ['/sitemaps/events-1.xml', 'application/xml; charset=UTF-8'],
          ['/robots.txt', 'text/plain; charset=utf-8'],
          ['/embed/events/', 'text/html; charset=utf-8'],
          ['/assets/embed.js', 'text/javascript; charset=utf-8'],
          ['/assets/embed-frame.js', 'text/javascript; charset=utf-8'],
        ]) {
          const response = await fetch(`${service.origin}${path}`);
          assert.equal(response.status, 200, path);
          assert.equal(response.headers.get('content-type'), type, path);
          await response.arrayBuffer();
        }
      });

      test('a user added with the calendar CLI writes through the service, and the read that follows sees it', async () => {
        const added = await calendarCli(database.url, 'users', 'add', 'smoke-editor', '--role', 'editor');
        const password = /application password: (\S+)/.exec(added)?.[1];
        assert.ok(password, added);
        assert.match(await calendarCli(database.url, 'users', 'list'), /\tsmoke-editor\teditor\t/);

        const created = await fetch(`${service.origin}${NS}/events`, {
          method: 'POST',
          headers: { authorization: basic('smoke-editor', password), 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Smoke Concert', start_date: '2030-05-01 19:00:00', end_date: '2030-05-01 21:00:00', venue: { venue: 'Smoke Hall' } }),
        });
        const event = await json(created);
        assert.equal(created.status, 201, JSON.stringify(event));
        const read = await json(await fetch(`${service.origin}${NS}/events/${event.id}`));
        assert.equal(read.title, 'Smoke Concert');
        assert.equal(read.venue.venue, 'Smoke Hall');

        const me = await fetch(`${service.origin}/calendar/admin/v1/me`, { headers: { authorization: basic('admin', service.adminPassword) } });
        assert.equal(me.status, 200, 'the password printed at first start signs the administrator in');
      });

      test('the started service delivers webhooks: a subscribed receiver gets the signed change of a write', async () => {
        const admin = basic('admin', service.adminPassword);
        const receiver = await WebhookReceiver.start();
        try {
          const subscribed = await fetch(`${service.origin}/calendar/admin/v1/webhooks`, {
            method: 'POST',
            headers: { authorization: admin, 'content-type': 'application/json' },
            body: JSON.stringify({ url: receiver.url, types: ['venue.*'] }),
          });
          const hook = await json(subscribed);
          assert.equal(subscribed.status, 201, JSON.stringify(hook));
          const venue = await json(await fetch(`${service.origin}${NS}/venues`, {
            method: 'POST',
            headers: { authorization: admin, 'content-type': 'application/json' },
            body: JSON.stringify({ venue: 'Webhook Hall', status: 'publish' }),
          }));
          // A subscription starts at the feed's horizon, so on a busy PostgreSQL server it may also
          // be sent changes committed just before it: what matters is that this write arrives, signed.
          const verifier = new Webhook(hook.secret);
          const changesOf = (request: { body: string; headers: Record<string, unknown> }) =>
            (verifier.verify(request.body, request.headers as Record<string, string>) as any).data.changes as { type: string; id: number; op: string }[];
          const isTheWrite = (change: { type: string; id: number; op: string }) => change.type === 'venue' && change.id === venue.id && change.op === 'create';
          const received = await receiver.until((requests) => requests.some((request) => changesOf(request).some(isTheWrite)));
          assert.ok(received.every((request) => changesOf(request).length > 0), 'every request carries a verified signature');
        } finally {
          await receiver.close();
        }
      });

      test('a repeated read is replayed, and stays true after updates through the service and an import through the CLI', async () => {
        const admin = basic('admin', service.adminPassword);
        const write = async (path: string, body: unknown) => {
          const response = await fetch(`${service.origin}${NS}${path}`, { method: 'POST', headers: { authorization: admin, 'content-type': 'application/json' }, body: JSON.stringify(body) });
          const answer = await json(response);
          assert.ok(response.status < 300, JSON.stringify(answer));
          return answer;
        };
        const first = await write('/events', { title: 'Replay one', start_date: '2031-06-01 19:00:00', end_date: '2031-06-01 21:00:00' });
        const second = await write('/events', { title: 'Replay two', start_date: '2031-06-02 19:00:00', end_date: '2031-06-02 21:00:00' });
        const page = `${service.origin}${NS}/events?start_date=2031-06-01&end_date=2031-06-30&per_page=1`;
        const titles = async () => (await json(await fetch(page))).events.map((event: { title: string }) => event.title);
        const replays = () => service.output().split('\n').filter((line) => line.includes('"replayed":true')).length;
        assert.deepEqual(await titles(), ['Replay one']);
        const before = replays();
        // Any write in between ends a replay, and the service may still be writing in the
        // background (delivering the previous test's webhooks): the read is repeated until one
        // is replayed, each time waiting for the service's log line.
        for (let attempt = 0; replays() === before && attempt < 10; attempt++) {
          assert.deepEqual(await titles(), ['Replay one']);
          for (let waited = 0; replays() === before && waited < 500; waited += 50) await sleep(50);
        }
        assert.ok(replays() > before, 'a repeated read was replayed');
        // Off the page (kept), then on it.
        await write(`/events/${second.id}`, { title: 'Replay two renamed' });
        assert.deepEqual(await titles(), ['Replay one']);
        await write(`/events/${first.id}`, { title: 'Replay one renamed' });
        assert.deepEqual(await titles(), ['Replay one renamed']);
        // Another process writes an earlier event into the same database.
        const dir = mkdtempSync(join(tmpdir(), 'calendar-smoke-ics-'));
        try {
          const file = join(dir, 'earlier.ics');
          writeFileSync(file, ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//smoke//EN', 'BEGIN:VEVENT', 'UID:replay-zero@smoke.test', 'DTSTAMP:20300101T000000Z',
            'DTSTART:20310601T120000Z', 'DTEND:20310601T130000Z', 'SUMMARY:Replay zero', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'));
          await calendarCli(database.url, 'import', 'ics', file);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
        assert.deepEqual(await titles(), ['Replay zero']);
      });

      // The page does not depend on the database: one edition per database keeps the suite short.
      for (const edition of dialect === 'sqlite' ? [''] : ['/it']) {
        test(`${edition}/docs in Chromium lists every operation, runs "try it", and logs no error`, { skip: noBrowser }, async () => {
          const document = await json(await fetch(`${service.origin}${edition}${NS}/doc`));
          const operations = Object.values(document.paths as Record<string, Record<string, unknown>>).flatMap((item) =>
            Object.keys(item).filter((key) => ['get', 'post', 'put', 'patch', 'delete'].includes(key)),
          ).length;
          const page = await browser!.newPage();
          const problems: string[] = [];
          page.on('console', (message) => {
            if (message.type() === 'error') problems.push(message.text());
          });
          page.on('pageerror', (error) => problems.push(error.message));
          try {
            await page.goto(`${service.origin}${edition}/docs`);
            await page.locator('.swagger-ui .info .title').filter({ hasText: document.info.title }).waitFor({ timeout: PAGE_TIMEOUT_MS });
            assert.equal(await page.locator('.opblock').count(), operations, 'one block per operation of the document');

            const operation = page.locator('.opblock-get').filter({ has: page.locator('[data-path="/"]') });
            await operation.locator('.opblock-summary').click();
            await operation.locator('.try-out__btn').click();
            await operation.locator('button.execute').click();
            const response = operation.locator('.live-responses-table');
            await response.locator('.response-col_status').filter({ hasText: '200' }).waitFor({ timeout: PAGE_TIMEOUT_MS });
            assert.match(await response.innerText(), /"namespace": "calendar\/events\/v1"/);
            assert.deepEqual(problems, []);
          } finally {
            await page.close();
          }
        });
      }

      test('a month page in Chromium shows the events created through the API; every url the API returns opens its page', { skip: noBrowser }, async () => {
        const admin = basic('admin', service.adminPassword);
        const { day, month } = awayFromBoundaries();
        const post = async (path: string, body: Record<string, unknown>) => {
          const response = await fetch(`${service.origin}${NS}${path}`, { method: 'POST', headers: { authorization: admin, 'content-type': 'application/json' }, body: JSON.stringify(body) });
          const created = await json(response);
          assert.equal(response.status, 201, JSON.stringify(created));
          return created;
        };
        const organizer = await post('/organizers', { organizer: 'Smoke Organizer', email: 'smoke@example.org' });
        const titles = ['Page Smoke Talk', 'Page Smoke Fair'];
        await post('/events', { title: titles[0], status: 'publish', start_date: `${day} 12:00:00`, end_date: `${day} 13:00:00`, venue: { venue: 'Page Smoke Hall', city: 'Aarhus' }, organizer: [organizer.id], categories: 'smoke-pages' });
        await post('/events', { title: titles[1], status: 'publish', all_day: true, start_date: day, end_date: day, tags: 'smoke-tag' });

        const page = await browser!.newPage();
        const problems: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(`${page.url()}: ${message.text()}`);
        });
        page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
        try {
          assert.equal((await page.goto(`${service.origin}/events/`))?.status(), 200, 'the default view');
          const shown = await page.goto(`${service.origin}/events/${month}/`);
          assert.equal(shown?.status(), 200);
          for (const title of titles) assert.equal(await page.locator('table.month').getByRole('link', { name: title }).count(), 1, `the month shows ${title}`);

          const events = await json(await fetch(`${service.origin}${NS}/events?search=page%20smoke`));
          const [venues, organizers, categories, tags] = await Promise.all(['/venues', '/organizers', '/categories', '/tags'].map(async (path) => json(await fetch(`${service.origin}${NS}${path}`))));
          const pages: Array<[string, string]> = [
            ...events.events.map((event: { url: string; title: string }) => [event.url, event.title]),
            ...venues.venues.map((venue: { url: string; venue: string }) => [venue.url, venue.venue]),
            ...organizers.organizers.map((record: { url: string; organizer: string }) => [record.url, record.organizer]),
            ...categories.categories.map((term: { url: string; name: string }) => [term.url, term.name]),
            ...tags.tags.map((term: { url: string; name: string }) => [term.url, term.name]),
          ];
          assert.ok(pages.length >= 6, JSON.stringify(pages));
          for (const [url, heading] of pages) {
            assert.ok(url.startsWith(service.origin), url);
            const response = await page.goto(url);
            assert.equal(response?.status(), 200, url);
            assert.equal(await page.locator('h1').innerText(), heading, url);
          }
          assert.deepEqual(problems, [], 'no console errors (a blocked script or style would show here)');
        } finally {
          await page.close();
        }
      });

      test('an image uploaded through the started service shows on its event\'s page in Chromium, with its sizes', { skip: noBrowser }, async () => {
        const admin = basic('admin', service.adminPassword);
        const uploaded = await fetch(`${service.origin}/calendar/admin/v1/media?alt_text=${encodeURIComponent('A blue poster')}`, {
          method: 'POST',
          headers: { authorization: admin, 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="smoke-poster.jpg"' },
          body: await jpeg(1200, 800),
        });
        const media = await json(uploaded);
        assert.equal(uploaded.status, 201, JSON.stringify(media));
        const created = await fetch(`${service.origin}${NS}/events`, {
          method: 'POST',
          headers: { authorization: admin, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Poster Smoke Night', status: 'publish', start_date: '2032-04-15 19:00:00', end_date: '2032-04-15 21:00:00', image: media.id }),
        });
        const event = await json(created);
        assert.equal(created.status, 201, JSON.stringify(event));
        assert.equal(event.image.sizes.large.width, 1024);

        const page = await browser!.newPage();
        try {
          assert.equal((await page.goto(event.url))?.status(), 200, event.url);
          const image = page.locator('img[srcset]').first();
          await image.waitFor({ timeout: PAGE_TIMEOUT_MS });
          await page.waitForFunction((element) => (element as HTMLImageElement).complete, await image.elementHandle(), { timeout: PAGE_TIMEOUT_MS });
          const shown = await image.evaluate((element: HTMLImageElement) => ({ naturalWidth: element.naturalWidth, srcset: element.srcset, alt: element.alt, current: element.currentSrc }));
          assert.ok(shown.naturalWidth > 0, `the image loaded: ${JSON.stringify(shown)}`);
          assert.match(shown.srcset, /smoke-poster-1024x683\.jpg 1024w/);
          assert.ok(shown.current.startsWith(`${service.origin}/uploads/`), shown.current);
        } finally {
          await page.close();
        }
      });

      test('start-up and the requests above printed no warning', () => {
        assert.deepEqual(warnings(service.output()), []);
      });
    });
  }
});
