import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import exifr from 'exifr';
import sharp from 'sharp';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { animatedGif, jpeg, jpegWithComment, jpegWithGps, multipart, pngClaiming, pngWithText, rotatedJpeg, solid } from '../../helpers/images.ts';
import { NS, startTestApp, type Caller, type TestApp } from '../../helpers/test-app.ts';

const MEDIA = '/calendar/admin/v1/media';
const BACKENDS = ['directory', 'database'] as const;

interface Upload {
  bytes: Buffer;
  name?: string;
  type?: string;
  as?: Caller;
  headers?: Record<string, string>;
  url?: string;
}

for (const dialect of DIALECTS) {
  for (const backend of BACKENDS) {
    describe(`media uploads [${dialect}, ${backend}]`, { skip: skipReason(dialect) }, () => {
      let t: TestApp;
      let directory: string;
      before(async () => {
        directory = mkdtempSync(join(tmpdir(), 'calendar-uploads-'));
        t = await startTestApp(dialect, {
          env: { CALENDAR_UPLOADS: backend, CALENDAR_UPLOADS_DIR: directory, CALENDAR_UPLOAD_MAX_PIXELS: '4000000', CALENDAR_NAMESPACE_ALIASES: 'tribe/events/v1' },
        });
      });
      after(async () => {
        await t.close();
        rmSync(directory, { recursive: true, force: true });
      });

      const upload = async ({ bytes, name = 'photo.jpg', type = 'image/jpeg', as = 'author', headers = {}, url = MEDIA }: Upload) => {
        const allHeaders: Record<string, string> = { 'content-type': type, 'content-disposition': `attachment; filename="${name}"`, ...headers };
        if (as !== 'visitor') allHeaders.authorization = t.authHeader(t.users[as]);
        const response = await t.app.inject({ method: 'POST', url, headers: allHeaders, payload: bytes });
        return { status: response.statusCode, headers: response.headers, body: JSON.parse(response.body) };
      };
      const served = async (url: string) => {
        const response = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
        return { status: response.statusCode, headers: response.headers, bytes: response.rawPayload };
      };
      /** Rows and files stored so far: what a refused upload must leave unchanged. */
      const stored = async () => {
        const rows = await t.storage.db.selectFrom('media').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        const files = backend === 'directory'
          ? readdirSync(directory, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length
          : Number((await t.storage.db.selectFrom('media_files').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
        return { rows: Number(rows.n), files };
      };

      test('each accepted format: every size served with its dimensions and type, GIF sizes as PNG', async () => {
        const cases: Array<[string, Buffer, string, string]> = [
          ['a.jpg', await solid(1200, 800).jpeg().toBuffer(), 'image/jpeg', 'jpeg'],
          ['a.png', await solid(1200, 800).png().toBuffer(), 'image/png', 'png'],
          ['a.webp', await solid(1200, 800).webp().toBuffer(), 'image/webp', 'webp'],
          ['a.avif', await solid(1200, 800).avif().toBuffer(), 'image/avif', 'heif'],
          ['a.gif', await solid(1200, 800).gif().toBuffer(), 'image/gif', 'gif'],
        ];
        for (const [name, bytes, mime, format] of cases) {
          const answer = await upload({ bytes, name, type: 'application/octet-stream' });
          assert.equal(answer.status, 201, name);
          const image = answer.body;
          assert.deepEqual([image.width, image.height, image.mime_type], [1200, 800, mime], name);
          assert.deepEqual(Object.keys(image.sizes), ['medium', 'large', 'thumbnail', 'medium_large'], name);
          const full = await served(image.url);
          assert.equal(full.headers['content-type'], mime);
          assert.equal((await sharp(full.bytes).metadata()).format, format, name);
          for (const [sizeName, size] of Object.entries<any>(image.sizes)) {
            const file = await served(size.url);
            assert.equal(file.status, 200, `${name} ${sizeName}`);
            const metadata = await sharp(file.bytes).metadata();
            assert.deepEqual([metadata.width, metadata.height], [size.width, size.height], `${name} ${sizeName}`);
            assert.equal(size['mime-type'], format === 'gif' ? 'image/png' : mime, `${name} ${sizeName}`);
            assert.equal(file.headers['content-type'], size['mime-type']);
            assert.equal(size.filesize, file.bytes.length);
          }
        }
      });

      test('no stored file carries EXIF or GPS; orientation is applied to the pixels', async () => {
        const gps = await upload({ bytes: await jpegWithGps(), name: 'holiday.jpg' });
        assert.equal(gps.status, 201);
        for (const url of [gps.body.url, ...Object.values<any>(gps.body.sizes).map((size) => size.url)]) {
          const bytes = (await served(url)).bytes;
          assert.equal((await sharp(bytes).metadata()).exif, undefined, url);
          assert.equal(await exifr.parse(bytes, { gps: true, xmp: true, iptc: true }), undefined, url);
          assert.equal(bytes.includes('Serial 12345'), false);
        }
        const rotated = await upload({ bytes: await rotatedJpeg(), name: 'sideways.jpg' });
        assert.deepEqual([rotated.body.width, rotated.body.height], [200, 400]);
        const { data, info } = await sharp((await served(rotated.body.url)).bytes).raw().toBuffer({ resolveWithObject: true });
        const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
        // The red left half of the sideways picture is the upright picture's top half.
        assert.ok(pixel(100, 50)[0] > 200 && pixel(100, 50)[2] < 60, String(pixel(100, 50)));
        assert.ok(pixel(100, 350)[2] > 200 && pixel(100, 350)[0] < 60, String(pixel(100, 350)));
      });

      test('hostile files are refused with their code and leave nothing stored', async () => {
        const small = await jpeg(64, 64);
        const big = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 50 } } }).jpeg().toBuffer();
        const gif = await solid(20, 20).gif().toBuffer();
        const png = await solid(20, 20).png().toBuffer();
        const heicLike = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic'), Buffer.alloc(200)]);
        const avifAsHeic = Buffer.from(await solid(20, 20).avif().toBuffer());
        avifAsHeic.write('heic', 8, 'latin1');
        const cases: Array<[string, Buffer, string, number, string]> = [
          ['SVG with script', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'x.svg', 415, 'rest_upload_invalid_type'],
          ['HTML named .jpg', Buffer.from('<!doctype html><html><body><script>alert(1)</script>'), 'x.jpg', 415, 'rest_upload_invalid_type'],
          ['JPEG with HTML in a COM segment', jpegWithComment(small, '<html><body onload=alert(1)>'), 'x.jpg', 415, 'rest_upload_invalid_type'],
          ['JPEG with HTML after EOI', Buffer.concat([big, Buffer.from('<iframe src=//evil>')]), 'x.jpg', 415, 'rest_upload_invalid_type'],
          ['GIF with script after the trailer', Buffer.concat([gif, Buffer.from('<script>alert(1)</script>')]), 'x.gif', 415, 'rest_upload_invalid_type'],
          ['PNG with <script in tEXt', pngWithText(png, 'x'.repeat(1600) + '<script>alert(1)</script>'), 'x.png', 415, 'rest_upload_invalid_type'],
          ['HEIC-like', heicLike, 'x.heic', 415, 'rest_upload_invalid_type'],
          ['AVIF container with a HEIC brand', avifAsHeic, 'x.heic', 415, 'rest_upload_invalid_type'],
          ['PDF', Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF'), 'x.pdf', 415, 'rest_upload_invalid_type'],
          ['TIFF', await solid(20, 20).tiff().toBuffer(), 'x.tif', 415, 'rest_upload_invalid_type'],
          ['30,000² PNG header (decompression bomb)', await pngClaiming(30_000, 30_000), 'bomb.png', 413, 'rest_upload_image_too_large'],
          ['GIF with 1,001 frames', await animatedGif(1001), 'many.gif', 413, 'rest_upload_image_too_large'],
          ['truncated JPEG', big.subarray(0, Math.floor(big.length / 2)), 'x.jpg', 400, 'rest_upload_invalid_image'],
          ['zero bytes', Buffer.alloc(0), 'x.jpg', 400, 'rest_upload_no_data'],
        ];
        const before = await stored();
        for (const [label, bytes, name, status, code] of cases) {
          const answer = await upload({ bytes, name });
          assert.deepEqual([answer.status, answer.body.code], [status, code], label);
        }
        assert.deepEqual(await stored(), before);
      });

      test('a PNG named .jpg and declared image/jpeg is stored as the PNG it is', async () => {
        const answer = await upload({ bytes: await solid(300, 200).png().toBuffer(), name: 'liar.jpg', type: 'image/jpeg' });
        assert.equal(answer.status, 201);
        assert.equal(answer.body.mime_type, 'image/png');
        assert.match(answer.body.file, /^\d{4}\/\d{2}\/liar\.png$/);
        assert.equal((await served(answer.body.url)).headers['content-type'], 'image/png');
      });

      test('roles: upload, list and read for authors and above; others’ items only for editors and administrators', async () => {
        const expected: Array<[Caller, number]> = [['administrator', 201], ['editor', 201], ['author', 201], ['contributor', 403], ['subscriber', 403], ['visitor', 401]];
        const bytes = await jpeg(200, 200);
        for (const [as, status] of expected) {
          const answer = await upload({ bytes, as });
          assert.equal(answer.status, status, as);
          if (status !== 201) assert.equal(answer.body.code, 'rest_forbidden');
          const list = await t.request('GET', MEDIA, { as });
          assert.equal(list.status, status === 201 ? 200 : status, as);
        }
        const mine = await upload({ bytes, as: 'author', name: 'mine.jpg' });
        const update = (as: Caller) => t.request('POST', `${MEDIA}/${mine.body.id}`, { as, body: { alt_text: `by ${as}` } });
        const other = await t.app.inject({ method: 'POST', url: `${MEDIA}/${mine.body.id}`, headers: { authorization: t.authHeader(t.others.author), 'content-type': 'application/json' }, payload: '{"alt_text":"x"}' });
        assert.equal(other.statusCode, 403);
        assert.equal((await update('contributor')).status, 403);
        assert.equal((await update('visitor')).status, 401);
        assert.equal((await update('author')).body.alt_text, 'by author');
        assert.equal((await update('editor')).body.alt_text, 'by editor');
        assert.equal((await t.request('DELETE', `${MEDIA}/${mine.body.id}`, { as: 'contributor' })).status, 403);
        assert.equal((await t.request('DELETE', `${MEDIA}/${mine.body.id}`, { as: 'editor' })).status, 200);
        assert.equal((await t.request('GET', `${MEDIA}/${mine.body.id}`, { as: 'editor' })).body.code, 'rest_post_invalid_id');
        // The gate comes before the body: a visitor's oversized upload is refused as a visitor's.
        assert.equal((await upload({ bytes: Buffer.alloc(12 * 1024 * 1024), as: 'visitor' })).status, 401);
      });

      test('raw uploads: Content-Disposition forms, missing headers, Content-MD5, unique slugs', async () => {
        const bytes = await jpeg(450, 300);
        const headers = (disposition?: string, extra: Record<string, string> = {}) => ({
          authorization: t.authHeader(t.users.editor), 'content-type': 'image/jpeg', ...(disposition === undefined ? {} : { 'content-disposition': disposition }), ...extra,
        });
        const send = async (requestHeaders: Record<string, string>) => {
          const response = await t.app.inject({ method: 'POST', url: MEDIA, headers: requestHeaders, payload: bytes });
          return { status: response.statusCode, body: JSON.parse(response.body) };
        };
        assert.equal((await send(headers('attachment; filename=bare-name.jpg'))).body.slug, 'bare-name');
        assert.equal((await send(headers("attachment; filename*=UTF-8''caf%C3%A9%20night.jpg"))).body.title, 'café night');
        assert.equal((await send(headers())).body.code, 'rest_upload_no_content_disposition');
        assert.equal((await send(headers('attachment'))).body.code, 'rest_upload_invalid_disposition');
        const md5 = createHash('md5').update(bytes).digest('hex');
        assert.equal((await send(headers('attachment; filename="sum.jpg"', { 'content-md5': md5 }))).status, 201);
        const mismatch = await send(headers('attachment; filename="sum.jpg"', { 'content-md5': '0'.repeat(32) }));
        assert.deepEqual([mismatch.status, mismatch.body.code], [412, 'rest_upload_hash_mismatch']);
        // A size-suffix collision: photo-300x200.jpg first, then photo.jpg whose medium size would be that path.
        const first = await send(headers('attachment; filename="snap-300x200.jpg"'));
        assert.equal(first.body.file.endsWith('/snap-300x200.jpg'), true);
        const second = await send(headers('attachment; filename="snap.jpg"'));
        assert.equal(second.body.slug, 'snap-1');
        assert.equal(second.body.sizes.medium.url.endsWith('/snap-1-300x200.jpg'), true);
        // Deleted items keep their slug and paths reserved.
        const gone = await send(headers('attachment; filename="kept.jpg"'));
        await t.request('DELETE', `${MEDIA}/${gone.body.id}`, { as: 'editor' });
        assert.equal((await served(gone.body.url)).status, 404);
        assert.equal((await send(headers('attachment; filename="kept.jpg"'))).body.slug, 'kept-1');
        const long = await send(headers('attachment; filename="t.jpg"', {}));
        const titled = await t.request('POST', `${MEDIA}/${long.body.id}`, { as: 'editor', body: { title: 'x'.repeat(201) } });
        assert.equal(titled.body.code, 'rest_invalid_param');
      });

      test('limits: CALENDAR_UPLOAD_MAX_PIXELS exactly and one over', async () => {
        assert.equal((await upload({ bytes: await jpeg(2000, 2000) })).status, 201);
        const over = await upload({ bytes: await jpeg(2000, 2001) });
        assert.deepEqual([over.status, over.body.code], [413, 'rest_upload_image_too_large']);
      });

      test('serving: headers of §5.2, 304 on If-None-Match, 404 for other paths, 405 for writes', async () => {
        const answer = await upload({ bytes: await jpeg(), name: 'served.jpg', as: 'editor' });
        const file = await served(answer.body.url);
        const digest = createHash('sha256').update(file.bytes).digest('hex');
        assert.equal(file.headers.etag, `"${digest.slice(0, 32)}"`);
        assert.equal(file.headers['cache-control'], 'public, max-age=31536000, immutable');
        assert.equal(file.headers['x-content-type-options'], 'nosniff');
        assert.equal(file.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'");
        assert.equal(file.headers['cross-origin-resource-policy'], 'cross-origin');
        const path = new URL(answer.body.url).pathname;
        const signedIn = await t.app.inject({ method: 'GET', url: path, headers: { authorization: t.authHeader(t.users.editor) } });
        assert.equal(signedIn.headers['cache-control'], 'public, max-age=31536000, immutable');
        const again = await t.app.inject({ method: 'GET', url: path, headers: { 'if-none-match': file.headers.etag as string } });
        assert.equal(again.statusCode, 304);
        for (const bad of ['/uploads/../calendar.db', '/uploads/2026/11/%2e%2e.jpg', '/uploads/2026/11/x.svg', '/da' + path, path.replace('.jpg', '.png')]) {
          assert.equal((await t.app.inject({ method: 'GET', url: bad })).statusCode, 404, bad);
        }
        const write = await t.app.inject({ method: 'POST', url: path });
        assert.deepEqual([write.statusCode, write.headers.allow], [405, 'GET, HEAD']);
      });

      test('deleting an image in use unsets it on events, venues and organizers, and its files go', async () => {
        const answer = await upload({ bytes: await jpeg(), name: 'poster.jpg', as: 'editor' });
        const id = answer.body.id;
        const event = await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Jazz', start_date: '2030-01-01 20:00', end_date: '2030-01-01 22:00', image: id } });
        assert.equal(event.status, 201);
        assert.equal(event.body.image.sizes.medium.url, answer.body.sizes.medium.url);
        const venue = await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Hall', image: String(id) } });
        const organizer = await t.request('POST', `${NS}/organizers`, { as: 'editor', body: { organizer: 'Org', image: id } });
        const read = await t.request('GET', `${MEDIA}/${id}`, { as: 'editor' });
        assert.deepEqual(read.body.used_by, { events: [event.body.id], venues: [venue.body.id], organizers: [organizer.body.id] });
        const ics = await t.app.inject({ method: 'GET', url: `${NS}/events/${event.body.id}.ics` });
        assert.match(ics.body.replace(/\r\n /g, ''), new RegExp(`IMAGE;VALUE=URI;DISPLAY=BADGE;FMTTYPE=image/jpeg:${answer.body.sizes.thumbnail.url}`));
        const deleted = await t.request('DELETE', `${MEDIA}/${id}`, { as: 'editor' });
        assert.equal(deleted.body.deleted, true);
        assert.equal((await t.request('GET', `${NS}/events/${event.body.id}`, { as: 'editor' })).body.image, false);
        assert.equal((await t.request('GET', `${NS}/venues/${venue.body.id}`, { as: 'editor' })).body.image, undefined);
        assert.equal((await t.request('GET', `${NS}/organizers/${organizer.body.id}`, { as: 'editor' })).body.image, undefined);
        const modified = (await t.request('GET', `${NS}/events/${event.body.id}`, { as: 'editor' })).headers.etag;
        assert.notEqual(modified, event.headers.etag);
        for (const url of [answer.body.url, ...Object.values<any>(answer.body.sizes).map((size) => size.url)]) assert.equal((await served(url)).status, 404);
      });

      test('pages: srcset, sizes, width and height on the single page; the medium size, lazily, in lists', async () => {
        const answer = await upload({ bytes: await jpeg(2400, 1600), name: 'stage.jpg', as: 'editor' });
        const sizes = answer.body.sizes;
        const event = await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Stage night', start_date: '2031-03-01 20:00', end_date: '2031-03-01 22:00', image: answer.body.id } });
        const page = await t.app.inject({ method: 'GET', url: new URL(event.body.url).pathname });
        const img = /<img [^>]*>/.exec(page.body)?.[0] ?? '';
        assert.match(img, new RegExp(`src="${sizes.large.url}"`));
        assert.match(img, / width="1024" height="683"/);
        assert.match(img, /sizes="\(max-width: 1024px\) 100vw, 1024px"/);
        assert.match(img, /alt="Stage night"/);
        assert.doesNotMatch(img, /loading=/);
        const srcset = /srcset="([^"]*)"/.exec(img)![1].split(', ');
        // The thumbnail (square) has another ratio; the full 2400 is over the srcset width limit.
        assert.deepEqual(srcset, [sizes.medium, sizes.large, sizes.medium_large, sizes['1536x1536'], sizes['2048x2048']].map((size) => `${size.url} ${size.width}w`));
        const list = await t.app.inject({ method: 'GET', url: '/events/list/?tribe-bar-date=2031-03-01' });
        const summary = new RegExp(`<img [^>]*src="${sizes.medium.url}"[^>]*>`).exec(list.body)?.[0] ?? '';
        assert.match(summary, /loading="lazy"/);
        // An empty alt (decoration) is written as the bare attribute.
        assert.match(summary, / alt(="")? /);
        assert.match(summary, / width="300" height="200"/);
      });

      test('wp/v2: users/me, a multipart upload, then an event with the image through the drop-in namespace', async () => {
        const me = await t.request('GET', '/wp/v2/users/me', { as: 'author' });
        assert.deepEqual(Object.keys(me.body), ['id', 'name', 'url', 'description', 'slug']);
        assert.equal((await t.request('GET', '/wp/v2/users/me')).body.code, 'rest_not_logged_in');
        const edit = await t.request('GET', '/wp/v2/users/me?context=edit', { as: 'author' });
        assert.deepEqual(Object.keys(edit.body), ['id', 'name', 'url', 'description', 'slug', 'username', 'email', 'roles', 'capabilities']);
        assert.equal(edit.body.capabilities.upload_files, true);
        const form = await multipart({ file: { bytes: await jpeg(1600, 1200), name: 'Poster Final.JPG', type: 'image/jpeg' }, alt_text: 'The poster', caption: 'ignored' });
        const response = await t.app.inject({ method: 'POST', url: '/wp/v2/media', headers: { authorization: t.authHeader(t.users.author), 'content-type': form.contentType }, payload: form.body });
        assert.equal(response.statusCode, 201);
        const attachment = JSON.parse(response.body);
        assert.equal(response.headers['x-wp-upload-attachment-id'], String(attachment.id));
        assert.deepEqual(Object.keys(attachment), ['id', 'author', 'date', 'date_gmt', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'alt_text', 'media_type', 'mime_type', 'media_details', 'post', 'source_url']);
        assert.deepEqual([attachment.alt_text, attachment.title.raw, attachment.media_details.sizes.full.width], ['The poster', 'Poster Final', 1600]);
        const refused = await t.app.inject({ method: 'POST', url: '/wp/v2/media', headers: { authorization: t.authHeader(t.users.contributor), 'content-type': form.contentType }, payload: form.body });
        assert.equal(JSON.parse(refused.body).code, 'rest_cannot_create');
        assert.equal((await t.request('GET', `/wp/v2/media/${attachment.id}?context=edit`)).body.code, 'rest_forbidden_context');
        assert.equal((await t.request('GET', `/wp/v2/media/${attachment.id}`)).body.title.raw, undefined);
        const event = await t.request('POST', '/tribe/events/v1/events', { as: 'author', body: { title: 'Show', start_date: '2030-02-01 20:00', end_date: '2030-02-01 22:00', image: attachment.id } });
        assert.equal(event.body.image.sizes.large.width, 1024);
        assert.equal(event.body.image.sizes.large.url, attachment.media_details.sizes.large.source_url);
      });
    });
  }
}

for (const dialect of DIALECTS) {
  describe(`media upload byte limit [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let directory: string;
    before(async () => {
      directory = mkdtempSync(join(tmpdir(), 'calendar-uploads-'));
      t = await startTestApp(dialect, { env: { CALENDAR_UPLOADS_DIR: directory, CALENDAR_UPLOAD_MAX_BYTES: '4096' } });
    });
    after(async () => {
      await t.close();
      rmSync(directory, { recursive: true, force: true });
    });

    test('CALENDAR_UPLOAD_MAX_BYTES exactly is accepted, one byte over is 413, raw or multipart', async () => {
      const image = await jpeg(64, 64);
      // Zero bytes after EOI pad the file to the size wanted; they hold no markup.
      const sized = (length: number) => Buffer.concat([image, Buffer.alloc(length - image.length)]);
      const raw = async (bytes: Buffer) => (await t.app.inject({
        method: 'POST', url: MEDIA, payload: bytes,
        headers: { authorization: t.authHeader(t.users.editor), 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="x.jpg"' },
      }));
      assert.equal((await raw(sized(4096))).statusCode, 201);
      const over = await raw(sized(4097));
      assert.deepEqual([over.statusCode, JSON.parse(over.body).code], [413, 'rest_upload_file_too_big']);
      const form = await multipart({ file: { bytes: sized(4097), name: 'x.jpg', type: 'image/jpeg' } });
      const multipartOver = await t.app.inject({ method: 'POST', url: MEDIA, payload: form.body, headers: { authorization: t.authHeader(t.users.editor), 'content-type': form.contentType } });
      assert.deepEqual([multipartOver.statusCode, JSON.parse(multipartOver.body).code], [413, 'rest_upload_file_too_big']);
      const huge = await t.app.inject({ method: 'POST', url: MEDIA, payload: Buffer.alloc(200_000), headers: { authorization: t.authHeader(t.users.editor), 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="x.jpg"' } });
      assert.equal(huge.statusCode, 413);
      assert.equal(Number((await t.storage.db.selectFrom('media').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n), 1);
    });
  });
}

describe('media uploads across two instances [postgres, database]', { skip: skipReason('postgres') }, () => {
  let first: TestApp;
  let second: TestApp;
  before(async () => {
    first = await startTestApp('postgres', { env: { CALENDAR_UPLOADS: 'database' } });
    second = await startTestApp('postgres', { env: { CALENDAR_UPLOADS: 'database' }, sharing: first });
  });
  after(async () => {
    await second.close();
    await first.close();
  });

  test('uploaded through one, served and deleted through the other', async () => {
    const bytes = await jpeg();
    const response = await first.app.inject({
      method: 'POST', url: MEDIA, payload: bytes,
      headers: { authorization: first.authHeader(first.users.editor), 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="shared.jpg"' },
    });
    const item = JSON.parse(response.body);
    const path = new URL(item.sizes.medium.url).pathname;
    const fromFirst = await first.app.inject({ method: 'GET', url: path });
    const fromSecond = await second.app.inject({ method: 'GET', url: path });
    assert.equal(fromSecond.statusCode, 200);
    assert.deepEqual(fromSecond.rawPayload, fromFirst.rawPayload);
    assert.equal((await second.request('DELETE', `${MEDIA}/${item.id}`, { as: 'editor' })).status, 200);
    assert.equal((await first.app.inject({ method: 'GET', url: path })).statusCode, 404);
  });
});
