import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app.ts';
import { sql } from 'kysely';
import { LISTENER_NAME } from '../../../src/storage/cache-epochs.ts';
import { openStorage, type Storage } from '../../../src/storage/database.ts';
import { skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, EVENTS } from './fixtures.ts';

/**
 * Two app instances on one PostgreSQL database (what several instances behind a balancer are).
 * A write acknowledged by one must show in the very next read on the other, although that other
 * holds the previous answer in its cache, in both directions, while both instances serve
 * concurrent reads and writes. Requests go over sockets, as in production: a repeated read is then
 * answered by the replay in front of the framework, which must be as fresh. (Two SQLite
 * connections in one process cannot write concurrently: the synchronous driver would wait for a
 * lock the other one can only release on the same thread; read-cache.test.ts covers a second
 * SQLite instance's writes one at a time.)
 */
for (const dialect of ['postgres'] as const) {
  describe(`two instances on one database see each other's writes at once [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let otherStorage: Storage;
    let other: FastifyInstance;
    let instances: FastifyInstance[];
    const origins = new Map<FastifyInstance, string>();
    before(async () => {
      t = await startTestApp(dialect, { clock, overHttp: true });
      otherStorage = await openStorage(t.config.databaseUrl);
      other = await buildApp({ config: t.config, storage: otherStorage, clock, logger: false });
      instances = [t.app, other];
      origins.set(t.app, `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`);
      origins.set(other, await other.listen({ port: 0, host: '127.0.0.1' }));
    });
    after(async () => {
      await other.close();
      await otherStorage.close();
      await t.close();
    });

    const call = async (app: FastifyInstance, method: 'GET' | 'POST', url: string, body?: unknown) => {
      const response = await fetch(origins.get(app) + url, {
        method,
        headers: body === undefined ? {} : { authorization: t.authHeader(t.users.editor), 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as any };
    };

    test('write on one, read on the other, both orders, under concurrent load', async () => {
      let loading = true;
      // Readers keep both instances' caches busy with the shared pages meanwhile.
      const load = [0, 1, 2, 3].map(async (index) => {
        while (loading) {
          const app = instances[index % 2];
          assert.equal((await call(app, 'GET', `${EVENTS}?search=consistmark&per_page=50`)).status, 200);
          assert.equal((await call(app, 'GET', `${NS}/venues?search=consistmark`)).status, 200);
        }
      });
      const worker = async (index: number) => {
        for (let round = 0; round < 6; round++) {
          const [writer, reader] = round % 2 === 0 ? [t.app, other] : [other, t.app];
          const token = `consistmark${index}x${round}`;
          // The reader caches the answer before the write...
          assert.equal((await call(reader, 'GET', `${EVENTS}?search=${token}`)).body.total, 0);
          assert.equal((await call(reader, 'GET', `${NS}/venues?search=${token}`)).body.total, 0);
          const created = await call(writer, 'POST', EVENTS, {
            title: `Consistmark ${token}`, start_date: '2025-04-12 19:30', end_date: '2025-04-12 22:00', venue: { venue: `Hall ${token}` },
          });
          assert.equal(created.status, 201, JSON.stringify(created.body));
          // ...and the next read after the acknowledged write shows it.
          assert.equal((await call(reader, 'GET', `${EVENTS}?search=${token}`)).body.total, 1, `${token} list`);
          assert.equal((await call(reader, 'GET', `${NS}/venues?search=${token}`)).body.total, 1, `${token} venues`);
          const id = created.body.id;
          assert.equal((await call(reader, 'GET', `${EVENTS}/${id}`)).body.title, `Consistmark ${token}`);
          // An update through the reader's peer, read back on the reader from its cached copy.
          const updated = await call(writer, 'POST', `${EVENTS}/${id}`, { title: `Consistmark ${token} renamed` });
          assert.equal(updated.status, 200, JSON.stringify(updated.body));
          assert.equal((await call(reader, 'GET', `${EVENTS}/${id}`)).body.title, `Consistmark ${token} renamed`, `${token} single`);
          assert.equal((await call(reader, 'GET', `${EVENTS}?search=${token}`)).body.events[0].title, `Consistmark ${token} renamed`);
        }
      };
      // Every worker runs to its end (or first failure) before the instances may close.
      const outcomes = await Promise.allSettled([0, 1, 2, 3, 4, 5].map(worker));
      loading = false;
      await Promise.all(load);
      for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
      const all = await call(other, 'GET', `${EVENTS}?search=consistmark&per_page=50`);
      assert.equal(all.body.total, 36);
    });

    test('creates on both instances linking the same term wait for each other and both land', async () => {
      const category = await call(t.app, 'POST', `${NS}/categories`, { name: 'Lockmark' });
      assert.equal(category.status, 201);
      // A third transaction holds the term as a count update does, so that both creates pass their
      // links' foreign key check (a key-share lock on the term) before either counts: the order in
      // which two writers deadlocked when counting locked the term `for update`. (On different
      // days: creates on one day wait for each other earlier, at the day's count.)
      const holder = await otherStorage.db.connection().execute(async (connection) => {
        await sql`begin`.execute(connection);
        await sql`select id from terms where id = ${category.body.id} for no key update`.execute(connection);
        const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection)).rows[0].pid;
        const creates = [t.app, other].map((app, index) =>
          call(app, 'POST', EVENTS, { title: `Lockmark ${index}`, start_date: `2025-0${index + 4}-12 19:30`, end_date: `2025-0${index + 4}-12 22:00`, categories: [category.body.id] }));
        // Both creates wait: one for the holder, the other for it.
        for (let waiting = 0; waiting < 2; ) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          const { rows } = await sql<{ n: string }>`with blocked as (select pid from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid)))
            select count(*) as n from pg_stat_activity where pid in (select pid from blocked) or pg_blocking_pids(pid) && array(select pid from blocked)`.execute(connection);
          waiting = Number(rows[0].n);
        }
        await sql`commit`.execute(connection);
        return Promise.all(creates);
      });
      for (const created of holder) assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal((await call(other, 'GET', `${NS}/categories/${category.body.id}`)).body.count, 2);
    });

    test('while the listening connection is lost, reads are not served from the cache', async () => {
      const created = await call(t.app, 'POST', EVENTS, { title: 'Lostmark', start_date: '2025-04-12 19:30', end_date: '2025-04-12 22:00' });
      const single = `${EVENTS}/${created.body.id}`;
      assert.equal((await call(other, 'GET', single)).body.title, 'Lostmark');
      // Every listener of this database goes; writes meanwhile notify nobody.
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${LISTENER_NAME} and datname = current_database()`.execute(t.storage.db);
      await sql`update events set title = 'Lostmark renamed' where id = ${created.body.id}`.execute(t.storage.db);
      assert.equal((await call(other, 'GET', single)).body.title, 'Lostmark renamed');
      assert.equal((await call(t.app, 'GET', single)).body.title, 'Lostmark renamed');
    });
  });
}
