import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { startService, type ServiceProcess } from '../crash/service-process.ts';
import { freshDatabase, skipReason, type FreshDatabase } from '../helpers/databases.ts';
import { openStorage } from '../../src/storage/database.ts';
import { runCli } from '../helpers/cli-process.ts';

const NS = '/calendar/events/v1';
const ADMIN_PASSWORD = 'backup-test-admin-password';
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;

const cli = runCli;

function venueIds(file: string): Set<number> {
  const connection = new BetterSqlite3(file, { readonly: true });
  try {
    assert.equal(connection.pragma('integrity_check', { simple: true }), 'ok');
    return new Set(connection.prepare('select id from venues').pluck().all() as number[]);
  } finally {
    connection.close();
  }
}

describe('calendar backup and restore (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-backup-'));
  const databasePath = join(dir, 'calendar.db');
  const env = { DATABASE_URL: `sqlite:${databasePath}`, CALENDAR_BACKUP_DIR: join(dir, 'backups'), CALENDAR_UPLOADS_DIR: join(dir, 'uploads') };
  let service: ServiceProcess | undefined;
  const backupFile = join(dir, 'copy.db');
  let cursorBefore = '';
  let countAtBackup = 0;

  before(async () => {
    mkdirSync(join(dir, 'uploads', '2026', '11'), { recursive: true });
    writeFileSync(join(dir, 'uploads', '2026', '11', 'poster.jpg'), 'not really a jpeg');
    service = await startService({ ...env, CALENDAR_ADMIN_PASSWORD: ADMIN_PASSWORD });
  });
  after(async () => {
    await service?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const createVenue = async (name: string): Promise<number> => {
    const response = await fetch(`${service!.origin}${NS}/venues`, { method: 'POST', headers: { authorization: AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ venue: name }) });
    assert.equal(response.status, 201, await response.clone().text());
    return ((await response.json()) as { id: number }).id;
  };

  test('a backup taken while 4 clients write holds every write acknowledged before it started, and passes its checks', async () => {
    cursorBefore = ((await (await fetch(`${service!.origin}${NS}/changes`)).json()) as { next_cursor: string }).next_cursor;
    const acknowledged: number[] = [];
    let writing = true;
    const writers = Array.from({ length: 4 }, async (_, writer) => {
      for (let n = 0; writing; n++) acknowledged.push(await createVenue(`Hall ${writer}-${n}`));
    });
    while (acknowledged.length < 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const beforeStart = [...acknowledged];
    const backup = await cli(env, 'backup', backupFile, '--json');
    const duringBackup = acknowledged.length - beforeStart.length;
    writing = false;
    await Promise.all(writers);
    assert.equal(backup.status, 0, backup.stderr);
    const report = JSON.parse(backup.stdout);
    assert.equal(report.integrity, 'ok');
    assert.equal(report.file, backupFile);
    assert.deepEqual(report.uploads, { files: 1, bytes: 17 });
    assert.ok(existsSync(join(dir, 'copy.uploads', '2026', '11', 'poster.jpg')));
    const copied = venueIds(backupFile);
    for (const id of beforeStart) assert.ok(copied.has(id), `venue ${id}, acknowledged before the backup started, is in it`);
    assert.equal(report.counts.venues, copied.size);
    countAtBackup = copied.size;
    assert.ok(duringBackup > 0, 'the clients kept writing while the backup ran');
    assert.equal(existsSync(`${backupFile}.partial`), false);
  });

  test('an existing FILE is never overwritten (exit 2)', async () => {
    const again = await cli(env, 'backup', backupFile);
    assert.equal(again.status, 2);
    assert.match(again.stderr, /exists/);
  });

  test('a copy taken while a write transaction is open (2 s or more) has what was committed and not what was not', async () => {
    const writer = new BetterSqlite3(databasePath);
    writer.pragma('busy_timeout = 5000');
    const committed = venueIds(databasePath).size;
    writer.exec('begin immediate');
    writer.prepare("insert into settings (key, value) values ('backup-test', 'uncommitted')").run();
    const file = join(dir, 'during-transaction.db');
    const opened = Date.now();
    // The backup runs from start to end while the transaction stays open (at least 2 s).
    const run = await cli(env, 'backup', file, '--json');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 2000 - (Date.now() - opened))));
    writer.exec('commit');
    writer.close();
    assert.equal(run.status, 0, run.stderr);
    assert.equal(venueIds(file).size, committed);
    const copy = new BetterSqlite3(file, { readonly: true });
    assert.equal(copy.prepare("select count(*) from settings where key = 'backup-test'").pluck().get(), 0, 'the open transaction is not in the copy');
    copy.close();
  });

  test('--keep 3 keeps the three newest default-named backups and nothing else is touched', async () => {
    const backups = join(dir, 'backups');
    mkdirSync(backups, { recursive: true });
    for (const day of ['01', '02', '03', '04']) writeFileSync(join(backups, `calendar-202001${day}-120000.db`), '');
    mkdirSync(join(backups, 'calendar-20200101-120000.uploads'));
    writeFileSync(join(backups, 'keep-me.db'), '');
    const run = await cli(env, 'backup', '--keep', '3');
    assert.equal(run.status, 0, run.stderr);
    const left = readdirSync(backups).filter((name) => name.endsWith('.db')).sort();
    assert.equal(left.length, 4, left.join(' '));
    const dated = left.filter((name) => name.startsWith('calendar-'));
    assert.equal(dated.length, 3);
    assert.deepEqual(dated.slice(0, 2), ['calendar-20200103-120000.db', 'calendar-20200104-120000.db']);
    assert.ok(left.includes('keep-me.db'));
    assert.ok(!existsSync(join(backups, 'calendar-20200101-120000.uploads')));
    assert.equal((await cli(env, 'backup', '--keep', '0')).status, 2);
  });

  test('restore is refused while the service runs, and nothing changes', async () => {
    const before = venueIds(databasePath);
    const run = await cli(env, 'restore', backupFile, '--force');
    assert.equal(run.status, 3, run.stderr);
    assert.match(run.stderr, /in use by a running service \(stop it first\)/);
    assert.deepEqual(venueIds(databasePath), before);
  });

  test('restore needs --force without a terminal, and refuses a backup from a newer version', async () => {
    assert.equal((await cli(env, 'restore', backupFile)).status, 2);
    const newer = join(dir, 'newer.db');
    const copy = new BetterSqlite3(backupFile);
    copy.exec(`vacuum into '${newer}'`);
    copy.close();
    const edited = new BetterSqlite3(newer);
    edited.exec("insert into kysely_migration (name, timestamp) values ('9999-from-the-future', '2030-01-01')");
    edited.close();
    const run = await cli(env, 'restore', newer, '--force');
    assert.equal(run.status, 2);
    assert.match(run.stderr, /backup from a newer version/);
  });

  test('after a SIGKILLed service (no stale lock) restore replaces the database; old cursors answer 410 reset', async () => {
    await service!.kill();
    writeFileSync(join(dir, 'uploads', 'after-backup.jpg'), 'x');
    const run = await cli(env, 'restore', backupFile, '--force', '--json');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).counts.venues, countAtBackup);
    assert.equal(venueIds(databasePath).size, countAtBackup);
    assert.ok(existsSync(join(dir, 'uploads', '2026', '11', 'poster.jpg')));
    assert.ok(!existsSync(join(dir, 'uploads', 'after-backup.jpg')), 'the uploads directory is the backup\'s');
    assert.ok(readdirSync(dir).some((name) => name.startsWith('calendar.db.before-restore-')));
    service = await startService({ ...env, CALENDAR_ADMIN_PASSWORD: ADMIN_PASSWORD });
    const changes = await fetch(`${service.origin}${NS}/changes?cursor=${encodeURIComponent(cursorBefore)}`);
    assert.equal(changes.status, 410);
    assert.equal(((await changes.json()) as { data: { reason: string } }).data.reason, 'reset');
    const listed = (await (await fetch(`${service.origin}${NS}/venues?per_page=1`)).json()) as { total: number };
    assert.equal(listed.total, countAtBackup);
  });
});

const run = promisify(execFile);

describe('calendar backup and restore (PostgreSQL)', { skip: skipReason('postgres') }, () => {
  let database: FreshDatabase;
  const dir = mkdtempSync(join(tmpdir(), 'calendar-pg-backup-'));
  before(async () => {
    database = await freshDatabase('postgres');
    await (await openStorage(database.url)).close();
  });
  after(async () => {
    await database?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  test('pg_dump in PATH: a custom-format dump pg_restore reads', async () => {
    const file = join(dir, 'calendar.dump');
    const backup = await cli({ DATABASE_URL: database.url }, 'backup', file);
    assert.equal(backup.status, 0, backup.stderr);
    const { stdout } = await run('pg_restore', ['--list', file]);
    assert.match(stdout, / TABLE DATA \S+ venues /);
  });

  test('without pg_dump in PATH: exit 2 and the exact command, which works when run', async () => {
    const file = join(dir, 'by-hand.dump');
    const backup = await cli({ DATABASE_URL: database.url, PATH: join(dir, 'empty-path') }, 'backup', file);
    assert.equal(backup.status, 2);
    const [first, command] = backup.stderr.trim().split('\n');
    assert.equal(first, 'calendar: pg_dump not found in PATH; run:');
    assert.match(command, /^pg_dump --format=custom --no-owner --host \S+ --port \d+ --username \S+ --dbname \S+ --schema t_\w+ --file \S+by-hand\.dump$/);
    await run('sh', ['-c', command]);
    const { stdout } = await run('pg_restore', ['--list', file]);
    assert.match(stdout, / TABLE DATA /);
  });

  test('restore names pg_restore and calendar changes reset (exit 2)', async () => {
    const restore = await cli({ DATABASE_URL: database.url }, 'restore', join(dir, 'calendar.dump'), '--force');
    assert.equal(restore.status, 2);
    assert.match(restore.stderr, /pg_restore --clean --if-exists --no-owner --dbname URL FILE, then: calendar changes reset/);
  });
});
