import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Coalescer, type Settled } from '../../../src/services/coalescer.ts';

/** A coalescer whose groups take `groupMs` and are recorded as the items they held. */
function recording(patienceMs: number, groupMs = 5, maxPatienceMs = patienceMs) {
  const groups: string[][] = [];
  const coalescer = new Coalescer<string, string>(
    async (items) => {
      groups.push([...items]);
      await sleep(groupMs);
      return items.map((item): Settled<string> => ({ ok: true, value: item.toUpperCase() }));
    },
    { maxItems: 64, concurrency: 1, patienceMs, maxPatienceMs },
  );
  return { coalescer, groups };
}

describe('coalescer', () => {
  test('items submitted together form one group and each gets its own result', async () => {
    const { coalescer, groups } = recording(50);
    assert.deepEqual(await Promise.all(['a', 'b', 'c'].map((item) => coalescer.submit(item))), ['A', 'B', 'C']);
    assert.deepEqual(groups, [['a', 'b', 'c']]);
  });

  test('the next group waits for the sources the last one answered, so clients sending back to back stay one group', async () => {
    const { coalescer, groups } = recording(200);
    const one = {};
    const two = {};
    const first = [coalescer.submit('a', one), coalescer.submit('b', two)];
    await first[0];
    // `one` is answered and sends again at once; `two` takes 20 ms, well within the patience.
    const again = coalescer.submit('c', one);
    await sleep(20);
    const late = coalescer.submit('d', two);
    assert.deepEqual(await Promise.all([...first, again, late]), ['A', 'B', 'C', 'D']);
    assert.deepEqual(groups, [['a', 'b'], ['c', 'd']]);
  });

  test('a source that does not come back holds the next group for the patience only', async () => {
    const { coalescer, groups } = recording(30);
    const one = {};
    await Promise.all([coalescer.submit('a', one), coalescer.submit('b', {})]);
    const began = performance.now();
    assert.equal(await coalescer.submit('c', one), 'C');
    const waited = performance.now() - began;
    assert.deepEqual(groups, [['a', 'b'], ['c']]);
    assert.ok(waited >= 25 && waited < 1000, `waited ${waited} ms`);
  });

  test('the patience grows to how long the sources take to come back, within its bounds', async () => {
    // At least 5 ms, at most 200: `two` comes back 25 ms after each answer, `one` at once.
    const { coalescer, groups } = recording(5, 5, 200);
    const one = {};
    const two = {};
    const round = (n: number) => Promise.all([
      coalescer.submit(`one ${n}`, one),
      (async () => {
        if (n > 0) await sleep(25);
        return coalescer.submit(`two ${n}`, two);
      })(),
    ]);
    for (let n = 0; n < 12; n++) await round(n);
    // The first rounds split (5 ms is too short for `two`); once measured, they stay together.
    assert.ok(groups.slice(0, 4).some((group) => group.length === 1), JSON.stringify(groups));
    assert.deepEqual(groups.slice(-3).map((group) => group.length), [2, 2, 2], JSON.stringify(groups));
  });

  test('a source away longer than the longest patience does not lengthen it', async () => {
    const { coalescer, groups } = recording(10, 5, 400);
    const one = {};
    const two = {};
    for (let n = 0; n < 4; n++) {
      await Promise.all([coalescer.submit(`one ${n}`, one), coalescer.submit(`two ${n}`, two)]);
      await sleep(500);
    }
    // Now `one` comes back at once and `two` does not: the group goes after the shortest patience
    // (10 ms, and 5 ms of work), not the longest (400).
    const began = performance.now();
    assert.equal(await coalescer.submit('one again', one), 'ONE AGAIN');
    const took = performance.now() - began;
    assert.ok(took >= 10 && took < 250, `took ${took} ms`);
    assert.deepEqual(groups.at(-1), ['one again']);
  });

  test('items without a source never wait for anyone', async () => {
    const { coalescer, groups } = recording(10_000);
    await Promise.all([coalescer.submit('a'), coalescer.submit('b')]);
    const began = performance.now();
    assert.equal(await coalescer.submit('c'), 'C');
    assert.ok(performance.now() - began < 1000);
    assert.deepEqual(groups, [['a', 'b'], ['c']]);
  });
});
