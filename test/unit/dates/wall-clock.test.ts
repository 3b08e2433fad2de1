import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  dayOfWeek, isCalendarDate, normalizeWall, readWall, wallAt, wallMillis, writeWall,
} from '../../../src/domain/dates/wall-clock.ts';

describe('wall clock arithmetic', () => {
  it('round-trips a datetime string', () => {
    assert.equal(writeWall(readWall('2025-04-12 19:30:05')), '2025-04-12 19:30:05');
    assert.throws(() => readWall('2025-04-12 19:30'), RangeError);
  });

  it('rolls month and day overflow over like PHP', () => {
    assert.equal(writeWall(normalizeWall({ ...readWall('2024-02-29 10:00:00'), month: 2 + 24 })), '2026-03-01 10:00:00');
    assert.equal(writeWall(normalizeWall({ ...readWall('2025-01-31 00:00:00'), month: 2 })), '2025-03-03 00:00:00');
    assert.equal(writeWall(normalizeWall({ ...readWall('2025-01-01 00:00:00'), day: 0, hour: -1 })), '2024-12-30 23:00:00');
  });

  it('keeps years 0–99 as written instead of mapping them to the 1900s', () => {
    const w = readWall('0050-06-15 12:00:00');
    assert.equal(writeWall(wallAt(wallMillis(w))), '0050-06-15 12:00:00');
  });

  it('knows which calendar dates exist', () => {
    assert.equal(isCalendarDate(2024, 2, 29), true);
    assert.equal(isCalendarDate(2025, 2, 29), false);
    assert.equal(isCalendarDate(2025, 4, 31), false);
    assert.equal(isCalendarDate(2025, 12, 31), true);
    assert.equal(isCalendarDate(2025, 13, 1), false);
    assert.equal(isCalendarDate(2025, 1, 0), false);
  });

  it('gives the day of the week with Sunday as 0', () => {
    assert.equal(dayOfWeek(readWall('2025-04-09 00:00:00')), 3);
    assert.equal(dayOfWeek(readWall('2025-04-13 23:59:59')), 0);
  });
});
