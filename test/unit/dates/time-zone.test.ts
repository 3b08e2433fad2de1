import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { offsetString, parseTimeZone, utcToWall, wallToUtc, zoneAbbreviation } from '../../../src/domain/dates/time-zone.ts';

describe('parseTimeZone', () => {
  it('accepts UTC as its own kind', () => {
    assert.deepEqual(parseTimeZone('UTC'), { kind: 'utc', name: 'UTC', offsetMinutes: 0 });
  });

  it('accepts IANA names', () => {
    assert.deepEqual(parseTimeZone('Europe/Rome'), { kind: 'iana', name: 'Europe/Rome' });
    assert.deepEqual(parseTimeZone('America/Argentina/Buenos_Aires'), { kind: 'iana', name: 'America/Argentina/Buenos_Aires' });
  });

  it('reads each offset spelling and keeps it verbatim', () => {
    const cases: Array<[string, number]> = [
      ['UTC+2', 120], ['UTC-5', -300], ['UTC-5:30', -330], ['UTC+5.5', 330], ['UTC+05:30', 330],
      ['UTC+5.75', 345], ['UTC+0', 0], ['UTC-0', 0], ['UTC+14', 840], ['UTC-12', -720],
    ];
    for (const [input, offsetMinutes] of cases) {
      assert.deepEqual(parseTimeZone(input), { kind: 'offset', name: input, offsetMinutes }, input);
    }
  });

  it('rejects everything else', () => {
    for (const input of ['', 'Foo/Bar', 'utc+2', 'GMT+2', '+02:00', 'UTC+', 'UTC+15', 'UTC+5:60', 'UTC+5:3', 'UTC 2', ' Europe/Rome', 'Europe/Rome ']) {
      assert.equal(parseTimeZone(input), null, JSON.stringify(input));
    }
  });
});

describe('wallToUtc / utcToWall', () => {
  it('uses the offset in force on the day (Europe/Rome winter and summer)', () => {
    assert.equal(wallToUtc('2025-01-15 10:00:00', 'Europe/Rome'), '2025-01-15 09:00:00');
    assert.equal(wallToUtc('2025-04-12 19:30:00', 'Europe/Rome'), '2025-04-12 17:30:00');
    assert.equal(utcToWall('2025-01-15 09:00:00', 'Europe/Rome'), '2025-01-15 10:00:00');
    assert.equal(utcToWall('2025-04-12 17:30:00', 'Europe/Rome'), '2025-04-12 19:30:00');
  });

  it('follows the March change in Rome (01:00 UTC, 02:00 → 03:00 local)', () => {
    assert.equal(utcToWall('2025-03-30 00:59:59', 'Europe/Rome'), '2025-03-30 01:59:59');
    assert.equal(utcToWall('2025-03-30 01:00:00', 'Europe/Rome'), '2025-03-30 03:00:00');
    assert.equal(wallToUtc('2025-03-30 01:59:59', 'Europe/Rome'), '2025-03-30 00:59:59');
    assert.equal(wallToUtc('2025-03-30 03:00:00', 'Europe/Rome'), '2025-03-30 01:00:00');
  });

  it('moves a skipped local time forward by the gap, as PHP does', () => {
    // 02:30 does not exist in Rome on 30 March 2025; PHP reads it as 03:30 CEST.
    assert.equal(wallToUtc('2025-03-30 02:30:00', 'Europe/Rome'), '2025-03-30 01:30:00');
    // 02:30 does not exist in New York on 9 March 2025; PHP reads it as 03:30 EDT.
    assert.equal(wallToUtc('2025-03-09 02:30:00', 'America/New_York'), '2025-03-09 07:30:00');
  });

  it('follows the October change in Rome (01:00 UTC, 03:00 → 02:00 local)', () => {
    assert.equal(utcToWall('2025-10-26 00:59:59', 'Europe/Rome'), '2025-10-26 02:59:59');
    assert.equal(utcToWall('2025-10-26 01:00:00', 'Europe/Rome'), '2025-10-26 02:00:00');
    assert.equal(wallToUtc('2025-10-26 03:00:00', 'Europe/Rome'), '2025-10-26 02:00:00');
  });

  it('resolves a repeated local time the way timelib does, independent of today', () => {
    // East of UTC the guess lands on the later (standard-time) occurrence…
    assert.equal(wallToUtc('2025-10-26 02:30:00', 'Europe/Rome'), '2025-10-26 01:30:00');
    // …west of UTC on the earlier (daylight-time) one.
    assert.equal(wallToUtc('2025-11-02 01:30:00', 'America/New_York'), '2025-11-02 05:30:00');
  });

  it('follows New York DST', () => {
    assert.equal(wallToUtc('2025-01-15 12:00:00', 'America/New_York'), '2025-01-15 17:00:00');
    assert.equal(wallToUtc('2025-07-15 12:00:00', 'America/New_York'), '2025-07-15 16:00:00');
    assert.equal(utcToWall('2025-03-09 06:59:59', 'America/New_York'), '2025-03-09 01:59:59');
    assert.equal(utcToWall('2025-03-09 07:00:00', 'America/New_York'), '2025-03-09 03:00:00');
  });

  it('uses the fixed offset of offset forms', () => {
    assert.equal(wallToUtc('2025-04-12 10:00:00', 'UTC+5:30'), '2025-04-12 04:30:00');
    assert.equal(wallToUtc('2025-04-12 10:00:00', 'UTC+5.5'), '2025-04-12 04:30:00');
    assert.equal(wallToUtc('2025-04-12 10:00:00', 'UTC-5:30'), '2025-04-12 15:30:00');
    assert.equal(wallToUtc('2025-01-01 01:00:00', 'UTC+2'), '2024-12-31 23:00:00');
    assert.equal(utcToWall('2025-04-12 04:30:00', 'UTC+05:30'), '2025-04-12 10:00:00');
    // No DST for fixed offsets, even across the European change.
    assert.equal(wallToUtc('2025-07-01 10:00:00', 'UTC+1'), '2025-07-01 09:00:00');
  });

  it('leaves UTC unchanged', () => {
    assert.equal(wallToUtc('2025-04-12 10:00:00', 'UTC'), '2025-04-12 10:00:00');
    assert.equal(utcToWall('2025-04-12 10:00:00', 'UTC'), '2025-04-12 10:00:00');
  });

  it('refuses unknown zones and malformed datetime strings', () => {
    assert.throws(() => wallToUtc('2025-04-12 10:00:00', ''), RangeError);
    assert.throws(() => utcToWall('2025-04-12 10:00:00', 'Mars/Olympus'), RangeError);
    assert.throws(() => wallToUtc('2025-04-12T10:00:00', 'UTC'), RangeError);
  });
});

describe('zoneAbbreviation', () => {
  it('gives CET and CEST on either side of the March change', () => {
    assert.equal(zoneAbbreviation('Europe/Rome', '2025-03-30 00:59:59'), 'CET');
    assert.equal(zoneAbbreviation('Europe/Rome', '2025-03-30 01:00:00'), 'CEST');
    assert.equal(zoneAbbreviation('Europe/Rome', '2025-10-26 00:59:59'), 'CEST');
    assert.equal(zoneAbbreviation('Europe/Rome', '2025-10-26 01:00:00'), 'CET');
  });

  it('gives EST and EDT for New York', () => {
    assert.equal(zoneAbbreviation('America/New_York', '2025-01-15 12:00:00'), 'EST');
    assert.equal(zoneAbbreviation('America/New_York', '2025-07-15 12:00:00'), 'EDT');
  });

  it('gives AEDT/AEST, JST, IST and GMT/BST', () => {
    assert.equal(zoneAbbreviation('Australia/Sydney', '2025-01-15 12:00:00'), 'AEDT');
    assert.equal(zoneAbbreviation('Australia/Sydney', '2025-07-15 12:00:00'), 'AEST');
    assert.equal(zoneAbbreviation('Asia/Tokyo', '2025-07-15 12:00:00'), 'JST');
    assert.equal(zoneAbbreviation('Asia/Kolkata', '2025-07-15 12:00:00'), 'IST');
    assert.equal(zoneAbbreviation('Europe/London', '2025-01-15 12:00:00'), 'GMT');
    assert.equal(zoneAbbreviation('Europe/London', '2025-07-15 12:00:00'), 'BST');
  });

  it('falls back to the numeric tz-database form when no letters are known', () => {
    assert.equal(zoneAbbreviation('Asia/Kathmandu', '2025-07-15 12:00:00'), '+0545');
    assert.equal(zoneAbbreviation('Etc/GMT-4', '2025-07-15 12:00:00'), '+04');
    assert.equal(zoneAbbreviation('America/Sao_Paulo', '2025-07-15 12:00:00'), '-03');
  });

  it('returns offset forms and UTC as written', () => {
    assert.equal(zoneAbbreviation('UTC+2', '2025-07-15 12:00:00'), 'UTC+2');
    assert.equal(zoneAbbreviation('UTC-5:30', '2025-07-15 12:00:00'), 'UTC-5:30');
    assert.equal(zoneAbbreviation('UTC+5.5', '2025-07-15 12:00:00'), 'UTC+5.5');
    assert.equal(zoneAbbreviation('UTC', '2025-07-15 12:00:00'), 'UTC');
  });
});

describe('offsetString', () => {
  it('writes ±HH:MM for the instant', () => {
    assert.equal(offsetString('Europe/Rome', '2025-01-15 12:00:00'), '+01:00');
    assert.equal(offsetString('Europe/Rome', '2025-07-15 12:00:00'), '+02:00');
    assert.equal(offsetString('America/New_York', '2025-01-15 12:00:00'), '-05:00');
    assert.equal(offsetString('Asia/Kolkata', '2025-01-15 12:00:00'), '+05:30');
    assert.equal(offsetString('UTC+5.5', '2025-01-15 12:00:00'), '+05:30');
    assert.equal(offsetString('UTC-5:30', '2025-01-15 12:00:00'), '-05:30');
    assert.equal(offsetString('UTC', '2025-01-15 12:00:00'), '+00:00');
  });
});
