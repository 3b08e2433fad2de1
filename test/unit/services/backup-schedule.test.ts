import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DateTime } from 'luxon';
import { loadConfig } from '../../../src/config.ts';
import { dueBackupDate } from '../../../src/services/backup-schedule.ts';
import { defaultBackupName, pruneBackups } from '../../../src/storage/backup/backup-files.ts';

/** Every half minute from `from` to `to`, as the job runner checks, with the runs it makes. */
function runs(zone: string, at: { hour: number; minute: number }, from: string, to: string): string[] {
  const made: string[] = [];
  let last = dueBackupDate(DateTime.fromISO(from, { zone }).toJSDate(), zone, at, null);
  const end = DateTime.fromISO(to, { zone }).toMillis();
  for (let ms = DateTime.fromISO(from, { zone }).toMillis(); ms < end; ms += 30_000) {
    const date = dueBackupDate(new Date(ms), zone, at, last);
    if (date === null) continue;
    last = date;
    made.push(DateTime.fromMillis(ms, { zone }).toFormat('yyyy-MM-dd HH:mm'));
  }
  return made;
}

describe('scheduled backups (140 §3.5)', () => {
  test('one run per local day across the spring-forward gap: a skipped 02:30 runs at the next minute that exists', () => {
    const made = runs('Europe/Berlin', { hour: 2, minute: 30 }, '2027-03-26T12:00', '2027-03-30T12:00');
    assert.deepEqual(made, ['2027-03-27 02:30', '2027-03-28 03:00', '2027-03-29 02:30', '2027-03-30 02:30']);
  });

  test('one run per local day across the fall-back repeat: the repeated 02:30 runs once', () => {
    const made = runs('Europe/Berlin', { hour: 2, minute: 30 }, '2027-10-29T12:00', '2027-11-01T12:00');
    assert.deepEqual(made, ['2027-10-30 02:30', '2027-10-31 02:30', '2027-11-01 02:30']);
  });

  test('a start after today\'s time does not catch up the missed run', () => {
    assert.deepEqual(runs('UTC', { hour: 3, minute: 0 }, '2027-05-01T10:00', '2027-05-02T10:00'), ['2027-05-02 03:00']);
  });

  test('20 daily backups with keep 14 leave the 14 newest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'calendar-keep-'));
    try {
      for (let day = 1; day <= 20; day++) {
        writeFileSync(join(dir, defaultBackupName(new Date(Date.UTC(2027, 0, day, 3)), 'db')), '');
        pruneBackups(dir, 'db', 14);
      }
      const left = readdirSync(dir).sort();
      assert.equal(left.length, 14);
      assert.equal(left[0], 'calendar-20270107-030000.db');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('backup settings (140 §8)', () => {
  test('HH:MM on SQLite; off by default; a bad value or a schedule on PostgreSQL refuses the start', () => {
    assert.deepEqual(loadConfig({ CALENDAR_BACKUP_SCHEDULE: '03:15' }).backup.schedule, { hour: 3, minute: 15 });
    assert.equal(loadConfig({}).backup.schedule, null);
    assert.equal(loadConfig({}).backup.keep, 14);
    assert.throws(() => loadConfig({ CALENDAR_BACKUP_SCHEDULE: '25:00' }), /CALENDAR_BACKUP_SCHEDULE must be off or HH:MM/);
    assert.throws(() => loadConfig({ CALENDAR_BACKUP_SCHEDULE: '03:00', DATABASE_URL: 'postgres://127.0.0.1/x' }), /use pg_dump from cron/);
    assert.throws(() => loadConfig({ CALENDAR_BACKUP_KEEP: '0' }), /CALENDAR_BACKUP_KEEP/);
  });
});
