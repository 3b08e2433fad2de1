import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseInstant, parseWallClock } from '../../../src/domain/dates/date-input.ts';

// Wednesday 9 April 2025, 15:30:45 UTC = 17:30:45 in Rome (CEST).
const NOW = new Date('2025-04-09T15:30:45Z');
const ROME = 'Europe/Rome';

function wall(input: unknown, zone = ROME, now = NOW): string | null {
  return parseWallClock(input, zone, now);
}

describe('parseWallClock: ISO-like forms keep the written digits', () => {
  it('reads a date alone as its midnight', () => {
    assert.equal(wall('2025-04-12'), '2025-04-12 00:00:00');
  });

  it('reads date and time with a space or a T, with or without seconds', () => {
    assert.equal(wall('2025-04-12 19:30'), '2025-04-12 19:30:00');
    assert.equal(wall('2025-04-12T19:30:00'), '2025-04-12 19:30:00');
    assert.equal(wall('2025-04-12T19:30'), '2025-04-12 19:30:00');
    assert.equal(wall('2025-04-12 07:05:09'), '2025-04-12 07:05:09');
  });

  it('drops a fraction of a second', () => {
    assert.equal(wall('2025-04-12T19:30:00.123'), '2025-04-12 19:30:00');
  });

  it('does not convert by an explicit Z or offset', () => {
    assert.equal(wall('2025-04-12T10:00:00Z'), '2025-04-12 10:00:00');
    assert.equal(wall('2025-04-12T19:30:00+02:00', 'America/New_York'), '2025-04-12 19:30:00');
    assert.equal(wall('2025-04-12T19:30:00.5-05:00'), '2025-04-12 19:30:00');
    assert.equal(wall('2025-04-12 19:30+0530'), '2025-04-12 19:30:00');
    assert.equal(wall('2025-04-12 19:30 +05:30'), '2025-04-12 19:30:00');
  });

  it('accepts lower case and surrounding blanks', () => {
    assert.equal(wall('  2025-04-12t19:30:00z '), '2025-04-12 19:30:00');
  });
});

describe('parseWallClock: 12-hour times', () => {
  it('reads pm hours', () => {
    assert.equal(wall('2018-01-01 4pm'), '2018-01-01 16:00:00');
    assert.equal(wall('2025-04-12 7:30pm'), '2025-04-12 19:30:00');
    assert.equal(wall('2025-04-12 7:30 PM'), '2025-04-12 19:30:00');
  });

  it('maps 12am to midnight and 12pm to noon', () => {
    assert.equal(wall('2025-04-12 12am'), '2025-04-12 00:00:00');
    assert.equal(wall('2025-04-12 12pm'), '2025-04-12 12:00:00');
    assert.equal(wall('2025-04-12 11 a.m.'), '2025-04-12 11:00:00');
  });

  it('rejects hours that a 12-hour clock does not have', () => {
    assert.equal(wall('2025-04-12 13pm'), null);
    assert.equal(wall('2025-04-12 0am'), null);
  });
});

describe('parseWallClock: Unix timestamps', () => {
  it('takes the UTC digits of a JSON number as the wall clock, whatever the zone', () => {
    // 1744478400 = 2025-04-12 17:20:00 UTC; kept as 17:20 Rome time (reference quirk).
    assert.equal(wall(1744478400), '2025-04-12 17:20:00');
    assert.equal(wall(1744478400, 'America/New_York'), '2025-04-12 17:20:00');
  });

  it('treats a digit string the same way', () => {
    assert.equal(wall('1744478400'), '2025-04-12 17:20:00');
    assert.equal(wall('0'), '1970-01-01 00:00:00');
  });

  it('drops fractional seconds of a JSON number', () => {
    assert.equal(wall(1744478400.9), '2025-04-12 17:20:00');
  });

  it('rejects timestamps that do not fit a four-digit year', () => {
    assert.equal(wall(1e15), null);
    assert.equal(wall(Number.NaN), null);
  });
});

describe('parseWallClock: relative words, evaluated now in the zone', () => {
  it('reads now as the current wall clock in the zone', () => {
    assert.equal(wall('now'), '2025-04-09 17:30:45');
    assert.equal(wall('now', 'UTC'), '2025-04-09 15:30:45');
    assert.equal(wall('now', 'UTC+5:30'), '2025-04-09 21:00:45');
  });

  it('starts today, tomorrow, yesterday and midnight at 00:00:00', () => {
    assert.equal(wall('today'), '2025-04-09 00:00:00');
    assert.equal(wall('midnight'), '2025-04-09 00:00:00');
    assert.equal(wall('tomorrow'), '2025-04-10 00:00:00');
    assert.equal(wall('yesterday'), '2025-04-08 00:00:00');
  });

  it('reads noon as today at 12:00', () => {
    assert.equal(wall('noon'), '2025-04-09 12:00:00');
  });

  it('takes "today" from the zone, not from UTC', () => {
    // 23:30 UTC is already 01:30 on the 10th in Rome.
    const lateEvening = new Date('2025-04-09T23:30:00Z');
    assert.equal(wall('today', ROME, lateEvening), '2025-04-10 00:00:00');
    assert.equal(wall('today', 'UTC', lateEvening), '2025-04-09 00:00:00');
    assert.equal(wall('tomorrow', 'America/New_York', lateEvening), '2025-04-10 00:00:00');
  });

  it('applies a time that follows a day word', () => {
    assert.equal(wall('tomorrow 9am'), '2025-04-10 09:00:00');
    assert.equal(wall('yesterday 23:59'), '2025-04-08 23:59:00');
    assert.equal(wall('tomorrow noon'), '2025-04-10 12:00:00');
  });

  it('lets a later day word reset an earlier time, as PHP documents', () => {
    assert.equal(wall('11:00 tomorrow'), '2025-04-10 00:00:00');
  });

  it('reads next <weekday> as the first one after today, a week ahead on that weekday', () => {
    assert.equal(wall('next friday'), '2025-04-11 00:00:00');
    assert.equal(wall('next wednesday 4pm'), '2025-04-16 16:00:00');
  });

  it('reads last <weekday> as the latest one before today', () => {
    assert.equal(wall('last friday'), '2025-04-04 00:00:00');
    assert.equal(wall('last wednesday'), '2025-04-02 00:00:00');
    assert.equal(wall('last tuesday'), '2025-04-08 00:00:00');
  });

  it('reads a bare weekday as today or the next one', () => {
    assert.equal(wall('wednesday'), '2025-04-09 00:00:00');
    assert.equal(wall('thu 10:00'), '2025-04-10 10:00:00');
    assert.equal(wall('this friday'), '2025-04-11 00:00:00');
  });

  it('counts offsets from the current time', () => {
    assert.equal(wall('+1 week'), '2025-04-16 17:30:45');
    assert.equal(wall('-2 hours'), '2025-04-09 15:30:45');
    assert.equal(wall('+24 months'), '2027-04-09 17:30:45');
    assert.equal(wall('+1 week 2 days'), '2025-04-18 17:30:45');
    assert.equal(wall('3 days'), '2025-04-12 17:30:45');
    assert.equal(wall('next month'), '2025-05-09 17:30:45');
    assert.equal(wall('last year'), '2024-04-09 17:30:45');
    assert.equal(wall('+90 min'), '2025-04-09 19:00:45');
    assert.equal(wall('+1 fortnight -30 seconds'), '2025-04-23 17:30:15');
  });

  it('sets the time of day when one follows an offset', () => {
    assert.equal(wall('+5 days 11am'), '2025-04-14 11:00:00');
  });

  it('rolls month overflow over like PHP', () => {
    const endOfJanuary = new Date('2025-01-31T12:00:00Z');
    assert.equal(wall('+1 month', 'UTC', endOfJanuary), '2025-03-03 12:00:00');
  });

  it('crosses the year boundary', () => {
    assert.equal(wall('tomorrow', 'UTC', new Date('2025-12-31T10:00:00Z')), '2026-01-01 00:00:00');
  });
});

describe('parseWallClock: written dates', () => {
  it('reads day month year', () => {
    assert.equal(wall('12 April 2025'), '2025-04-12 00:00:00');
    assert.equal(wall('12th apr 2025 7pm'), '2025-04-12 19:00:00');
    assert.equal(wall('12-apr-2025'), '2025-04-12 00:00:00');
  });

  it('reads month day, year with a time', () => {
    assert.equal(wall('April 12, 2025 10:00'), '2025-04-12 10:00:00');
    assert.equal(wall('Sept 3 2025'), '2025-09-03 00:00:00');
  });

  it('puts a written date without year in the current year', () => {
    assert.equal(wall('April 12'), '2025-04-12 00:00:00');
  });
});

describe('parseWallClock: rejected values', () => {
  it('rejects empty, false, booleans and non-scalars', () => {
    for (const input of ['', '   ', 'false', false, true, null, undefined, {}, ['2025-04-12']]) {
      assert.equal(wall(input), null, JSON.stringify(input));
    }
  });

  it('rejects dates and times that do not exist', () => {
    for (const input of ['2025-02-30', '2025-13-01', '2025-00-10', '25:00', '2025-04-12 24:00', '2025-04-12 10:60', '2025-02-29', '31 April 2025']) {
      assert.equal(wall(input), null, input);
    }
    assert.equal(wall('2024-02-29'), '2024-02-29 00:00:00');
  });

  it('rejects text it cannot read, and two times or two dates', () => {
    for (const input of ['foo', 'next', '2025-04-12 garbage', '10:00 11:00', 'noon 10:00', '2025-04-12 2025-04-13', '12.04.2025', 'next friday last friday']) {
      assert.equal(wall(input), null, input);
    }
  });
});

describe('parseInstant', () => {
  it('reads text without offset in the default zone', () => {
    assert.equal(parseInstant('2025-04-12 19:30', 'UTC', NOW), '2025-04-12 19:30:00');
    assert.equal(parseInstant('2025-04-12 19:30', ROME, NOW), '2025-04-12 17:30:00');
    assert.equal(parseInstant('2025-01-12 19:30', ROME, NOW), '2025-01-12 18:30:00');
  });

  it('honours an explicit Z or offset', () => {
    assert.equal(parseInstant('2025-04-12T19:30:00+02:00', 'UTC', NOW), '2025-04-12 17:30:00');
    assert.equal(parseInstant('2025-04-12T19:30:00-05:30', 'UTC', NOW), '2025-04-13 01:00:00');
    assert.equal(parseInstant('2025-04-12T19:30:00Z', ROME, NOW), '2025-04-12 19:30:00');
    assert.equal(parseInstant('2025-04-12 19:30 +02:00', 'UTC', NOW), '2025-04-12 17:30:00');
    assert.equal(parseInstant('2025-04-12 19:30:00 GMT', ROME, NOW), '2025-04-12 19:30:00');
  });

  it('treats timestamps as instants', () => {
    assert.equal(parseInstant(1744478400, ROME, NOW), '2025-04-12 17:20:00');
    assert.equal(parseInstant('1744478400', 'UTC', NOW), '2025-04-12 17:20:00');
  });

  it('evaluates relative words now in the default zone', () => {
    assert.equal(parseInstant('now', ROME, NOW), '2025-04-09 15:30:45');
    assert.equal(parseInstant('today', 'UTC', NOW), '2025-04-09 00:00:00');
    // Midnight in Rome is 22:00 UTC the day before.
    assert.equal(parseInstant('today', ROME, NOW), '2025-04-08 22:00:00');
  });

  it('rejects what parseWallClock rejects', () => {
    for (const input of ['', false, 'foo', '2025-02-30', '25:00']) {
      assert.equal(parseInstant(input, 'UTC', NOW), null, JSON.stringify(input));
    }
  });
});

describe('the ISO fast path reads what the general reader reads', () => {
  it('for every day of a leap and a common year, impossible dates and times included', async () => {
    const { readDateText } = await import('../../../src/domain/dates/date-text.ts');
    const { readWall, writeWall } = await import('../../../src/domain/dates/wall-clock.ts');
    const general = (text: string) => {
      const read = readDateText(text, readWall('2025-04-09 17:30:45'));
      return read && writeWall(read.wall);
    };
    const texts: string[] = [];
    for (const year of ['2024', '2025']) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) texts.push(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
      }
    }
    texts.push('2025-04-12 23:59:59', '2025-04-12T00:00', '2025-04-12 24:00', '2025-04-12 19:60', '2025-04-12 19:30:60', '0000-01-01', '9999-12-31 23:59');
    for (const text of texts) assert.equal(wall(text), general(text), text);
  });
});
