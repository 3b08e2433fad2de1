import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { dateDetails, formatWall, ZERO_DATETIME } from '../../../src/domain/dates/datetime-format.ts';

describe('formatWall', () => {
  it('writes a Date in UTC, zero-padded, without T, offset or milliseconds', () => {
    assert.equal(formatWall(new Date('2025-04-02T03:04:05.678Z')), '2025-04-02 03:04:05');
  });

  it('writes a DateTime in its own zone', () => {
    const rome = DateTime.fromISO('2025-04-12T17:30:00Z').setZone('Europe/Rome');
    assert.equal(formatWall(rome), '2025-04-12 19:30:00');
  });

  it('pads years below 1000', () => {
    assert.equal(formatWall(new Date('0099-01-01T00:00:00Z')), '0099-01-01 00:00:00');
  });

  it('refuses invalid values', () => {
    assert.throws(() => formatWall(new Date('nope')), RangeError);
    assert.throws(() => formatWall(DateTime.invalid('test')), RangeError);
  });
});

describe('dateDetails', () => {
  it('splits a datetime string into six zero-padded strings', () => {
    assert.deepEqual(dateDetails('2025-04-12 19:30:00'), {
      year: '2025', month: '04', day: '12', hour: '19', minutes: '30', seconds: '00',
    });
    assert.deepEqual(dateDetails('2025-03-09 07:05:01'), {
      year: '2025', month: '03', day: '09', hour: '07', minutes: '05', seconds: '01',
    });
  });

  it('splits the zero date too', () => {
    assert.equal(ZERO_DATETIME, '0000-00-00 00:00:00');
    assert.deepEqual(dateDetails(ZERO_DATETIME), {
      year: '0000', month: '00', day: '00', hour: '00', minutes: '00', seconds: '00',
    });
  });

  it('refuses anything that is not a datetime string', () => {
    assert.throws(() => dateDetails('2025-04-12T19:30:00'), RangeError);
    assert.throws(() => dateDetails('2025-04-12'), RangeError);
  });
});
