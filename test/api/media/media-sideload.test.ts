import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isPrivateAddress } from '../../../src/services/ical-fetch.ts';
import type { SideloadNetwork } from '../../../src/services/media/image-fetch.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { jpeg } from '../../helpers/images.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

const MAX_BYTES = 100_000;

/**
 * The injected network of 110-media §12 #8: `images.test` is the local test server, `private.test`
 * a private address; everything else is judged as the service judges it, so the test server is
 * reachable only by its name and a literal loopback address is still refused.
 */
const NETWORK: SideloadNetwork = {
  resolve: (hostname, callback) => {
    if (hostname === 'images.test') return callback(null, [{ address: '127.0.0.1', family: 4 }]);
    if (hostname === 'private.test') return callback(null, [{ address: '10.0.0.7', family: 4 }]);
    callback(new Error(`unknown host ${hostname}`), []);
  },
  refused: (address) => address !== '127.0.0.1' && isPrivateAddress(address),
  timeoutMs: 500,
};

for (const dialect of DIALECTS) {
  describe(`image sideloading (CALENDAR_IMAGE_SIDELOAD=1) [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let directory: string;
    let server: Server;
    let origin = '';
    let fetches = 0;

    before(async () => {
      const poster = await jpeg(1200, 800);
      server = createServer((request, response) => {
        fetches++;
        const port = (server.address() as AddressInfo).port;
        switch (request.url) {
          case '/photos/harbour-poster.jpg':
            // The declared type is wrong on purpose: the content decides.
            return response.writeHead(200, { 'content-type': 'text/plain' }).end(poster);
          case '/moved':
            return response.writeHead(302, { location: `http://images.test:${port}/photos/harbour-poster.jpg` }).end();
          case '/to-private':
            return response.writeHead(302, { location: `http://private.test:${port}/photos/harbour-poster.jpg` }).end();
          case '/slow':
            response.writeHead(200, { 'content-type': 'image/jpeg' });
            return response.write(poster.subarray(0, 100));
          case '/big.jpg':
            return response.writeHead(200, { 'content-type': 'image/jpeg' }).end(Buffer.alloc(MAX_BYTES + 1));
          case '/page.jpg':
            return response.writeHead(200, { 'content-type': 'image/jpeg' }).end('<!doctype html><html><script>alert(1)</script></html>');
          default:
            return response.writeHead(404).end();
        }
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      origin = `http://images.test:${(server.address() as AddressInfo).port}`;
      directory = mkdtempSync(join(tmpdir(), 'calendar-sideload-'));
      t = await startTestApp(dialect, {
        env: { CALENDAR_IMAGE_SIDELOAD: '1', CALENDAR_UPLOADS_DIR: directory, CALENDAR_UPLOAD_MAX_BYTES: String(MAX_BYTES) },
        sideloadNetwork: NETWORK,
      });
    });
    after(async () => {
      await t?.close();
      server.closeAllConnections();
      server.close();
      rmSync(directory, { recursive: true, force: true });
    });

    const counts = async () => {
      const count = async (table: 'media' | 'events') => Number((await t.storage.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      return { media: await count('media'), events: await count('events') };
    };
    const createEvent = (image: unknown) =>
      t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Sideloaded', start_date: '2030-05-01 19:00:00', end_date: '2030-05-01 21:00:00', image } });

    test('a posted URL is fetched and processed as an upload; the same URL later is reused, not fetched again', async () => {
      const url = `${origin}/photos/harbour-poster.jpg`;
      const first = await createEvent(url);
      assert.equal(first.status, 201, first.text);
      assert.equal(first.body.image.width, 1200);
      assert.equal(first.body.image.sizes.large.width, 1024);
      assert.match(first.body.image.url, /^http:\/\/calendar\.test\/uploads\/\d{4}\/\d{2}\/harbour-poster\.jpg$/);
      const media = await t.request('GET', `/calendar/admin/v1/media/${first.body.image.id}`, { as: 'editor' });
      assert.equal(media.body.source, 'sideload');
      assert.equal(media.body.original_url, url);
      const served = await t.app.inject({ method: 'GET', url: new URL(first.body.image.url).pathname });
      assert.equal(served.statusCode, 200);

      const fetched = fetches;
      const venue = await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Sideload Hall', image: url } });
      assert.equal(venue.status, 201, venue.text);
      assert.equal(venue.body.image.id, first.body.image.id);
      assert.equal(fetches, fetched, 'no second fetch');
    });

    test('a redirect is followed and checked again', async () => {
      const created = await createEvent(`${origin}/moved`);
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.image.width, 1200);
    });

    const refusals: Array<[string, () => string, string]> = [
      ['a redirect to a private address', () => `${origin}/to-private`, 'image-url-not-allowed'],
      ['a literal loopback address', () => `http://[::1]:${new URL(origin).port}/photos/harbour-poster.jpg`, 'image-url-not-allowed'],
      ['a name resolving to a private address', () => `http://private.test:${new URL(origin).port}/photos/harbour-poster.jpg`, 'image-url-not-allowed'],
      ['a transfer over the time limit', () => `${origin}/slow`, 'image-fetch-failed'],
      ['a status other than 200', () => `${origin}/missing.jpg`, 'image-fetch-failed'],
      ['a body over CALENDAR_UPLOAD_MAX_BYTES', () => `${origin}/big.jpg`, 'rest_upload_file_too_big'],
      ['an HTML body', () => `${origin}/page.jpg`, 'rest_upload_invalid_type'],
    ];
    for (const [name, url, code] of refusals) {
      test(`${name} → 400 ${code}, and neither the event nor a media item is written`, async () => {
        const before = await counts();
        const refused = await createEvent(url());
        assert.equal(refused.status, 400, refused.text);
        assert.equal(refused.body.code, 'rest_invalid_param');
        assert.equal(refused.body.data.details.image.code, code);
        assert.equal(typeof refused.body.data.params.image, 'string');
        assert.deepEqual(await counts(), before);
      });
    }
  });
}
