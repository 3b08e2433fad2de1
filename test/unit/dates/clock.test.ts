import { it } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../../src/domain/dates/clock.ts';

it('systemClock reads the real time', () => {
  const before = Date.now();
  const now = systemClock().getTime();
  assert.ok(now >= before && now <= Date.now());
});
