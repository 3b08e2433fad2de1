import { sql } from 'kysely';
import { openStorage } from '../src/storage/database.ts';

/**
 * Grows the seeded database to `target` events by copying the events the API created (with their
 * venue, organizers and terms) straight into the tables, in batches: the growth measurement needs
 * the data, not another half hour of API seeding. The triggers keep term counts and notify as usual.
 */
export async function copyEvents(databaseUrl: string, target: number): Promise<void> {
  const storage = await openStorage(databaseUrl);
  const { db } = storage;
  try {
    const templates = await db.selectFrom('events').selectAll().orderBy('id').limit(2000).execute();
    const ids = templates.map((event) => event.id);
    const terms = await db.selectFrom('event_terms').selectAll().where('event_id', 'in', ids).execute();
    const organizers = await db.selectFrom('event_organizers').selectAll().where('event_id', 'in', ids).execute();
    const count = Number((await db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    for (let made = count; made < target; ) {
      // SQLite allows 32,766 parameters per statement: 500 rows of about 40 columns stay under it.
      const size = Math.min(500, target - made);
      await db.transaction().execute(async (trx) => {
        const fresh = await trx.insertInto('objects').values(Array.from({ length: size }, () => ({ kind: 'event' as const }))).returning('id').execute();
        const rows = fresh.map(({ id }, index) => {
          const template = templates[(made + index) % templates.length];
          return { template, row: { ...template, id, slug: `${template.slug}-copy-${id}` } };
        });
        await trx.insertInto('events').values(rows.map(({ row }) => row)).execute();
        const termLinks = rows.flatMap(({ template, row }) => terms.filter((link) => link.event_id === template.id).map((link) => ({ ...link, event_id: row.id })));
        if (termLinks.length) await trx.insertInto('event_terms').values(termLinks).execute();
        const organizerLinks = rows.flatMap(({ template, row }) => organizers.filter((link) => link.event_id === template.id).map((link) => ({ ...link, event_id: row.id })));
        if (organizerLinks.length) await trx.insertInto('event_organizers').values(organizerLinks).execute();
      });
      made += size;
    }
  } finally {
    await storage.close();
  }
  await analyze(databaseUrl);
}

/**
 * What autovacuum does after a bulk load (since PostgreSQL 13 inserts alone start a vacuum too):
 * without it (a server running with autovacuum off) PostgreSQL plans on the statistics of the
 * empty tables the migrations created, and no page is marked all-visible, so an index-only scan
 * still visits the table (a category's 10,000 links at 200,000 events: 20 ms instead of 3).
 */
export async function analyze(databaseUrl: string): Promise<void> {
  const storage = await openStorage(databaseUrl);
  try {
    if (storage.dialect === 'postgres') await sql`vacuum analyze`.execute(storage.db);
  } finally {
    await storage.close();
  }
}
