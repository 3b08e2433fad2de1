import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import { startDailyJob } from '../../../src/services/daily-job.ts';

// The daily purges (100 §4 sessions, 120 submissions and mail) run a minute after start, then every 24 hours.
describe('startDailyJob', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'setInterval'] }));
  afterEach(() => mock.timers.reset());

  test('first run after a minute, then once a day; a failure is reported and the next day runs again; stop ends it', async () => {
    let runs = 0;
    const errors: unknown[] = [];
    const stop = startDailyJob(async () => {
      runs++;
      if (runs === 2) throw new Error('database away');
    }, (error) => errors.push(error));
    mock.timers.tick(59_999);
    assert.equal(runs, 0);
    mock.timers.tick(1);
    assert.equal(runs, 1);
    mock.timers.tick(24 * 3600_000);
    assert.equal(runs, 2);
    await Promise.resolve();
    assert.equal((errors[0] as Error)?.message, 'database away');
    mock.timers.tick(24 * 3600_000);
    assert.equal(runs, 3);
    stop();
    mock.timers.tick(48 * 3600_000);
    assert.equal(runs, 3);
  });
});
