import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
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
});
