import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AnswerReplay, markReplayable } from '../../../src/http/replay/answer-replay.ts';
import { openStorage, type Storage } from '../../../src/storage/database.ts';

const NOW = new Date('2026-01-01T00:00:00Z');
const MAX_BYTES = 50_000;
/** Three answers of 15,000 bytes fit in the bound; their compressed copies do not. */
const BODY_BYTES = 15_000;

let dir: string;
let storage: Storage;
let server: Server;
let framework = 0;

/** Words that compress to about half, so that copies in two codings pass the bound. */
function body(path: string): Buffer {
  let text = '';
  for (let i = 0; text.length < BODY_BYTES; i++) text += `${path}:${(i * 7919) % 10007} `;
  return Buffer.from(JSON.stringify(text.slice(0, BODY_BYTES - 2)));
}

function get(path: string, headers: Record<string, string> = {}): Promise<string | undefined> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.headers['content-encoding']));
    }).on('error', reject).end();
  });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'replay-bytes-'));
  storage = await openStorage(`sqlite:${join(dir, 'replay.db')}`);
  const replay = new AnswerReplay(storage.epochs, () => NOW, { maxBytes: MAX_BYTES });
  // The framework's part: each answer marked replayable and recorded as it leaves, as the app's hooks do.
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    framework++;
    markReplayable(req, NOW);
    const bytes = body(req.url ?? '/');
    const headers = { 'content-type': 'application/json; charset=utf-8' };
    replay.record(req, 200, headers, bytes);
    res.writeHead(200, headers);
    res.end(bytes);
  };
  server = createServer((req, res) => replay.handle(req, res, answer));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the replay's compressed copies count in its bytes: past the bound, the oldest recording goes at once", async () => {
  for (const path of ['/a', '/b', '/c']) await get(path);
  assert.equal(framework, 3);
  for (const path of ['/a', '/b', '/c']) assert.equal(await get(path), undefined);
  assert.equal(framework, 3, 'all three replayed: they fit');
  for (const path of ['/b', '/c']) {
    assert.equal(await get(path, { 'accept-encoding': 'br' }), 'br');
    assert.equal(await get(path, { 'accept-encoding': 'gzip' }), 'gzip');
  }
  assert.equal(framework, 3, 'the compressed answers were replays');
  await get('/a');
  assert.equal(framework, 4, '/a, the oldest, was forgotten when the copies passed the bound');
  await get('/c');
  assert.equal(framework, 4, '/c, the newest, is still replayed');
});
