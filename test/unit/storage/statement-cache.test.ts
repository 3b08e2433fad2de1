import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachingStatements } from '../../../src/storage/statement-cache.ts';

function open() {
  const connection = new BetterSqlite3(':memory:');
  connection.exec('create table t (n integer)');
  connection.exec('insert into t values (1), (2), (3)');
  return connection;
}

describe('prepared statement cache', () => {
  test('a SQL text is prepared once and its statement reused', () => {
    const db = cachingStatements(open());
    const first = db.prepare('select n from t order by n');
    assert.equal(db.prepare('select n from t order by n'), first);
    assert.deepEqual(first.all([]), [{ n: 1 }, { n: 2 }, { n: 3 }]);
    assert.notEqual(db.prepare('select n from t where n > ?'), first);
    db.close();
  });

  test('a statement being iterated is not handed out again: its caller gets a fresh one', () => {
    const db = cachingStatements(open());
    const sql = 'select n from t order by n';
    const outer = db.prepare(sql).iterate([]);
    assert.deepEqual(outer.next().value, { n: 1 });
    assert.deepEqual(db.prepare(sql).all([]), [{ n: 1 }, { n: 2 }, { n: 3 }]);
    assert.deepEqual([...outer], [{ n: 2 }, { n: 3 }]);
    db.close();
  });

  test('beyond its capacity the least recently used text is dropped', () => {
    const db = cachingStatements(open(), 2);
    const a = db.prepare('select 1');
    const b = db.prepare('select 2');
    assert.equal(db.prepare('select 1'), a);
    db.prepare('select 3');
    assert.equal(db.prepare('select 1'), a);
    assert.notEqual(db.prepare('select 2'), b);
    db.close();
  });

  test("rows are the objects better-sqlite3 itself makes: names, values, order, a repeated name's last value", () => {
    const connection = open();
    const db = cachingStatements(connection);
    const sql = `select n, 'it''s "quoted" ☃' as "we""ird", null as absent, 2.5 as half, x'00ff' as bytes, n * 10 as n, 'own' as "__proto__x", 'c' as constructor from t order by n`;
    const own = connection.prepare(sql).all();
    const rows = db.prepare(sql).all([]);
    assert.deepEqual(rows, own);
    assert.deepEqual(rows.map((row) => Object.keys(row as object)), own.map((row) => Object.keys(row as object)));
    assert.deepEqual(rows[0], { n: 10, 'we"ird': 'it\'s "quoted" ☃', absent: null, half: 2.5, bytes: Buffer.from([0, 255]), __proto__x: 'own', constructor: 'c' });
    connection.close();
  });

  test('writes run as before, and a write returning rows gives objects', () => {
    const db = cachingStatements(open());
    assert.equal(db.prepare('insert into t values (?)').run([4]).changes, 1);
    assert.deepEqual(db.prepare('insert into t values (?) returning n, n + 1 as next').all([5]), [{ n: 5, next: 6 }]);
    assert.deepEqual(db.prepare('select count(*) as count from t').all([]), [{ count: 5 }]);
    db.close();
  });

  test('a kept select * gives the columns another connection added since', () => {
    const directory = mkdtempSync(join(tmpdir(), 'statement-cache-'));
    try {
      const path = join(directory, 'shared.db');
      const connection = new BetterSqlite3(path);
      connection.exec('create table t (n integer); insert into t values (1)');
      const db = cachingStatements(connection);
      assert.deepEqual(db.prepare('select * from t').all([]), [{ n: 1 }]);
      const other = new BetterSqlite3(path);
      other.exec(`alter table t add column label text default 'added'`);
      other.close();
      assert.deepEqual(db.prepare('select * from t').all([]), [{ n: 1, label: 'added' }]);
      db.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
