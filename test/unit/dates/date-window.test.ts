import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { computeDateWindow, isTruthyStrict, type DateWindowInput } from '../../../src/domain/dates/date-window.ts';

// Wednesday 9 April 2025, 15:30:45 UTC (Rome +02:00, New York -04:00).
const NOW = new Date('2025-04-09T15:30:45Z');

function window(input: Partial<DateWindowInput>, zone = 'UTC', now = NOW) {
  return computeDateWindow({ hasInclude: false, ...input }, zone, now);
}

describe('isTruthyStrict', () => {
  it('is true for 1, true, on, yes in any case', () => {
    for (const value of ['1', 'true', 'TRUE', 'On', 'yes', 'YES']) assert.equal(isTruthyStrict(value), true, value);
  });

  it('is false for anything else', () => {
    for (const value of ['false', 'no', 'off', 'abc', '0', '', ' true', true, 1]) {
      assert.equal(isTruthyStrict(value), false, JSON.stringify(value));
    }
  });
});

describe('date window defaults, inclusive mode', () => {
  it('starts at yesterday (UTC date) and ends 24 months ahead, in UTC', () => {
    assert.deepEqual(window({}), {
      strict: false,
      bounds: { start_date: '2025-04-08 00:00:00', end_date: '2027-04-09 23:59:59' },
    });
  });

  it('starts today for a site zone east of UTC', () => {
    // yesterday 23:59 UTC is 01:59 on the 9th in Rome.
    assert.deepEqual(window({}, 'Europe/Rome'), {
      strict: false,
      bounds: { start_date: '2025-04-09 00:00:00', end_date: '2027-04-09 23:59:59' },
    });
  });

  it('starts yesterday for a site zone west of UTC', () => {
    assert.deepEqual(window({}, 'America/New_York'), {
      strict: false,
      bounds: { start_date: '2025-04-08 00:00:00', end_date: '2027-04-09 23:59:59' },
    });
  });

  it('takes the end date from UTC now, without converting it to the site zone', () => {
    // 23:30 UTC on 9 April is already the 10th in Rome; the default end stays on the 9th.
    const late = window({}, 'Europe/Rome', new Date('2025-04-09T23:30:00Z'));
    assert.equal('bounds' in late && late.bounds.end_date, '2027-04-09 23:59:59');
  });

  it('rolls 29 February + 24 months over to 1 March', () => {
    assert.deepEqual(window({}, 'UTC', new Date('2024-02-29T10:00:00Z')), {
      strict: false,
      bounds: { start_date: '2024-02-28 00:00:00', end_date: '2026-03-01 23:59:59' },
    });
  });
});

describe('date window defaults, strict mode', () => {
  it('uses the exact times in UTC', () => {
    assert.deepEqual(window({ strict_dates: 'true' }), {
      strict: true,
      bounds: { start_date: '2025-04-08 23:59:00', end_date: '2027-04-09 15:30:45' },
    });
  });

  it('converts the start default to the site zone twice (reference quirk)', () => {
    // 2025-04-08 23:59 UTC → 2025-04-09 01:59 Rome → read as UTC again → 03:59.
    assert.deepEqual(window({ strict_dates: 'yes' }, 'Europe/Rome'), {
      strict: true,
      bounds: { start_date: '2025-04-09 03:59:00', end_date: '2027-04-09 17:30:45' },
    });
  });

  it('converts twice west of UTC as well', () => {
    // 2025-04-08 23:59 UTC → 19:59 New York → read as UTC again → 15:59.
    const result = window({ strict_dates: '1' }, 'America/New_York');
    assert.equal('bounds' in result && result.bounds.start_date, '2025-04-08 15:59:00');
  });
});

describe('explicit bounds, inclusive mode', () => {
  it('rounds start_date down and every other bound up to the whole day', () => {
    assert.deepEqual(
      window({
        start_date: '2025-04-12 19:30', end_date: '2025-04-20 08:00',
        starts_before: '2025-04-13', starts_after: '2025-04-11 10:00',
        ends_before: '2025-04-21', ends_after: '2025-04-12',
      }),
      {
        strict: false,
        bounds: {
          start_date: '2025-04-12 00:00:00', end_date: '2025-04-20 23:59:59',
          starts_before: '2025-04-13 23:59:59', starts_after: '2025-04-11 23:59:59',
          ends_before: '2025-04-21 23:59:59', ends_after: '2025-04-12 23:59:59',
        },
      },
    );
  });

  it('takes the calendar date in UTC when an offset is written, whatever the site zone', () => {
    const result = window({ start_date: '2025-04-12T23:30:00-05:00', end_date: '2025-04-13T01:00:00+02:00' }, 'Europe/Rome');
    assert.deepEqual(result, {
      strict: false,
      bounds: { start_date: '2025-04-13 00:00:00', end_date: '2025-04-12 23:59:59' },
    });
  });

  it('takes the UTC date of a timestamp', () => {
    // 1744500000 = 2025-04-12 23:20 UTC, already the 13th in Rome.
    const result = window({ start_date: 1744500000 }, 'Europe/Rome');
    assert.equal('bounds' in result && result.bounds.start_date, '2025-04-12 00:00:00');
  });

  it('evaluates relative words in UTC', () => {
    const result = window({ end_date: 'tomorrow' }, 'Europe/Rome', new Date('2025-04-09T23:30:00Z'));
    assert.equal('bounds' in result && result.bounds.end_date, '2025-04-10 23:59:59');
  });
});

describe('explicit bounds, strict mode', () => {
  it('reads a value without offset as UTC and converts it to the site zone', () => {
    assert.deepEqual(window({ strict_dates: 'on', start_date: '2025-04-12 10:00', end_date: '2025-01-12 10:00' }, 'Europe/Rome'), {
      strict: true,
      bounds: { start_date: '2025-04-12 12:00:00', end_date: '2025-01-12 11:00:00' },
    });
  });

  it('honours an offset and converts the instant to the site zone', () => {
    const result = window({ strict_dates: 'true', starts_after: '2025-04-12T10:00:00+02:00' }, 'Europe/Rome');
    assert.deepEqual(result, { strict: true, bounds: { starts_after: '2025-04-12 10:00:00' } });
  });

  it('keeps the full time in UTC', () => {
    const result = window({ strict_dates: 'TRUE', start_date: '2025-04-12 10:15:30' });
    assert.equal('bounds' in result && result.bounds.start_date, '2025-04-12 10:15:30');
  });

  it('treats other non-empty strict_dates values as inclusive', () => {
    for (const strict_dates of ['false', 'no', 'off', 'abc']) {
      const result = window({ strict_dates, start_date: '2025-04-12 10:15:30' });
      assert.deepEqual(result, { strict: false, bounds: { start_date: '2025-04-12 00:00:00', end_date: '2027-04-09 23:59:59' } });
    }
  });
});

describe('starts_* / ends_* suppress absent start_date and end_date', () => {
  it('drops both defaults when one of them is given', () => {
    for (const param of ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const) {
      const result = window({ [param]: '2025-04-12' });
      assert.deepEqual(result, { strict: false, bounds: { [param]: '2025-04-12 23:59:59' } }, param);
    }
  });

  it('keeps an explicitly given start_date or end_date', () => {
    assert.deepEqual(window({ starts_after: '2025-04-12', start_date: '2025-04-01' }), {
      strict: false,
      bounds: { starts_after: '2025-04-12 23:59:59', start_date: '2025-04-01 00:00:00' },
    });
  });
});

describe('with include', () => {
  it('replaces given start/end values by the raw defaults, unrounded', () => {
    assert.deepEqual(window({ hasInclude: true, start_date: '2020-01-01', end_date: '2030-01-01' }, 'Europe/Rome'), {
      strict: false,
      bounds: { start_date: '2025-04-09 01:59:00', end_date: '2027-04-09 15:30:45' },
    });
  });

  it('uses the raw defaults when start/end are absent, in strict mode too', () => {
    assert.deepEqual(window({ hasInclude: true, strict_dates: 'true' }, 'Europe/Rome'), {
      strict: true,
      bounds: { start_date: '2025-04-09 01:59:00', end_date: '2027-04-09 15:30:45' },
    });
  });

  it('still drops absent start/end when a starts_*/ends_* bound is given', () => {
    assert.deepEqual(window({ hasInclude: true, ends_after: '2025-04-12' }), {
      strict: false,
      bounds: { ends_after: '2025-04-12 23:59:59' },
    });
    assert.deepEqual(window({ hasInclude: true, ends_after: '2025-04-12', start_date: '2020-01-01' }), {
      strict: false,
      bounds: { ends_after: '2025-04-12 23:59:59', start_date: '2025-04-08 23:59:00' },
    });
  });

  it('still rejects an unparseable start_date', () => {
    assert.deepEqual(window({ hasInclude: true, start_date: 'foo' }), { error: 'start_date', params: ['start_date'] });
  });
});

describe('invalid values', () => {
  it('names every unparseable or empty date parameter', () => {
    assert.deepEqual(window({ start_date: '', ends_before: 'foo', end_date: '2025-04-12', starts_after: false }), {
      error: 'start_date',
      params: ['start_date', 'starts_after', 'ends_before'],
    });
  });

  it('rejects an empty or "0" strict_dates and non-string values', () => {
    for (const strict_dates of ['', '0', true, 1]) {
      assert.deepEqual(window({ strict_dates }), { error: 'strict_dates', params: ['strict_dates'] }, JSON.stringify(strict_dates));
    }
  });

  it('reports strict_dates after the date parameters', () => {
    assert.deepEqual(window({ strict_dates: '', end_date: '2025-02-30' }), { error: 'end_date', params: ['end_date', 'strict_dates'] });
  });
});
