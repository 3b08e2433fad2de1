import type { Kysely } from 'kysely';
import type { Dialect } from '../../src/storage/database.ts';
import { migrationProvider } from '../../src/storage/migrations/index.ts';

/**
 * Rewinds the migration log so that `name` and every later migration run again at the next start,
 * as on a database an earlier version left. Later migrations that can be undone (a `down`) are
 * undone first, newest first — a column they added must not be there twice; the others run again
 * harmlessly. `name` itself is the caller's to take back.
 */
export async function forgetMigrationsFrom(db: Kysely<any>, dialect: Dialect, name: string): Promise<void> {
  const later = Object.entries(await migrationProvider(dialect).getMigrations()).filter(([other]) => other > name).reverse();
  for (const [, migration] of later) await migration.down?.(db);
  await db.deleteFrom('kysely_migration').where('name', '>=', name).execute();
}
