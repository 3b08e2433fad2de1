import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Sends bytes as they are (no HTTP client would send most of these) and reads until the server closes. */
function rawExchange(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      try {
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n\r\n')) });
      } catch {
        reject(new Error(`not a JSON response: ${JSON.stringify(text.slice(0, 300))}`));
      }
    });
    socket.write(request);
  });
}

function assertErrorShape(response: RawResponse, status: number, code: string): void {
  assert.equal(response.status, status);
  assert.match(response.headers['content-type'] ?? '', /^application\/json/);
  assert.equal(response.body.code, code);
  assert.equal(typeof response.body.message, 'string');
  assert.ok(response.body.message.length > 0);
  assert.deepEqual(response.body.data, { status });
}

/**
 * Requests that node's HTTP parser or its timers reject before Fastify's router runs. They never
 * reach the database, so SQLite is enough.
 */
describe('errors below the router, over raw sockets', () => {
  let t: TestApp;
  let port: number;

  before(async () => {
    t = await startTestApp('sqlite', { env: { CALENDAR_REQUEST_TIMEOUT: '1000' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  test('headers larger than the parser accepts: 431 rest_headers_too_large', async () => {
    const response = await rawExchange(port, `GET ${NS} HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    assertErrorShape(response, 431, 'rest_headers_too_large');
    assert.match(response.body.message, /headers/);
  });

  test('a request line too large answers in the edition of its path: Danish under /da', async () => {
    const response = await rawExchange(port, `GET /da${NS}/events?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assertErrorShape(response, 431, 'rest_headers_too_large');
    assert.match(response.body.message, /Anmodningslinjen/);
  });

  test('a malformed request line or header: 400 rest_bad_request', async () => {
    assertErrorShape(await rawExchange(port, `GET ${NS} HTTP/1.1 trailing-garbage\r\nHost: x\r\n\r\n`), 400, 'rest_bad_request');
    assertErrorShape(await rawExchange(port, `GET ${NS} HTTP/7.3\r\nHost: x\r\n\r\n`), 400, 'rest_bad_request');
    assertErrorShape(await rawExchange(port, `GET ${NS} HTTP/1.1\r\nHost x\r\n\r\n`), 400, 'rest_bad_request');
  });

  test('a method the parser does not know: 501 rest_method_not_supported', async () => {
    assertErrorShape(await rawExchange(port, `BREW ${NS} HTTP/1.1\r\nHost: x\r\n\r\n`), 501, 'rest_method_not_supported');
  });

  test('CONNECT (a tunnel) is refused in the error shape instead of a silent close', async () => {
    assertErrorShape(await rawExchange(port, 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n'), 501, 'rest_method_not_supported');
  });

  test('a known method no route serves is rest_no_route, as in the reference', async () => {
    const response = await rawExchange(port, `PROPFIND ${NS}/events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.equal(response.status, 404);
    assert.equal(response.body.code, 'rest_no_route');
  });

  test('a client that never finishes its headers: 408 rest_request_timeout', async () => {
    const response = await rawExchange(port, `GET ${NS} HTTP/1.1\r\nHost: x\r\n`);
    assertErrorShape(response, 408, 'rest_request_timeout');
  });
});
