import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../database.ts';
import { TERM_COUNT_OPERATIONS, termCountFunction } from './0014-statement-triggers.ts';

/**
 * PostgreSQL: the term-count functions (0014) lock their terms `for no key update`, the lock an
 * update of a non-key column takes anyway, instead of `for update`. A link row's foreign key
 * check takes a key-share lock on its term, which `for update` waits for and `for no key update`
 * does not: two writers (two create groups, two instances) that had each inserted links to the
 * same term then waited for each other's key-share lock, and one failed with "deadlock
 * detected" (68 of 3,000 creates with three groups side by side). Now the second waits for the
 * first's commit, as the id order intended.
 */
export function termLockStrength(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      for (const [operation, sign] of TERM_COUNT_OPERATIONS) await sql.raw(termCountFunction(operation, sign, 'no key update')).execute(db);
    },
  };
}
