import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent, before any decoding. */
  bytes: Buffer;
}

/** A GET over the socket with node:http, which (unlike fetch) neither asks for nor decodes a coding. */
function get(t: TestApp, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  const { port } = t.app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, bytes: Buffer.concat(chunks) }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

function decoded(answer: Raw): Buffer {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.bytes);
  if (coding === 'gzip') return gunzipSync(answer.bytes);
  assert.equal(coding, undefined);
  return answer.bytes;
}

function varyNames(answer: Raw): string[] {
  return String(answer.headers.vary ?? '').split(',').map((name) => name.trim().toLowerCase());
}

/**
 * 80 §1.4: text answers (pages, JSON, feeds) go out compressed when the client accepts brotli or
 * gzip, with `Vary: Accept-Encoding`, whether the framework wrote them or they were replayed from
 * a recording (which keeps the body as it is, so that a client accepting no coding still reads it).
 */
for (const dialect of DIALECTS) {
  describe(`compressed answers [${dialect}]`, { skip: skipReason(dialect) }, () => {
    const now = new Date('2025-04-01T10:00:00.000Z');
    const month = '/events/2025-04/';
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock: () => now, overHttp: true });
      const description = 'A long evening of music and conversation. '.repeat(12);
      for (let day = 1; day <= 8; day++) {
        const date = `2025-04-${String(day).padStart(2, '0')}`;
        const created = await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: `Compressed evening ${day}`, status: 'publish', start_date: `${date} 19:00:00`, end_date: `${date} 21:00:00`, description } });
        assert.equal(created.status, 201, created.text);
      }
    });
    after(() => t?.close());

    for (const path of [month, `${NS}/events`, `${NS}/events.ics`]) {
      test(`${path}: brotli or gzip as accepted, the same bytes decoded, Vary names Accept-Encoding`, async () => {
        const plain = await get(t, path);
        assert.equal(plain.status, 200);
        assert.equal(plain.headers['content-encoding'], undefined);
        assert.ok(plain.bytes.length > 2000, `${plain.bytes.length} bytes`);
        assert.ok(varyNames(plain).includes('accept-encoding'), String(plain.headers.vary));
        for (const [accepted, coding] of [['br', 'br'], ['gzip', 'gzip'], ['gzip, deflate, br', 'br'], ['br;q=0.5, gzip', 'gzip'], ['identity', undefined], ['br;q=0, gzip;q=0', undefined], ['deflate', undefined], ['br;q=0, *', 'gzip'], ['br;q=0, gzip;q=0.0, *', undefined], ['GZIP', 'gzip']] as const) {
          const answer = await get(t, path, { 'accept-encoding': accepted });
          assert.equal(answer.status, 200);
          assert.equal(answer.headers['content-encoding'], coding, accepted);
          assert.equal(Number(answer.headers['content-length']), answer.bytes.length, accepted);
          assert.ok(decoded(answer).equals(plain.bytes), `${accepted}: the decoded body is the plain one`);
          assert.ok(varyNames(answer).includes('accept-encoding'), accepted);
          if (coding !== undefined) assert.ok(answer.bytes.length < plain.bytes.length / 3, `${accepted}: ${answer.bytes.length} of ${plain.bytes.length} bytes`);
        }
      });
    }

    test('a replayed answer is compressed for those who accept it and plain for those who do not, whichever came first', async () => {
      // Unauthenticated, plain GETs in the same second: after the first, the replay answers without a query.
      for (const order of [['br', '', 'gzip', 'br'], ['', 'gzip', '', 'br']]) {
        const path = `${NS}/events?per_page=${order[0] === '' ? 7 : 6}`;
        const answers: Raw[] = [];
        let queries = 0;
        for (const [index, accepted] of order.entries()) {
          const before = await t.queryCount();
          answers.push(await get(t, path, accepted === '' ? {} : { 'accept-encoding': accepted }));
          if (index > 0) queries += (await t.queryCount()) - before;
        }
        assert.equal(queries, 0, 'the repeats were replayed');
        const plain = decoded(answers[0]);
        for (const [index, answer] of answers.entries()) {
          assert.equal(answer.headers['content-encoding'], order[index] === '' ? undefined : order[index], `${order.join('|')} #${index}`);
          assert.ok(decoded(answer).equals(plain), `${order.join('|')} #${index}`);
          assert.ok(varyNames(answer).includes('accept-encoding'));
          assert.equal(Number(answer.headers['content-length']), answer.bytes.length);
        }
      }
    });

    test('a request carrying a back office cookie gets its answers plain (BREACH); other cookies change nothing', async () => {
      for (const path of [month, `${NS}/events`, '/admin/login']) {
        for (const cookie of ['cal_session=abc', 'theme=dark; cal_login=xyz']) {
          // Twice: the first from the framework, the second (for the public answers) from the replay.
          for (let round = 0; round < 2; round++) {
            const answer = await get(t, path, { 'accept-encoding': 'gzip, deflate, br', cookie });
            assert.equal(answer.status, 200, `${path} ${cookie}`);
            assert.equal(answer.headers['content-encoding'], undefined, `${path} ${cookie} #${round}`);
            assert.equal(Number(answer.headers['content-length']), answer.bytes.length);
          }
        }
        const other = await get(t, path, { 'accept-encoding': 'br', cookie: 'theme=dark' });
        assert.equal(other.headers['content-encoding'], 'br', path);
      }
    });

    test('a small answer goes plain; the ETag of a compressed answer revalidates, and its 304 names Accept-Encoding in Vary', async () => {
      const tags = await get(t, `${NS}/tags`, { 'accept-encoding': 'br' });
      assert.equal(tags.status, 200);
      assert.ok(tags.bytes.length < 1024, `${tags.bytes.length} bytes`);
      assert.equal(tags.headers['content-encoding'], undefined);
      const list = await get(t, `${NS}/events`, { 'accept-encoding': 'br' });
      assert.equal(list.headers['content-encoding'], 'br');
      const etag = String(list.headers.etag);
      const revalidated = await get(t, `${NS}/events`, { 'accept-encoding': 'br', 'if-none-match': etag });
      assert.equal(revalidated.status, 304);
      assert.equal(revalidated.bytes.length, 0);
      assert.ok(varyNames(revalidated).includes('accept-encoding'), 'a 304 varies as its 200 (RFC 9110 §15.4.5)');
    });
  });
}
