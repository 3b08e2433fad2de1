import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessingQueue } from '../../../src/services/media/processing-queue.ts';

test('at most `concurrency` run at once, the rest wait in order, 4 × concurrency waiting turns the next away', async () => {
  const queue = new ProcessingQueue(2);
  let running = 0;
  let most = 0;
  const order: number[] = [];
  const job = (n: number) => queue.run(async () => {
    running++;
    most = Math.max(most, running);
    await sleep(5);
    order.push(n);
    running--;
    return n;
  });
  const jobs = Array.from({ length: 10 }, (_, n) => job(n));
  await assert.rejects(job(10), (error: { status: number; code: string; headers: Record<string, string> }) =>
    error.status === 503 && error.code === 'rest_upload_busy' && error.headers['Retry-After'] === '5');
  assert.deepEqual(await Promise.all(jobs), [...Array(10).keys()]);
  assert.equal(most, 2);
  assert.equal(queue.peak, 2);
  assert.deepEqual(order.slice(2), [2, 3, 4, 5, 6, 7, 8, 9]);
});

test('a waiting upload whose client left leaves the queue', async () => {
  const queue = new ProcessingQueue(1);
  let release!: () => void;
  const first = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
  const leaving = new AbortController();
  const ran: string[] = [];
  const gone = queue.run(async () => void ran.push('gone'), leaving.signal);
  const stays = queue.run(async () => void ran.push('stays'));
  leaving.abort();
  await assert.rejects(gone);
  release();
  await first;
  await stays;
  assert.deepEqual(ran, ['stays']);
});
