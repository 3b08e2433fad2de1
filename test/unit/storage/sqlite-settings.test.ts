import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openStorage } from '../../../src/storage/database.ts';

/** The connection settings a SQLite file is opened with (database.ts says why each is there). */
test('a SQLite file is opened in WAL mode with the settings the write and read paths rely on', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-settings-'));
  const storage = await openStorage(`sqlite:${join(dir, 'calendar.db')}`);
  try {
    const pragma = async (name: string) => Object.values((await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(storage.db)).rows[0])[0];
    assert.equal(await pragma('journal_mode'), 'wal');
    assert.equal(await pragma('synchronous'), 1, 'NORMAL');
    assert.equal(await pragma('foreign_keys'), 1);
    assert.equal(await pragma('cache_size'), -8192);
    assert.equal(await pragma('wal_autocheckpoint'), 10000);
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
